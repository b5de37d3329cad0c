// A PDF page's displayed frame (DESIGN section 20): the crop box with the page's /Rotate applied,
// origin at the displayed top-left corner, x to the right and y down, in points. The frame of
// the page images and of every placed field and text tag box. The composer (covers) and the
// stamper (fields) draw through it, so both land where the boxes were placed whatever the crop
// box's origin and the rotation. Internal to documents/ (QPDF's C API, qpdf_reader.h).
// Thread safety: a value type; FrameOf reads the page only.
#pragma once

#include <string>

#include "documents/qpdf_reader.h"
#include "domain/placed_fields.h"

namespace esign::documents {

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

// The frame of a page whose inherited attributes were pushed onto it; /Rotate values that are not
// multiples of 90 count as 0 (as viewers do).
PageFrame FrameOf(const QpdfReader& pdf, qpdf_oh page);

// A number as PDF content-stream text: fixed point, at most 4 decimals, no trailing zeros.
std::string PdfNumber(double value);

// `re` operands of a box given in the displayed frame, on the canvas of Matrix().
std::string CanvasRect(const PageFrame& frame, const PageRect& box);

}  // namespace esign::documents
