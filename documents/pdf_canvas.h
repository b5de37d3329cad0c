// A cairo PDF surface that writes into a string, with a pango context for text on it. Shared by
// the contract's pages (pdf_renderer.cc) and the completion certificate (certificate_pages.cc) so
// both shape text the same way: one pango font map per thread, unhinted metrics (line breaks
// depend on the text and fonts only, never on a device), and PDF dates fixed by the caller
// (cairo would otherwise stamp the clock into /CreationDate and /ModDate).
// Internal to documents/ (includes cairo and pango).
// Thread safety: a canvas is used by one thread; canvases on different threads share nothing
// mutable.
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include <memory>
#include <string>
#include <vector>

#include "documents/cairo_handles.h"
#include "domain/result.h"

namespace esign::documents {

// A4 in points.
inline constexpr double kA4Width = 595.276;
inline constexpr double kA4Height = 841.89;

struct PdfMetadata {
  std::string date;  // ISO 8601 (PdfMetadataDate), for /CreationDate and /ModDate
  std::string title;
  std::string author;
  std::string subject;
};

// A layout for text in `families` at `size` points (bold when asked), wrapping at `width` points
// by word, else by character; its text is set by the caller.
GPtr<PangoLayout> NewTextLayout(PangoContext* context, const std::string& families, double size,
                                double width, bool bold = false);
// The layout's height in points.
double LayoutHeight(PangoLayout* layout);
// The height of a table row: its tallest cell.
double TallestLayout(const std::vector<PangoLayout*>& row);

// Drawing primitives both kinds of page use: text in black with its top left at (x, y); a
// horizontal rule; a rectangle filled or stroked, in a shade of gray (0 black, 1 white).
void PaintLayout(cairo_t* cr, double x, double y, PangoLayout* layout);
void PaintRule(cairo_t* cr, double x, double y, double width, double gray, double line_width);
void PaintRect(cairo_t* cr, double x, double y, double width, double height, double gray, bool fill,
               double line_width = 0.75);

class PdfCanvas {
 public:
  // kInternal when cairo cannot create the surface.
  static Result<std::unique_ptr<PdfCanvas>> Create(const PdfMetadata& metadata,
                                                   double width = kA4Width,
                                                   double height = kA4Height);
  PdfCanvas(const PdfCanvas&) = delete;  // cairo writes into bytes_ through a pointer
  PdfCanvas& operator=(const PdfCanvas&) = delete;

  cairo_t* cr() const { return cr_.get(); }
  PangoContext* context() const { return context_.get(); }
  // Ends the document: the PDF bytes, or kInternal when cairo failed on the way.
  Result<std::string> Finish();

 private:
  PdfCanvas() = default;
  std::string bytes_;
  SurfacePtr surface_;
  CairoPtr cr_;
  GPtr<PangoContext> context_;
};

}  // namespace esign::documents
