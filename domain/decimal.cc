#include "domain/decimal.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace esign {
namespace {

constexpr size_t kMaxDigits = 40;

// A decimal as sign, significant digits and a power of ten: value = digits * 10^exponent.
struct Normalized {
  bool negative = false;
  std::string digits;  // no leading or trailing zeros; empty means zero
  long exponent = 0;
  bool operator==(const Normalized&) const = default;
};

// Parses the JSON number grammar (sign, digits, fraction, exponent) into normal form.
std::optional<Normalized> NormalizeLiteral(std::string_view text) {
  Normalized out;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    out.negative = text[i] == '-';
    ++i;
  }
  std::string digits;
  long exponent = 0;
  bool any = false;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    digits += text[i++];
    any = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      digits += text[i++];
      --exponent;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exp = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative_exp = text[i++] == '-';
    long e = 0;
    bool exp_digits = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (e < 100000) e = e * 10 + (text[i] - '0');
      ++i;
      exp_digits = true;
    }
    if (!exp_digits) return std::nullopt;
    exponent += negative_exp ? -e : e;
  }
  if (i != text.size()) return std::nullopt;
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Normalized{};  // zero, whatever its sign
  digits.erase(0, first);
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  out.digits = std::move(digits);
  out.exponent = exponent;
  return out;
}

}  // namespace

bool IsDecimalString(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && text[i] == '-') ++i;
  size_t int_digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    ++i;
    ++int_digits;
  }
  if (int_digits == 0) return false;
  size_t frac_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      ++frac_digits;
    }
    if (frac_digits == 0) return false;
  }
  return i == text.size() && int_digits + frac_digits <= kMaxDigits;
}

int CompareDecimals(std::string_view a, std::string_view b) {
  auto na = NormalizeLiteral(a);
  auto nb = NormalizeLiteral(b);
  if (!na || !nb) return a < b ? -1 : (a == b ? 0 : 1);  // callers validate first
  bool a_zero = na->digits.empty();
  bool b_zero = nb->digits.empty();
  int sign_a = a_zero ? 0 : (na->negative ? -1 : 1);
  int sign_b = b_zero ? 0 : (nb->negative ? -1 : 1);
  if (sign_a != sign_b) return sign_a < sign_b ? -1 : 1;
  if (sign_a == 0) return 0;
  // Same sign: compare magnitudes by the position of the leading digit, then digit by digit.
  long lead_a = static_cast<long>(na->digits.size()) + na->exponent;
  long lead_b = static_cast<long>(nb->digits.size()) + nb->exponent;
  int magnitude = 0;
  if (lead_a != lead_b) {
    magnitude = lead_a < lead_b ? -1 : 1;
  } else {
    size_t n = std::max(na->digits.size(), nb->digits.size());
    for (size_t i = 0; i < n && magnitude == 0; ++i) {
      char da = i < na->digits.size() ? na->digits[i] : '0';
      char db = i < nb->digits.size() ? nb->digits[i] : '0';
      if (da != db) magnitude = da < db ? -1 : 1;
    }
  }
  return sign_a > 0 ? magnitude : -magnitude;
}

std::optional<std::string> DecimalFromJson(const boost::json::value& value) {
  if (value.is_string()) {
    std::string text(value.get_string());
    if (!IsDecimalString(text)) return std::nullopt;
    return text;
  }
  if (value.is_int64()) return std::to_string(value.get_int64());
  if (value.is_uint64()) return std::to_string(value.get_uint64());
  if (value.is_double()) {
    double d = value.get_double();
    if (!std::isfinite(d)) return std::nullopt;
    char buffer[512];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), d, std::chars_format::fixed);
    if (ec != std::errc()) return std::nullopt;
    std::string text(buffer, end);
    if (text == "-0") text = "0";
    if (!IsDecimalString(text)) return std::nullopt;
    return text;
  }
  return std::nullopt;
}

bool NumberLiteralEqualsDouble(std::string_view literal, double value) {
  if (!std::isfinite(value)) return false;
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc()) return false;
  auto from_literal = NormalizeLiteral(literal);
  auto from_double = NormalizeLiteral(std::string_view(buffer, end - buffer));
  if (!from_literal || !from_double) return false;
  if (from_literal->digits.empty() && from_double->digits.empty()) return true;
  return *from_literal == *from_double;
}

}  // namespace esign
