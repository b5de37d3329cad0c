// Text tags written in an uploaded PDF (DESIGN section 20): `{{type:signer}}` or
// `{{type:signer:name}}`, optionally ending in `:optional`, found with their boxes by poppler's
// text extraction. Only InspectUpload (pdf_upload.h) calls FindTextTags, on the copy QPDF checked
// and cleaned, so the page, object and decoded-byte limits already hold when poppler parses it.
// Thread safety: pure functions; they may run on several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "documents/pdf_upload.h"
#include "domain/result.h"

namespace esign::documents {

// A signature tag's box is at least this high (points); a shorter one grows upwards from its
// bottom edge, so the signature sits on the line the tag was written on.
inline constexpr double kMinSignatureTagHeight = 24;

// Past this many characters of extracted text in one document, the search stops with
// kDocumentLimitExceeded (500 full pages of small print is far below it).
inline constexpr int64_t kMaxTagSearchCharacters = 20'000'000;

// The tag `{{...}}` (braces included) parsed by the grammar, or nullopt when the text between the
// braces is not a tag (a template's placeholder, say). Spaces inside are ignored; the type is any
// word of lowercase letters, digits and underscores, known or not; the signer a number from 1.
std::optional<TextTag> ParseTextTag(std::string_view text);

// The tags of every page of `pdf`, in page order and reading order, with boxes in the page's
// displayed frame (points from the top-left corner, crop box and rotation applied).
Result<std::vector<TextTag>> FindTextTags(std::string_view pdf);

}  // namespace esign::documents
