// PdfWriter: a PDF written directly, without cairo's PDF surface: text from pango layouts (the
// glyphs and positions of pango's own shaping, shown by glyph id in Type 0 fonts with Identity-H
// encoding, each face embedded once as a subset with its ToUnicode map: pdf_font_subset.h), and
// filled or stroked rectangles and rules in grays. Streams are compressed with libdeflate
// (deflate.h). The output is deterministic: the same calls give the same bytes (no clock; the
// /ID is a hash of the document).
//
// What it does not draw: images, colours but grays, clipping, and text in a face it cannot embed
// as it is: without TrueType outlines (CFF faces such as Noto Sans CJK), variable, or emboldened
// or slanted by the renderer. `supported()` turns false when a layout used one, and such a
// document is drawn with cairo instead (pdf_canvas.h).
//
// Internal to documents/ (includes pango).
// Thread safety: a writer is used by one thread, the thread whose pango context laid out the
// layouts it is given.
#pragma once

#include <hb.h>
#include <pango/pango.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "documents/pdf_canvas.h"
#include "domain/result.h"

namespace esign::documents {

struct FontSubset;

class PdfWriter {
 public:
  explicit PdfWriter(PdfMetadata metadata);
  ~PdfWriter();
  PdfWriter(const PdfWriter&) = delete;
  PdfWriter& operator=(const PdfWriter&) = delete;

  // Starts a page of width x height points; what is drawn next goes on it. Call before drawing.
  void NewPage(double width = kA4Width, double height = kA4Height);
  // Coordinates are in points from the page's top left, as on a PdfCanvas.
  // `layout` in black with its top left at (x, y), as PaintLayout draws it.
  void ShowLayout(PangoLayout* layout, double x, double y);
  // One line of a layout in black, its baseline starting at (x, baseline).
  void ShowLayoutLine(PangoLayoutLine* line, double x, double baseline);
  void FillRect(double x, double y, double width, double height, double gray);
  void StrokeRect(double x, double y, double width, double height, double gray, double line_width);
  // A horizontal line from (x, y) to (x + width, y).
  void Rule(double x, double y, double width, double gray, double line_width);

  // False once a layout used a face this writer cannot embed: Finish then fails.
  bool supported() const { return unsupported_face_.empty(); }
  // The PDF. kInternal when a face could not be embedded. Call once, last.
  Result<std::string> Finish();

 private:
  struct Glyph {
    uint32_t id;  // in the face
    double x;     // PDF user space: points from the bottom left
    double y;
  };
  struct TextRun {
    size_t font;  // index into fonts_
    double size;  // points
    std::vector<Glyph> glyphs;
  };
  // What a page shows, in order: drawing operators already in PDF syntax, or a text run.
  struct Piece {
    std::string operators;
    std::unique_ptr<TextRun> text;
  };
  struct Page {
    double width;
    double height;
    std::vector<Piece> pieces;
  };
  struct FontUse;

  Page& page() { return pages_.back(); }
  // The PDF y of a y measured from the page's top.
  double Flip(double y) { return page().height - y; }
  void AddOperators(const std::string& operators);
  void ShowRun(PangoLayoutRun* run, const char* text, double x, double baseline);
  // The text operators of `run`, whose font's glyphs `subset` renumbers, added to `content`.
  static void AppendText(std::string& content, const TextRun& run, const FontSubset& subset);
  // The index into fonts_ of the font's face, and the font's size in points.
  std::pair<size_t, double> FontOf(PangoFont* font);

  PdfMetadata metadata_;
  std::vector<Page> pages_;
  std::vector<std::unique_ptr<FontUse>> fonts_;
  std::map<hb_face_t*, size_t> font_of_face_;
  struct KnownFont {
    GPtr<PangoFont> held;
    size_t font = 0;  // index into fonts_
    double size = 0;  // points
  };
  std::map<PangoFont*, KnownFont> font_of_pango_font_;
  std::string unsupported_face_;
};

}  // namespace esign::documents
