// A PDF page's displayed frame (DESIGN section 20): the crop box with the page's /Rotate applied,
// origin at the displayed top-left corner, x to the right and y down, in points. The frame of
// the page images and of every placed field and text tag box. The composer (covers) and the
// stamper (fields) draw through it, so both land where the boxes were placed whatever the crop
// box's origin and the rotation. Internal to documents/ (QPDF's C API, qpdf_reader.h).
// Thread safety: a value type; FrameOf reads the page only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "documents/qpdf_reader.h"
#include "domain/placed_fields.h"

namespace esign::documents {

// A rectangle of a page's user space as a PDF writes it, normalised so that llx <= urx and
// lly <= ury.
struct PdfBox {
  double llx = 0;
  double lly = 0;
  double urx = 0;
  double ury = 0;
  double width() const { return urx - llx; }
  double height() const { return ury - lly; }
  // Finite, with a positive width and height.
  bool valid() const;
};

struct PageFrame {
  // The crop box (the media box when none), normalised so that llx <= urx and lly <= ury.
  double llx = 0;
  double lly = 0;
  double urx = 0;
  double ury = 0;
  int rotate = 0;  // clockwise as displayed: 0, 90, 180 or 270

  double width() const;   // displayed
  double height() const;  // displayed
  // The `cm` operands that map a canvas of width() x height() (PDF's bottom-left origin, y up:
  // what a page of that size drawn by cairo is) onto the page's user space.
  std::string Matrix() const;
};

// The frame of a page from its boxes as read, as viewers show it: the crop box clipped to the
// media box (the media box when there is no crop box or it misses the media box); a /Rotate that
// is not a multiple of 90 counts as 0. The one rule for the upload check (page sizes, form
// fields), the composer and the stamper.
PageFrame FrameFromBoxes(const PdfBox& media, const std::optional<PdfBox>& crop, int64_t rotate);

// The frame of a page whose inherited attributes were pushed onto it (FrameFromBoxes).
PageFrame FrameOf(const QpdfReader& pdf, qpdf_oh page);

// A box of the page's user space in its displayed frame (from the top-left corner, y down).
PageRect Displayed(const PageFrame& frame, const PdfBox& box, int64_t page);

// A number as PDF content-stream text: fixed point, at most 4 decimals, no trailing zeros.
std::string PdfNumber(double value);

// `re` operands of a box given in the displayed frame, on the canvas of Matrix().
std::string CanvasRect(const PageFrame& frame, const PageRect& box);

}  // namespace esign::documents
