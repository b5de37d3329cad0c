#include "domain/text_formats.h"

#include <algorithm>
#include <cctype>

#include "base/time_text.h"

namespace esign {
namespace {

// ASCII only, whatever the locale.
bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

// Both forms as the views read them (base/time_text.h), from the year 1000 on.
bool IsCalendarDate(std::string_view text) {
  return text.size() == 10 && text[0] != '0' && ParseTimestampMicros(text).has_value();
}

bool IsTimestamp(std::string_view text) {
  return text.size() > 10 && text[0] != '0' && ParseTimestampMicros(text).has_value();
}

bool IsEmailAddress(std::string_view text) {
  if (text.size() > 254) return false;
  size_t at = text.find('@');
  if (at == std::string_view::npos || at == 0 || at > 64) return false;
  if (text.find('@', at + 1) != std::string_view::npos) return false;
  std::string_view local = text.substr(0, at);
  for (char c : local) {
    // Not ASCII: only SMTPUTF8 carries it, which the transport does not speak; a header and the
    // envelope could then name different mailboxes.
    if (static_cast<unsigned char>(c) >= 0x80) return false;
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

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace esign
