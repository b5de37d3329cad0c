#include "domain/text_formats.h"

#include <cctype>

namespace esign {
namespace {

bool Digits(std::string_view text, size_t pos, size_t count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool IsCalendarDate(std::string_view text) {
  int year = 0, month = 0, day = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  if (!Digits(text, 0, 4, year) || !Digits(text, 5, 2, month) || !Digits(text, 8, 2, day)) {
    return false;
  }
  if (year < 1000 || month < 1 || month > 12) return false;
  return day >= 1 && day <= DaysInMonth(year, month);
}

bool IsTimestamp(std::string_view text) {
  if (text.size() < 20 || !IsCalendarDate(text.substr(0, 10))) return false;
  if (text[10] != 'T' && text[10] != 't') return false;
  int hour = 0, minute = 0, second = 0;
  if (!Digits(text, 11, 2, hour) || text[13] != ':' || !Digits(text, 14, 2, minute) ||
      text[16] != ':' || !Digits(text, 17, 2, second)) {
    return false;
  }
  if (hour > 23 || minute > 59 || second > 60) return false;  // 60: leap second
  size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == start || pos - start > 9) return false;
  }
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) return pos + 1 == text.size();
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int oh = 0, om = 0;
    return pos + 6 == text.size() && Digits(text, pos + 1, 2, oh) && text[pos + 3] == ':' &&
           Digits(text, pos + 4, 2, om) && oh <= 23 && om <= 59;
  }
  return false;
}

bool IsEmailAddress(std::string_view text) {
  if (text.size() > 254) return false;
  size_t at = text.find('@');
  if (at == std::string_view::npos || at == 0 || at > 64) return false;
  if (text.find('@', at + 1) != std::string_view::npos) return false;
  std::string_view local = text.substr(0, at);
  for (char c : local) {
    if (std::isspace(static_cast<unsigned char>(c)) ||
        std::iscntrl(static_cast<unsigned char>(c)) || c == '"' || c == '(' || c == ')' ||
        c == ',' || c == ':' || c == ';' || c == '<' || c == '>' || c == '[' || c == ']' ||
        c == '\\') {
      return false;
    }
  }
  if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos) {
    return false;
  }
  std::string_view domain = text.substr(at + 1);
  if (domain.empty() || domain.find('.') == std::string_view::npos) return false;
  size_t start = 0;
  while (start <= domain.size()) {
    size_t dot = domain.find('.', start);
    std::string_view label =
        domain.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      if (!IsAlnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) {
      // The top-level label is never all digits ("a@1.2" is no address).
      bool all_digits = true;
      for (char c : label) all_digits = all_digits && std::isdigit(static_cast<unsigned char>(c));
      return !all_digits && label.size() >= 2;
    }
    start = dot + 1;
  }
  return false;
}

bool IsClientIdentifier(std::string_view text) {
  if (text.empty() || text.size() > 64) return false;
  for (char c : text) {
    if (!IsAlnum(c) && c != '_' && c != '-') return false;
  }
  return true;
}

bool IsSha256Hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && !(c >= 'a' && c <= 'f')) return false;
  }
  return true;
}

}  // namespace esign
