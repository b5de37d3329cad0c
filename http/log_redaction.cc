#include "http/log_redaction.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "domain/text_formats.h"

namespace esign::http {
namespace {

// More rounds than any chain of decoders in front of us would apply. A path still encoded after
// them is logged as kTooDeeplyEncoded: whatever it hides stays hidden.
constexpr int kMaxDecodingRounds = 4;
constexpr std::string_view kTooDeeplyEncoded = "{redacted: encoded more than 4 times}";
constexpr std::string_view kSegmentSeparators = "/\\";
// What ends a parameter's name or value inside a segment (matrix or query parameters).
constexpr std::string_view kParameterDelimiters = ";?&#/\\";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Percent escapes decoded; a "%" without two hex digits stays as it is.
std::string DecodeOnce(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const int high = HexValue(text[i + 1]);
      const int low = HexValue(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

bool IsTokenMarker(std::string_view segment) {
  const std::string name =
      AsciiLower(segment.substr(0, segment.find_first_of(kParameterDelimiters)));
  return name == "sign" || name == "hosted-signing" || name == "embed";
}

// Every segment after a marker segment (empty ones skipped) becomes "{token}".
std::string RedactLinkSegments(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  bool token_next = false;
  size_t start = 0;
  for (;;) {
    const size_t end = std::min(path.find_first_of(kSegmentSeparators, start), path.size());
    const std::string_view segment = path.substr(start, end - start);
    if (token_next && !segment.empty()) {
      out += "{token}";
      token_next = false;
    } else {
      out += segment;
      token_next = token_next || IsTokenMarker(segment);
    }
    if (end == path.size()) return out;
    out.push_back(path[end]);
    start = end + 1;
  }
}

bool IsSecretName(std::string_view name) {
  const std::string lower = AsciiLower(name);
  return lower.ends_with("token") || lower.ends_with("secret");
}

// name=value where the name ends in "token" or "secret": the value becomes "{redacted}".
std::string RedactSecretParameters(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t name_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (kParameterDelimiters.find(c) != std::string_view::npos) name_start = i + 1;
    out.push_back(c);
    if (c != '=' || !IsSecretName(text.substr(name_start, i - name_start))) continue;
    size_t value_end = text.find_first_of(kParameterDelimiters, i + 1);
    if (value_end == std::string_view::npos) value_end = text.size();
    if (value_end > i + 1) out += "{redacted}";
    i = value_end - 1;
  }
  return out;
}

// Printable ASCII but "%" as it is, every other byte escaped again.
std::string Printable(std::string_view text) {
  static constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte > 0x20 && byte < 0x7F && c != '%') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xF]);
    }
  }
  return out;
}

}  // namespace

std::string RedactedPath(std::string_view path) {
  std::string decoded(path);
  for (int round = 0;; ++round) {
    std::string next = DecodeOnce(decoded);
    if (next == decoded) break;
    if (round == kMaxDecodingRounds) return std::string(kTooDeeplyEncoded);
    decoded = std::move(next);
  }
  return Printable(RedactSecretParameters(RedactLinkSegments(decoded)));
}

}  // namespace esign::http
