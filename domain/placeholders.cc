#include "domain/placeholders.h"

namespace esign {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::optional<std::vector<TextPiece>> SplitPlaceholders(std::string_view text) {
  std::vector<TextPiece> pieces;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find("{{", pos);
    size_t stray_close = text.find("}}", pos);
    if (stray_close != std::string_view::npos &&
        (open == std::string_view::npos || stray_close < open)) {
      return std::nullopt;
    }
    if (open == std::string_view::npos) {
      pieces.push_back(TextPiece{false, std::string(text.substr(pos))});
      break;
    }
    if (open > pos) pieces.push_back(TextPiece{false, std::string(text.substr(pos, open - pos))});
    size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view key = Trim(text.substr(open + 2, close - open - 2));
    if (key.empty() || key.find('{') != std::string_view::npos) return std::nullopt;
    pieces.push_back(TextPiece{true, std::string(key)});
    pos = close + 2;
  }
  return pieces;
}

}  // namespace esign
