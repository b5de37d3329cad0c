#include "documents/text_tags.h"

#include <glib.h>
#include <poppler.h>

#include <algorithm>
#include <memory>
#include <string>

#include "documents/cairo_handles.h"

namespace esign::documents {
namespace {

using BytesPtr = std::unique_ptr<GBytes, FreeWith<g_bytes_unref>>;
using ErrorPtr = std::unique_ptr<GError, FreeWith<g_error_free>>;
using TextPtr = std::unique_ptr<char, FreeWith<g_free>>;
using RectsPtr = std::unique_ptr<PopplerRectangle, FreeWith<g_free>>;

bool IsWordCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

std::string WithoutSpaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c != ' ' && c != '\t') out += c;
  }
  return out;
}

// One page's tags; `text` is the page's text and `rects` one rectangle per character of it.
void TagsOfPage(int64_t page, std::string_view text, const PopplerRectangle* rects,
                size_t rect_count, std::vector<TextTag>& tags) {
  // Byte offset -> character index, since the rectangles count characters, not bytes.
  std::vector<size_t> char_index(text.size() + 1, 0);
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char_index[i] = chars;
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  }
  // The next "}}" and line end are searched from where the last search ended, never again from
  // every "{{": a page of braces stays linear.
  struct Search {
    std::string_view needle;
    bool done = false;
    size_t found = std::string_view::npos;
  };
  auto next = [&](Search& search, size_t from) {
    if (!search.done || (search.found != std::string_view::npos && search.found < from)) {
      search.found = text.find(search.needle, from);
      search.done = true;
    }
    return search.found;
  };
  Search closing{"}}"};
  Search newline{"\n"};
  size_t at = 0;
  while ((at = text.find("{{", at)) != std::string_view::npos) {
    const size_t close = next(closing, at + 2);
    if (close == std::string_view::npos) break;
    const size_t next_open = text.find("{{", at + 2);
    const size_t line_end = next(newline, at);
    // A tag is read within one line and without another opening inside it.
    if ((next_open != std::string_view::npos && next_open < close) ||
        (line_end != std::string_view::npos && line_end < close)) {
      at = std::min(next_open, line_end);
      continue;
    }
    const std::string_view written = text.substr(at, close + 2 - at);
    auto tag = ParseTextTag(written);
    if (tag) {
      // Characters of the tag, first to last byte's character.
      const size_t first = char_index[at];
      const size_t last = char_index[close + 1];
      double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
      bool any = false;
      for (size_t c = first; c <= last && c < rect_count; ++c) {
        const PopplerRectangle& r = rects[c];
        if (r.x2 <= r.x1 && r.y2 <= r.y1) continue;
        if (!any) {
          x1 = r.x1, y1 = r.y1, x2 = r.x2, y2 = r.y2;
          any = true;
        } else {
          x1 = std::min(x1, r.x1), y1 = std::min(y1, r.y1);
          x2 = std::max(x2, r.x2), y2 = std::max(y2, r.y2);
        }
      }
      if (any) {
        tag->box = {.page = page, .x = x1, .y = y1, .width = x2 - x1, .height = y2 - y1};
        if ((tag->type == "signature" || tag->type == "initials") &&
            tag->box.height < kMinSignatureTagHeight) {
          tag->box.y = std::max(0.0, tag->box.y + tag->box.height - kMinSignatureTagHeight);
          tag->box.height = kMinSignatureTagHeight;
        }
        tags.push_back(std::move(*tag));
      }
    }
    at = close + 2;
  }
}

}  // namespace

std::optional<TextTag> ParseTextTag(std::string_view text) {
  if (text.size() < 4 || !text.starts_with("{{") || !text.ends_with("}}")) return std::nullopt;
  const std::string inner = WithoutSpaces(text.substr(2, text.size() - 4));
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t colon = inner.find(':', start);
    parts.push_back(inner.substr(start, colon == std::string::npos ? colon : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  TextTag tag;
  tag.text = std::string(text);
  if (parts.size() >= 3 && parts.back() == "optional") {
    tag.optional = true;
    parts.pop_back();
  }
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  if (parts[0].empty() || parts[0].size() > 32 ||
      !std::all_of(parts[0].begin(), parts[0].end(), IsWordCharacter)) {
    return std::nullopt;
  }
  tag.type = parts[0];
  if (parts[1].empty() || parts[1].size() > 4 || parts[1][0] == '0' ||
      !std::all_of(parts[1].begin(), parts[1].end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  tag.signer = std::stoll(parts[1]);
  if (parts.size() == 3) {
    if (parts[2].empty() || parts[2].find('{') != std::string::npos ||
        parts[2].find('}') != std::string::npos) {
      return std::nullopt;
    }
    tag.name = parts[2];
  }
  return tag;
}

Result<std::vector<TextTag>> FindTextTags(std::string_view pdf) {
  BytesPtr bytes(g_bytes_new(pdf.data(), pdf.size()));
  GError* raw_error = nullptr;
  GPtr<PopplerDocument> document(poppler_document_new_from_bytes(bytes.get(), nullptr, &raw_error));
  ErrorPtr error(raw_error);
  if (!document) {
    return Fail(ErrorCode::kDocumentInvalid, std::string("the document's text cannot be read: ") +
                                                 (error ? error->message : "unknown error"));
  }
  std::vector<TextTag> tags;
  int64_t characters = 0;
  const int count = poppler_document_get_n_pages(document.get());
  for (int i = 0; i < count; ++i) {
    GPtr<PopplerPage> page(poppler_document_get_page(document.get(), i));
    if (!page) continue;
    TextPtr text(poppler_page_get_text(page.get()));
    if (!text) continue;
    const std::string_view view(text.get());
    characters += static_cast<int64_t>(view.size());
    if (characters > kMaxTagSearchCharacters) {
      return Fail(ErrorCode::kDocumentLimitExceeded, "the document holds more than " +
                                                         std::to_string(kMaxTagSearchCharacters) +
                                                         " characters of text");
    }
    if (view.find("{{") == std::string_view::npos) continue;
    PopplerRectangle* raw_rects = nullptr;
    guint rect_count = 0;
    if (!poppler_page_get_text_layout(page.get(), &raw_rects, &rect_count)) continue;
    RectsPtr rects(raw_rects);
    TagsOfPage(i + 1, view, rects.get(), rect_count, tags);
  }
  return tags;
}

}  // namespace esign::documents
