// Drawing one signer's signature into a placement box of a page being rendered (pdf_renderer.cc):
// the typed signature in an italic serif, or the signer's PNG image, fitted to the box and
// sitting on a thin rule, with the small "Signed by <name> · <time>" caption under the rule.
// Internal to documents/ (includes cairo and pango).
// Thread safety: a PreparedSignature is immutable once made and may be drawn from one thread at a
// time (cairo image surfaces are not locked); DrawSignature touches nothing else shared.
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include <string>

#include "documents/cairo_handles.h"
#include "documents/signature_appearance.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign::documents {

// A PNG wider or taller than this is refused: a signature image needs no more, and decoding
// a larger one costs memory for nothing.
inline constexpr int kMaxSignatureImageSide = 4096;

// An appearance checked and ready to draw in any number of boxes: its PNG decoded once.
struct PreparedSignature {
  std::string text;     // the typed signature (signature_text, else signer_name); unused with image
  std::string caption;  // SignatureCaption(signer_name, signed_at)
  SurfacePtr image;     // the decoded PNG; null for a typed signature
};

// kValidationFailed when image_png is not a PNG cairo can read or is larger than
// kMaxSignatureImageSide on a side, or when there is nothing to draw (no text, name or image).
Result<PreparedSignature> PrepareSignature(const SignatureAppearance& appearance);

struct SignatureFonts {
  std::string signature_families;  // the typed signature, drawn italic
  std::string caption_families;
};

// Draws the signature clipped to the box (PDF points, cr's origin at the page's top-left). The
// text is shaped with `context` (the page's, unhinted), so the output depends on nothing else.
void DrawSignature(cairo_t* cr, PangoContext* context, const SignaturePlacement& box,
                   const PreparedSignature& signature, const SignatureFonts& fonts);

// Draws one line of text fitted to the box (at most max_size points, smaller when the box is
// short or the text long; ellipsized when even the smallest size is too wide), left-aligned and
// centred vertically, clipped to the box, in the given colour (0..1 each). Only the first 1000
// bytes of the text are laid out (cut at a character boundary).
struct TextStyle {
  std::string families;
  bool italic = false;
  double max_size = 11;
  double red = 0, green = 0, blue = 0;
};
void DrawFittedText(cairo_t* cr, PangoContext* context, const SignaturePlacement& box,
                    const std::string& text, const TextStyle& style);

}  // namespace esign::documents
