#include "documents/signature_drawing.h"
#include "documents/png_image.h"

#include <pango/pangocairo.h>

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace esign::documents {
namespace {

constexpr double kPadding = 2.0;
constexpr double kMaxSignatureSize =
    28.0;  // points; a large box still gets a signature, not a banner
constexpr double kMaxCaptionSize = 7.0;
constexpr double kMinTextSize = 3.0;  // below this a longer text is ellipsized instead
constexpr double kRuleGap = 1.5;
constexpr size_t kMaxFittedTextBytes = 1000;

// A huge image is refused before it is decoded.
bool PngHeaderWithinLimits(std::string_view png) {
  const auto size = PngDimensions(png);
  return size && size->first > 0 && size->second > 0 && size->first <= kMaxSignatureImageSide &&
         size->second <= kMaxSignatureImageSide;
}

PangoRectangle LogicalExtents(PangoLayout* layout) {
  PangoRectangle logical;
  pango_layout_get_extents(layout, nullptr, &logical);
  return logical;
}

// One line of text at the largest size up to max_size whose logical box fits width x height
// (metrics are unhinted, hence proportional to the size); ellipsized at kMinTextSize when even
// that is too wide.
GPtr<PangoLayout> FittedLine(PangoContext* context, const std::string& text,
                             const std::string& families, PangoStyle style, double max_size,
                             double width, double height) {
  GPtr<PangoLayout> layout(pango_layout_new(context));
  FontDescriptionPtr desc(pango_font_description_from_string(families.c_str()));
  pango_font_description_set_style(desc.get(), style);
  pango_layout_set_single_paragraph_mode(layout.get(), TRUE);
  pango_layout_set_text(layout.get(), text.c_str(), static_cast<int>(text.size()));
  const auto set_size = [&](double size) {
    pango_font_description_set_absolute_size(desc.get(), size * PANGO_SCALE);
    pango_layout_set_font_description(layout.get(), desc.get());
  };
  double size = max_size;
  set_size(size);
  // Twice: the second pass absorbs what rounding to pango units left over.
  for (int pass = 0; pass < 2; ++pass) {
    const PangoRectangle logical = LogicalExtents(layout.get());
    const double w = static_cast<double>(logical.width) / PANGO_SCALE;
    const double h = static_cast<double>(logical.height) / PANGO_SCALE;
    const double scale = std::min({1.0, w > 0 ? width / w : 1.0, h > 0 ? height / h : 1.0});
    if (scale >= 1.0) break;
    size *= scale;
    set_size(std::max(size, kMinTextSize));
  }
  if (size < kMinTextSize) {
    pango_layout_set_width(layout.get(), static_cast<int>(width * PANGO_SCALE));
    pango_layout_set_ellipsize(layout.get(), PANGO_ELLIPSIZE_END);
  }
  return layout;
}

// Draws the layout with the bottom of its logical box at `bottom`, starting at `left`.
void ShowAt(cairo_t* cr, PangoLayout* layout, double left, double bottom) {
  const PangoRectangle logical = LogicalExtents(layout);
  cairo_move_to(cr, left - static_cast<double>(logical.x) / PANGO_SCALE,
                bottom - static_cast<double>(logical.y + logical.height) / PANGO_SCALE);
  pango_cairo_show_layout(cr, layout);
}

// The image scaled to fit width x height, aspect kept, its bottom-left corner at (left, bottom).
void DrawImage(cairo_t* cr, cairo_surface_t* image, double left, double bottom, double width,
               double height) {
  const double iw = cairo_image_surface_get_width(image);
  const double ih = cairo_image_surface_get_height(image);
  const double scale = std::min(width / iw, height / ih);
  cairo_save(cr);
  cairo_translate(cr, left, bottom - ih * scale);
  cairo_scale(cr, scale, scale);
  cairo_set_source_surface(cr, image, 0, 0);
  cairo_paint(cr);
  cairo_restore(cr);
}

}  // namespace

Result<PreparedSignature> PrepareSignature(const SignatureAppearance& appearance) {
  PreparedSignature prepared{
      .text =
          appearance.signature_text.empty() ? appearance.signer_name : appearance.signature_text,
      .caption = SignatureCaption(appearance.signer_name, appearance.signed_at)};
  if (appearance.image_png.empty()) {
    if (prepared.text.empty()) {
      return Fail(ErrorCode::kValidationFailed, "a signature needs a text, a name or an image",
                  "signatureText", "must not be empty");
    }
    return prepared;
  }
  if (!PngHeaderWithinLimits(appearance.image_png)) {
    return Fail(
        ErrorCode::kValidationFailed, "the signature image is not a usable PNG", "imagePng",
        "must be a PNG of at most " + std::to_string(kMaxSignatureImageSide) + " pixels on a side");
  }
  prepared.image = DecodePng(appearance.image_png);
  if (cairo_surface_status(prepared.image.get()) != CAIRO_STATUS_SUCCESS) {
    return Fail(ErrorCode::kValidationFailed, "the signature image is not a usable PNG", "imagePng",
                std::string("cannot be decoded: ") +
                    cairo_status_to_string(cairo_surface_status(prepared.image.get())));
  }
  return prepared;
}

Status CheckSignatureImage(std::string_view png, const std::string& field) {
  auto prepared = PrepareSignature({.image_png = std::string(png)});
  if (prepared) return {};
  Error error = std::move(prepared.error());
  for (ErrorDetail& detail : error.details) detail.field = field;
  return std::unexpected(std::move(error));
}

void DrawSignature(cairo_t* cr, PangoContext* context, const SignaturePlacement& box,
                   const PreparedSignature& signature, const SignatureFonts& fonts) {
  const double left = box.x + kPadding;
  const double width = std::max(box.width - 2 * kPadding, 1.0);
  cairo_save(cr);
  cairo_rectangle(cr, box.x, box.y, box.width, box.height);
  cairo_clip(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);

  const double caption_size = std::clamp(box.height * 0.14, kMinTextSize, kMaxCaptionSize);
  GPtr<PangoLayout> caption = FittedLine(context, signature.caption, fonts.caption_families,
                                         PANGO_STYLE_NORMAL, caption_size, width, box.height);
  const double caption_bottom = box.y + box.height - kPadding;
  const double caption_height =
      static_cast<double>(LogicalExtents(caption.get()).height) / PANGO_SCALE;
  const double rule_y = caption_bottom - caption_height - kRuleGap;
  const double area_bottom = rule_y - kRuleGap;
  const double area_height = std::max(area_bottom - (box.y + kPadding), 1.0);

  if (signature.image != nullptr) {
    DrawImage(cr, signature.image.get(), left, area_bottom, width, area_height);
  } else {
    GPtr<PangoLayout> text = FittedLine(context, signature.text, fonts.signature_families,
                                        PANGO_STYLE_ITALIC, kMaxSignatureSize, width, area_height);
    cairo_set_source_rgb(cr, 0.05, 0.1, 0.35);  // ink blue, as a pen would leave it
    ShowAt(cr, text.get(), left, area_bottom);
  }

  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  cairo_set_line_width(cr, 0.5);
  cairo_move_to(cr, left, rule_y);
  cairo_line_to(cr, left + width, rule_y);
  cairo_stroke(cr);

  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  ShowAt(cr, caption.get(), left, caption_bottom);
  cairo_restore(cr);
}

void DrawFittedText(cairo_t* cr, PangoContext* context, const SignaturePlacement& box,
                    const std::string& text, const TextStyle& style) {
  const double width = std::max(box.width - 2 * kPadding, 1.0);
  const double height = std::max(box.height - 2 * kPadding, 1.0);
  cairo_save(cr);
  cairo_rectangle(cr, box.x, box.y, box.width, box.height);
  cairo_clip(cr);
  cairo_set_source_rgb(cr, style.red, style.green, style.blue);
  // One line in a box never shows more than this; shaping more would only cost time.
  std::string shown = text.substr(0, kMaxFittedTextBytes);
  while (shown.size() < text.size() && !shown.empty() &&
         (static_cast<unsigned char>(text[shown.size()]) & 0xC0) == 0x80) {
    shown.pop_back();  // never cut inside a UTF-8 sequence
  }
  GPtr<PangoLayout> layout = FittedLine(context, shown, style.families,
                                        style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL,
                                        std::min(style.max_size, height), width, height);
  const double text_height = static_cast<double>(LogicalExtents(layout.get()).height) / PANGO_SCALE;
  ShowAt(cr, layout.get(), box.x + kPadding, box.y + (box.height + text_height) / 2);
  cairo_restore(cr);
}

}  // namespace esign::documents
