// The placeholder syntax of template paragraphs: "{{fieldKey}}" (spaces inside the braces are
// ignored). The importer uses it to check keys; the PDF renderer uses it to substitute values.
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace esign {

struct TextPiece {
  bool is_placeholder = false;
  std::string text;  // literal text, or the field key of a placeholder
};

// Literal text and placeholders in order; nullopt when a "{{" is not closed, a "}}" was never
// opened, or a placeholder is empty.
std::optional<std::vector<TextPiece>> SplitPlaceholders(std::string_view text);

}  // namespace esign
