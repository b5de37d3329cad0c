// A cairo PDF surface that writes into a string, with a pango context for text on it. Under the
// page-layout engine (page_layout.h) of the contract's pages and the completion certificate, and
// the field stamper's canvas, so all shape text the same way: one pango font map and context per
// thread, unhinted metrics (line breaks depend on the text and fonts only, never on a device), and
// PDF dates fixed by the caller (cairo would otherwise stamp the clock into /CreationDate and
// /ModDate).
// Internal to documents/ (includes cairo and pango).
// Thread safety: a canvas is used by one thread; canvases on different threads share nothing
// mutable.
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include <cstddef>
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

// The OpenType features text is shaped with: no standard ligatures. A ligature glyph ('fi', 'ff')
// stands for two characters, which cairo cannot put in a font's 8-bit (WinAnsi) subset, so every
// font that showed one was embedded a second time as a CID font for that glyph alone: about 4 of
// the 10 compressed streams of the mutual NDA and 8% of its render's instructions. Required
// ligatures (Arabic lam-alef: 'rlig') stay; text extraction reads the same letters.
inline constexpr const char* kNoLigatures = "liga=0";

// A layout for text in `families` at `size` points (bold when asked), wrapping at `width` points
// by word, else by character, shaped with kNoLigatures unless `ligatures`; its text is set by the
// caller (markup replaces the attributes: add kNoLigatures to it).
GPtr<PangoLayout> NewTextLayout(PangoContext* context, const std::string& families, double size,
                                double width, bool bold = false, bool ligatures = false);
// The same as NewTextLayout with `text` set and aligned, shared by every document this thread
// lays out on a PdfCanvas's context: the first call shapes the text, later calls with the same
// arguments return the same laid-out layout (shaping and line breaking are about a third of a
// render). For text that recurs across documents (a template's headings and fixed paragraphs,
// footers), never for a contract's own values, which would only churn the cache. The caller must
// not change the layout. Holds at most kSharedLayoutsPerThread layouts per thread, then starts
// afresh; layouts handed out stay valid (each holder has its own reference).
inline constexpr size_t kSharedLayoutsPerThread = 512;
GPtr<PangoLayout> SharedTextLayout(PangoContext* context, const std::string& families, double size,
                                   double width, bool bold, bool ligatures,
                                   PangoAlignment alignment, const std::string& text);
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

// The thread's pango context, which every canvas of the thread shares (see PdfCanvas::context),
// for text laid out without a canvas (a PdfWriter's pages): the same layouts as on a canvas.
PangoContext* ThisThreadPangoContext();

class PdfCanvas {
 public:
  // kInternal when cairo cannot create the surface.
  static Result<std::unique_ptr<PdfCanvas>> Create(const PdfMetadata& metadata,
                                                   double width = kA4Width,
                                                   double height = kA4Height);
  PdfCanvas(const PdfCanvas&) = delete;  // cairo writes into bytes_ through a pointer
  PdfCanvas& operator=(const PdfCanvas&) = delete;

  cairo_t* cr() const { return cr_.get(); }
  // The thread's pango context (one per thread, shared by its canvases so that shaped text can be
  // reused): use it on this thread only, and only while the canvas lives.
  PangoContext* context() const { return context_; }
  // Ends the current page; what is drawn next goes on a new page of width x height points.
  void NextPage(double width, double height);
  // Ends the document: the PDF bytes, or kInternal when cairo failed on the way.
  Result<std::string> Finish();

 private:
  PdfCanvas() = default;
  std::string bytes_;
  SurfacePtr surface_;
  CairoPtr cr_;
  PangoContext* context_ = nullptr;
};

}  // namespace esign::documents
