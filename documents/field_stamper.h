// Placed fields drawn into a PDF at signing (DESIGN section 20): every field in its box, on
// each page that has fields as ONE content stream appended to the page (drawing one form
// XObject, which the page's resources gain), so the page's own content streams stay byte for
// byte what they were. What each type draws:
//   signature   the signer's appearance as the template path draws it (signature_drawing.h):
//               the typed text in an italic serif or the drawn PNG, on a rule, captioned
//               "Signed by <name> · <time>";
//   initials    Initials(signer's name) in the same italic serif and ink;
//   name, email the signer's name and e-mail address, in the text font;
//   date_signed SigningDate(the signer's signed_at);
//   text        the integrator's value.
// Texts are one line fitted to the box (at most 11 points; smaller when the box is short or the
// text long, ellipsized below 3 points). Fonts are those of RenderOptions, embedded as subsets
// (cairo draws the stamps, QPDF places them). Boxes are in the page's displayed frame
// (pdf_page_frame.h), whatever its crop box and rotation.
//
// Expects a PDF whose pages leave the graphics state as they found it (ComposeUploadedPdf wraps
// each page's content in q ... Q), unless told they may not (a rendered contract: cairo's pages
// keep their flipped matrix), when each stamped page's content is wrapped first; deterministic:
// the same input gives the same bytes.
// Thread safety: StampFields is a pure function of its arguments and may run on several threads
// at once; CPU-bound (tens of milliseconds): keep it off the I/O threads.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "documents/pdf_renderer.h"
#include "documents/signature_appearance.h"
#include "domain/placed_fields.h"
#include "domain/result.h"

namespace esign::documents {

struct FieldStamp {
  PlacedFieldType type = PlacedFieldType::kText;
  PageRect box;                // box.page: 1-based page of the PDF being stamped
  std::string text;            // what any type but a signature shows
  std::string participant_id;  // a signature: whose appearance it draws
};

// Whether the pages of the PDF to stamp restore the graphics state they start with.
enum class PageContent { kRestoresState, kMayChangeState };

// kValidationFailed for a field on a page the PDF does not have or with an empty or infinite box, a
// signature whose participant has no appearance, an appearance PrepareSignature refuses, or a
// PDF QPDF cannot read; kInternal when cairo fails.
Result<std::string> StampFields(std::string_view pdf, std::span<const FieldStamp> fields,
                                std::span<const SignatureAppearance> signatures,
                                const RenderOptions& options = {},
                                PageContent content = PageContent::kRestoresState);

// The initials of a name: the first letter of its first word and of its last word, upper case
// ("Ana de Souza" -> "AS", "Zoë Ñúñez" -> "ZÑ", "Madonna" -> "M"); empty for an empty name.
std::string Initials(std::string_view name);

// The date of an RFC 3339 time, "2026-11-21" (the time's own date, as the signer's evidence
// records it in UTC); other text as given.
std::string SigningDate(std::string_view rfc3339);

}  // namespace esign::documents
