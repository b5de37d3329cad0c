#include "projections/key_codec.h"

#include <charconv>

namespace esign::projections {
namespace {

constexpr char kHexUpper[] = "0123456789ABCDEF";
constexpr char kHexLower[] = "0123456789abcdef";

bool NeedsEscape(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return c == '/' || c == '%' || byte < 0x20 || byte == 0x7f;
}

}  // namespace

void AppendKeyPart(std::string& key, std::string_view part) {
  // Most parts (ids, trigrams) need no escape: appended in one copy.
  size_t plain = 0;
  while (plain < part.size() && !NeedsEscape(part[plain])) ++plain;
  key.append(part.substr(0, plain));
  for (const char c : part.substr(plain)) {
    if (NeedsEscape(c)) {
      const auto byte = static_cast<unsigned char>(c);
      key.push_back('%');
      key.push_back(kHexUpper[byte >> 4]);
      key.push_back(kHexUpper[byte & 0x0f]);
    } else {
      key.push_back(c);
    }
  }
}

std::string EscapeKeyPart(std::string_view part) {
  std::string out;
  out.reserve(part.size());
  AppendKeyPart(out, part);
  return out;
}

std::string UnescapeKeyPart(std::string_view part) {
  const auto digit = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    return -1;
  };
  std::string out;
  out.reserve(part.size());
  for (size_t i = 0; i < part.size(); ++i) {
    if (part[i] == '%' && i + 2 < part.size() && digit(part[i + 1]) >= 0 &&
        digit(part[i + 2]) >= 0) {
      out.push_back(static_cast<char>(digit(part[i + 1]) * 16 + digit(part[i + 2])));
      i += 2;
    } else {
      out.push_back(part[i]);
    }
  }
  return out;
}

std::string HexU64(uint64_t value) {
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = kHexLower[value & 0x0f];
    value >>= 4;
  }
  return out;
}

std::optional<uint64_t> ParseHexU64(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string PrefixSuccessor(std::string_view prefix) {
  std::string out(prefix);
  while (!out.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(out.back());
    if (last != 0xff) {
      ++last;
      return out;
    }
    out.pop_back();
  }
  return out;
}

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace esign::projections
