// The one page-layout engine of our PDFs: the contract's pages (pdf_renderer.cc) and the
// certificate of completion (certificate_pages.cc) say what to lay out; PageLayout decides where
// it goes. A cursor moves down the page between the margins; a block that does not fit what is
// left of the page starts the next one; text is shaped by pango on the canvas's context; a table
// repeats its header row on every page it continues on and never splits a row; when the layout
// is done every page is painted in order with its footer ("Page N of M" needs the count first).
//
// Two passes: the layout pass only records what to draw (PageOp) on which page, so that a footer
// can name the page count and a box can be added to a page the body never reached; Finish paints.
// What is painted, in which order, is exactly what was recorded: the same calls give the same
// bytes, which the contract's pages rely on (a frozen contract is re-rendered at sealing).
//
// Internal to documents/ (includes cairo and pango).
// Thread safety: a PageLayout and its canvas are used by one thread; layouts on different
// threads share nothing mutable (pdf_canvas.h).
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "documents/cairo_handles.h"
#include "documents/pdf_canvas.h"
#include "documents/pdf_writer.h"
#include "domain/result.h"

namespace esign::documents {

struct PageGeometry {
  double width = kA4Width;     // points. Default: A4.
  double height = kA4Height;   // points. Default: A4.
  double margin = 56.7;        // on every side, in points. Default: 56.7 (2 cm).
  double footer_space = 24.0;  // kept above the bottom margin for the footer. Default: 24.
};

struct PageFonts {
  std::string families;    // fontconfig families in order of preference
  bool ligatures = false;  // standard ligatures in plain text (pdf_canvas.h, kNoLigatures)
};

// Whether plain text is shaped once per thread and shared with later documents (text that recurs
// across documents: a template's headings, fixed paragraphs and footers), or for this document
// only (a contract's own values, which would only churn the shared cache).
enum class TextReuse { kShared, kOwn };

struct TextSpec {
  double size = 10.5;  // points
  double width = 0;    // wrapping width in points
  bool bold = false;
  PangoAlignment alignment = PANGO_ALIGN_LEFT;
};

// One thing to draw, in page coordinates (origin top left, points).
struct PageOp {
  enum class Kind { kLine, kLayout, kStrokeRect, kFillRect, kRule, kBox };
  Kind kind = Kind::kLayout;
  PangoLayout* layout = nullptr;  // kLine, kLayout: owned by the PageLayout
  int line = 0;                   // kLine: index of the line in layout
  double x = 0;
  double y = 0;  // kLine: baseline; else top
  double width = 0;
  double height = 0;
  double gray = 0;           // 0 black, 1 white
  double line_width = 0.75;  // kStrokeRect, kRule
  size_t box = 0;            // kBox: the caller's index, painted by its BoxPainter
};

// A table column, its left edge measured from the left margin.
struct TableColumn {
  double offset = 0;
  double width = 0;
};
// `count` columns sharing `total` points equally (at least one column).
std::vector<TableColumn> EqualColumns(size_t count, double total);
// Columns of the given widths side by side.
std::vector<TableColumn> ColumnsOfWidths(const std::vector<double>& widths);

struct TableStyle {
  enum class Lines {
    kCellBoxes,  // every cell stroked (row_line_gray, line_width)
    kRowRules,   // a rule under every row (header_line_gray under the header, else row_line_gray)
  };
  Lines lines = Lines::kCellBoxes;
  double padding = 4.0;           // points between a cell's edges and its text
  double header_fill = 0.9;       // the header row's shade
  double header_line_gray = 0.4;  // kRowRules
  double row_line_gray = 0.4;
  double line_width = 0.75;
  // Moves the header to the next page when the first row would not fit under it (else the
  // header goes where the cursor is, and only later rows may break to a new page).
  bool keep_header_with_first_row = false;
};

class PageLayout {
 public:
  // Pages of `geometry` on `canvas`, whose first page must already have that size; starts with
  // one empty page. The canvas must outlive the layout.
  PageLayout(PdfCanvas& canvas, const PageGeometry& geometry, PageFonts fonts);
  // Pages whose text is shaped on `context` (the thread's, ThisThreadPangoContext), painted by
  // one of the Finish overloads that take a canvas or a writer.
  PageLayout(PangoContext* context, const PageGeometry& geometry, PageFonts fonts);
  PageLayout(const PageLayout&) = delete;
  PageLayout& operator=(const PageLayout&) = delete;

  // Plain text, wrapped at style.width by word, else by character.
  PangoLayout* Text(const std::string& text, const TextSpec& style, TextReuse reuse);
  // Pango markup in the regular weight (style.bold is ignored: markup says it), wrapped at spaces
  // only (a word too wide for style.width is set smaller, down to 70%, before it is broken), never
  // hyphenated where it breaks (an id or a hash must read as written), ligatures off, laid out
  // left to right whatever its first letter; at most `max_lines` lines (0: any), the last one
  // ellipsized. Markup that does not parse shows as plain text: callers escape every client text.
  PangoLayout* Markup(const std::string& markup, const TextSpec& style, int max_lines = 0);
  static double HeightOf(PangoLayout* layout);

  double left() const { return geometry_.margin; }
  double top() const { return geometry_.margin; }
  double width() const { return geometry_.width - 2 * geometry_.margin; }
  double y() const { return y_; }
  bool AtTop() const { return y_ <= top(); }
  double Remaining() const { return bottom_ - y_; }

  void NewPage();
  // Moves the cursor down, at most to the foot of the page's body.
  void Space(double points);
  // Moves the cursor down by exactly `points` (the next block that does not fit breaks the page).
  void Advance(double points);
  // A new page when `height` does not fit what is left of this one.
  void BreakUnlessFits(double height);
  // The same, unless the cursor is at the top already: keeps a heading with what follows it.
  void KeepWithNext(double height);

  // `layout` at the cursor, `indent` points from the left margin, as one block; the cursor moves
  // `space_after` points below it. The caller decides whether it fits (BreakUnlessFits,
  // KeepWithNext).
  void Place(PangoLayout* layout, double space_after = 0, double indent = 0);
  // `layout` line by line at the left margin, a line that does not fit starting the next page.
  void Flow(PangoLayout* layout);
  // A rule across the body's width at the cursor.
  void Rule(double gray, double line_width);
  // The rows under `header`, which opens the table and every page it continues on; a row never
  // splits. Each row has at most columns.size() cells, made `style.padding` narrower than their
  // column.
  void Table(const std::vector<TableColumn>& columns, const std::vector<PangoLayout*>& header,
             const std::vector<std::vector<PangoLayout*>>& rows, const TableStyle& style);

  // `op` on the current page, or on page `page` (1-based), adding empty pages up to it.
  void Add(const PageOp& op);
  void AddToPage(size_t page, const PageOp& op);
  size_t page_count() const { return pages_.size(); }

  // The footer of page `page` of `total`: a layout of this PageLayout, centred under the body.
  using Footer = std::function<PangoLayout*(size_t page, size_t total)>;
  // Draws a kBox op.
  using BoxPainter = std::function<void(cairo_t* cr, const PageOp& op)>;
  // Paints every page and its footer and ends the document: the PDF bytes, or kInternal when
  // cairo failed. Call once, last, on a layout made with a canvas.
  Result<std::string> Finish(const Footer& footer, const BoxPainter& paint_box = {});
  // The same on `canvas`, whose first page must have the layout's size (the pages are kept:
  // after a writer that failed, a canvas may paint them).
  Result<std::string> Finish(PdfCanvas& canvas, const Footer& footer,
                             const BoxPainter& paint_box = {});
  // The same written by `writer` (pdf_writer.h), without cairo. kInternal when the writer cannot
  // embed a face the text uses (writer.supported() is then false) or a page holds a kBox, which
  // only cairo paints.
  Result<std::string> Finish(PdfWriter& writer, const Footer& footer);

 private:
  // Markup wraps at spaces; a word wider than style.width is set smaller, else broken.
  static void KeepWordsWhole(PangoLayout* layout, const TextSpec& style);
  void PlaceRow(const std::vector<TableColumn>& columns, const std::vector<PangoLayout*>& row,
                double height, bool header, const TableStyle& style);
  PangoLayout* Own(GPtr<PangoLayout> layout);
  // Where a page's footer starts: its bottom on the bottom margin.
  double FooterTop(PangoLayout* footer) const;

  PangoContext* context_;
  PdfCanvas* canvas_ = nullptr;  // the canvas the layout was made for, if any
  PageGeometry geometry_;
  PageFonts fonts_;
  double bottom_;
  double y_ = 0;
  std::vector<GPtr<PangoLayout>> layouts_;
  std::vector<std::vector<PageOp>> pages_;
};

}  // namespace esign::documents
