#include "webhooks/json_text.h"

#include <algorithm>

namespace esign::webhooks {
namespace {

bool NeedsEscape(char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; }

}  // namespace

void AppendJsonString(std::string& out, std::string_view text) {
  out.append(1, '"');
  while (!text.empty()) {
    const auto plain = static_cast<size_t>(std::ranges::find_if(text, NeedsEscape) - text.begin());
    out.append(text.substr(0, plain));
    text.remove_prefix(plain);
    if (text.empty()) break;
    const auto c = static_cast<unsigned char>(text.front());
    text.remove_prefix(1);
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default: {
        constexpr std::string_view kHex = "0123456789abcdef";
        out.append("\\u00").append(1, kHex[c >> 4]).append(1, kHex[c & 15]);
      }
    }
  }
  out.append(1, '"');
}

}  // namespace esign::webhooks
