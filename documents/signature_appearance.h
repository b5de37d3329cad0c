// How one signer's signature looks in the signed PDF, and the caption printed under it. Plain
// data and pure text rules, no cairo: callers of contract_sealer.h and pdf_renderer.h need no
// drawing headers. The drawing itself is signature_drawing.h.
// Thread safety: value types and pure functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::documents {

// One signer's signature as drawn in each of their role's placement boxes.
struct SignatureAppearance {
  std::string participant_id;  // whose prepared role's signature_placement boxes to fill
  std::string signer_name;     // e.g. "Ana Souza" (any Unicode: CJK, Arabic must render)
  std::string signature_text;  // the typed signature, drawn large in an italic serif; when empty,
                               // signer_name is drawn
  std::string signed_at;       // RFC 3339 UTC, printed small in the caption
  std::string image_png;  // optional: PNG bytes; when non-empty it is drawn (scaled to fit, aspect
                          // kept) instead of signature_text
};

// "Signed by <name> · 2026-11-21 10:04 UTC" from an RFC 3339 UTC time ("Z" or "+00:00"); a time
// in another form is printed as given, and an empty one is left out ("Signed by <name>"). The
// name is wrapped in the bidi isolates U+2068 and U+2069, so a right-to-left name reads right
// and the time after it keeps its order.
std::string SignatureCaption(std::string_view signer_name, std::string_view signed_at);

// Checks a signature image as sealing will use it, when it is received: a PNG that decodes whole
// and is at most kMaxSignatureImageSide pixels on a side (signature_drawing.h). kValidationFailed
// with a detail on `field` otherwise, so one signer's image can never fail a later seal.
Status CheckSignatureImage(std::string_view png, const std::string& field);

}  // namespace esign::documents
