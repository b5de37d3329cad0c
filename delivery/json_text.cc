#include "delivery/json_text.h"

#include <array>

namespace esign::delivery {
namespace {

// For each byte, the character after the backslash that writes it ('u': \u00xx), or 0 when it
// is written as is. A table: delivery bodies are JSON themselves, full of quotes.
constexpr std::array<char, 256> kEscapes = [] {
  std::array<char, 256> table{};
  for (size_t c = 0; c < 0x20; ++c) table[c] = 'u';
  table['\b'] = 'b';
  table['\f'] = 'f';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  table['"'] = '"';
  table['\\'] = '\\';
  return table;
}();

}  // namespace

void AppendJsonString(std::string& out, std::string_view text) {
  constexpr std::string_view kHex = "0123456789abcdef";
  out.reserve(out.size() + text.size() + 2);
  out.push_back('"');
  size_t plain_from = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const char escape = kEscapes[c];
    if (escape == 0) continue;
    out.append(text.substr(plain_from, i - plain_from));
    plain_from = i + 1;
    out.push_back('\\');
    if (escape != 'u') {
      out.push_back(escape);
    } else {
      out.append("u00");
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  out.append(text.substr(plain_from));
  out.push_back('"');
}

}  // namespace esign::delivery
