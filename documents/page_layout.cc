#include "documents/page_layout.h"

#include <pango/pangocairo.h>

#include <algorithm>
#include <utility>

namespace esign::documents {

std::vector<TableColumn> EqualColumns(size_t count, double total) {
  count = std::max<size_t>(count, 1);
  const double width = total / static_cast<double>(count);
  std::vector<TableColumn> columns;
  columns.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    columns.push_back({.offset = width * static_cast<double>(i), .width = width});
  }
  return columns;
}

std::vector<TableColumn> ColumnsOfWidths(const std::vector<double>& widths) {
  std::vector<TableColumn> columns;
  columns.reserve(widths.size());
  double offset = 0;
  for (const double width : widths) {
    columns.push_back({.offset = offset, .width = width});
    offset += width;
  }
  return columns;
}

PageLayout::PageLayout(PdfCanvas& canvas, const PageGeometry& geometry, PageFonts fonts)
    : PageLayout(canvas.context(), geometry, std::move(fonts)) {
  canvas_ = &canvas;
}

PageLayout::PageLayout(PangoContext* context, const PageGeometry& geometry, PageFonts fonts)
    : context_(context),
      geometry_(geometry),
      fonts_(std::move(fonts)),
      bottom_(geometry.height - geometry.margin - geometry.footer_space) {
  NewPage();
}

PangoLayout* PageLayout::Own(GPtr<PangoLayout> layout) {
  layouts_.push_back(std::move(layout));
  return layouts_.back().get();
}

PangoLayout* PageLayout::Text(const std::string& text, const TextSpec& style, TextReuse reuse) {
  if (reuse == TextReuse::kShared) {
    return Own(SharedTextLayout(context_, fonts_.families, style.size, style.width, style.bold,
                                fonts_.ligatures, style.alignment, text));
  }
  GPtr<PangoLayout> layout = NewTextLayout(context_, fonts_.families, style.size, style.width,
                                           style.bold, fonts_.ligatures);
  pango_layout_set_alignment(layout.get(), style.alignment);
  pango_layout_set_text(layout.get(), text.c_str(), static_cast<int>(text.size()));
  return Own(std::move(layout));
}

PangoLayout* PageLayout::Markup(const std::string& markup, const TextSpec& style, int max_lines) {
  GPtr<PangoLayout> layout = NewTextLayout(context_, fonts_.families, style.size, style.width);
  // Columns stay left-aligned under a right-to-left name; pango still orders its letters.
  pango_layout_set_auto_dir(layout.get(), FALSE);
  if (max_lines > 0) {
    pango_layout_set_height(layout.get(), -max_lines);
    pango_layout_set_ellipsize(layout.get(), PANGO_ELLIPSIZE_END);
  }
  const std::string full = "<span insert_hyphens=\"false\" font_features=\"" +
                           std::string(kNoLigatures) + "\">" + markup + "</span>";
  if (pango_parse_markup(full.c_str(), static_cast<int>(full.size()), 0, nullptr, nullptr, nullptr,
                         nullptr) != FALSE) {
    pango_layout_set_markup(layout.get(), full.c_str(), static_cast<int>(full.size()));
  } else {
    pango_layout_set_text(layout.get(), markup.c_str(), static_cast<int>(markup.size()));
  }
  pango_layout_set_alignment(layout.get(), style.alignment);
  KeepWordsWhole(layout.get(), style);
  return Own(std::move(layout));
}

void PageLayout::KeepWordsWhole(PangoLayout* layout, const TextSpec& style) {
  // Lines break at spaces only, so an id or a hash reads as one piece. A word wider than the
  // column is set smaller until it fits (down to kMinWordScale); only a wider one still is
  // broken between characters.
  constexpr double kMinWordScale = 0.7;
  pango_layout_set_wrap(layout, PANGO_WRAP_WORD);
  const auto too_wide = [&] {
    PangoRectangle logical{};
    pango_layout_get_extents(layout, nullptr, &logical);
    return logical.width > static_cast<int>(style.width * PANGO_SCALE);
  };
  if (style.width <= 0 || !too_wide()) return;
  FontDescriptionPtr font(pango_font_description_copy(pango_layout_get_font_description(layout)));
  for (double scale = 0.9; scale >= kMinWordScale - 1e-9 && too_wide(); scale -= 0.1) {
    pango_font_description_set_absolute_size(font.get(), style.size * scale * PANGO_SCALE);
    pango_layout_set_font_description(layout, font.get());
  }
  if (too_wide()) pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
}

double PageLayout::HeightOf(PangoLayout* layout) { return LayoutHeight(layout); }

void PageLayout::NewPage() {
  pages_.emplace_back();
  y_ = top();
}

void PageLayout::Space(double points) { y_ = std::min(y_ + points, bottom_); }

void PageLayout::Advance(double points) { y_ += points; }

void PageLayout::BreakUnlessFits(double height) {
  if (height > Remaining()) NewPage();
}

void PageLayout::KeepWithNext(double height) {
  if (!AtTop() && height > Remaining()) NewPage();
}

void PageLayout::Place(PangoLayout* layout, double space_after, double indent) {
  Add({.kind = PageOp::Kind::kLayout, .layout = layout, .x = left() + indent, .y = y_});
  y_ += HeightOf(layout) + space_after;
}

void PageLayout::Flow(PangoLayout* layout) {
  PangoLayoutIter* iter = pango_layout_get_iter(layout);
  int index = 0;
  do {
    int top = 0;
    int bottom = 0;
    pango_layout_iter_get_line_yrange(iter, &top, &bottom);
    const double line_height = static_cast<double>(bottom - top) / PANGO_SCALE;
    const double baseline =
        static_cast<double>(pango_layout_iter_get_baseline(iter) - top) / PANGO_SCALE;
    PangoRectangle logical;
    pango_layout_iter_get_line_extents(iter, nullptr, &logical);
    if (line_height > Remaining()) NewPage();
    Add({.kind = PageOp::Kind::kLine,
         .layout = layout,
         .line = index,
         .x = left() + static_cast<double>(logical.x) / PANGO_SCALE,
         .y = y_ + baseline});
    y_ += line_height;
    ++index;
  } while (pango_layout_iter_next_line(iter) != 0);
  pango_layout_iter_free(iter);
}

void PageLayout::Rule(double gray, double line_width) {
  Add({.kind = PageOp::Kind::kRule,
       .x = left(),
       .y = y_,
       .width = width(),
       .gray = gray,
       .line_width = line_width});
}

void PageLayout::Table(const std::vector<TableColumn>& columns,
                       const std::vector<PangoLayout*>& header,
                       const std::vector<std::vector<PangoLayout*>>& rows,
                       const TableStyle& style) {
  const auto height_of = [&](const std::vector<PangoLayout*>& row) {
    return TallestLayout(row) + 2 * style.padding;
  };
  const double header_height = height_of(header);
  bool header_placed = false;
  for (const auto& row : rows) {
    const double height = height_of(row);
    if (!header_placed) {
      if (style.keep_header_with_first_row) BreakUnlessFits(header_height + height);
      PlaceRow(columns, header, header_height, true, style);
      header_placed = true;
    } else if (height > Remaining()) {
      NewPage();
      PlaceRow(columns, header, header_height, true, style);
    }
    PlaceRow(columns, row, height, false, style);
  }
  if (!header_placed) PlaceRow(columns, header, header_height, true, style);
}

void PageLayout::PlaceRow(const std::vector<TableColumn>& columns,
                          const std::vector<PangoLayout*>& row, double height, bool header,
                          const TableStyle& style) {
  if (header) {
    Add({.kind = PageOp::Kind::kFillRect,
         .x = left(),
         .y = y_,
         .width = width(),
         .height = height,
         .gray = style.header_fill});
  }
  const bool boxes = style.lines == TableStyle::Lines::kCellBoxes;
  for (size_t i = 0; i < row.size() && i < columns.size(); ++i) {
    const double x = left() + columns[i].offset;
    if (boxes) {
      Add({.kind = PageOp::Kind::kStrokeRect,
           .x = x,
           .y = y_,
           .width = columns[i].width,
           .height = height,
           .gray = style.row_line_gray,
           .line_width = style.line_width});
    }
    Add({.kind = PageOp::Kind::kLayout,
         .layout = row[i],
         .x = x + style.padding,
         .y = y_ + style.padding});
  }
  y_ += height;
  if (!boxes) Rule(header ? style.header_line_gray : style.row_line_gray, style.line_width);
}

void PageLayout::Add(const PageOp& op) { pages_.back().push_back(op); }

void PageLayout::AddToPage(size_t page, const PageOp& op) {
  while (pages_.size() < page) pages_.emplace_back();
  pages_[page - 1].push_back(op);
}

namespace {

void Paint(cairo_t* cr, const PageOp& op, const PageLayout::BoxPainter& paint_box) {
  switch (op.kind) {
    case PageOp::Kind::kLine:
      cairo_set_source_rgb(cr, 0, 0, 0);
      cairo_move_to(cr, op.x, op.y);
      pango_cairo_show_layout_line(cr, pango_layout_get_line_readonly(op.layout, op.line));
      break;
    case PageOp::Kind::kLayout:
      PaintLayout(cr, op.x, op.y, op.layout);
      break;
    case PageOp::Kind::kStrokeRect:
      PaintRect(cr, op.x, op.y, op.width, op.height, op.gray, false, op.line_width);
      break;
    case PageOp::Kind::kFillRect:
      PaintRect(cr, op.x, op.y, op.width, op.height, op.gray, true);
      break;
    case PageOp::Kind::kRule:
      PaintRule(cr, op.x, op.y, op.width, op.gray, op.line_width);
      break;
    case PageOp::Kind::kBox:
      if (paint_box) paint_box(cr, op);
      break;
  }
}

}  // namespace

Result<std::string> PageLayout::Finish(const Footer& footer, const BoxPainter& paint_box) {
  if (canvas_ == nullptr) return Fail(ErrorCode::kInternal, "the page layout has no canvas");
  return Finish(*canvas_, footer, paint_box);
}

Result<std::string> PageLayout::Finish(PdfCanvas& canvas, const Footer& footer,
                                       const BoxPainter& paint_box) {
  cairo_t* cr = canvas.cr();
  const size_t total = pages_.size();
  for (size_t i = 0; i < total; ++i) {
    for (const auto& op : pages_[i]) Paint(cr, op, paint_box);
    PangoLayout* text = footer(i + 1, total);
    PaintLayout(cr, left(), FooterTop(text), text);
    cairo_show_page(cr);
  }
  return canvas.Finish();
}

Result<std::string> PageLayout::Finish(PdfWriter& writer, const Footer& footer) {
  const size_t total = pages_.size();
  for (size_t i = 0; i < total; ++i) {
    writer.NewPage(geometry_.width, geometry_.height);
    for (const auto& op : pages_[i]) {
      switch (op.kind) {
        case PageOp::Kind::kLine:
          writer.ShowLayoutLine(pango_layout_get_line_readonly(op.layout, op.line), op.x, op.y);
          break;
        case PageOp::Kind::kLayout:
          writer.ShowLayout(op.layout, op.x, op.y);
          break;
        case PageOp::Kind::kStrokeRect:
          writer.StrokeRect(op.x, op.y, op.width, op.height, op.gray, op.line_width);
          break;
        case PageOp::Kind::kFillRect:
          writer.FillRect(op.x, op.y, op.width, op.height, op.gray);
          break;
        case PageOp::Kind::kRule:
          writer.Rule(op.x, op.y, op.width, op.gray, op.line_width);
          break;
        case PageOp::Kind::kBox:
          return Fail(ErrorCode::kInternal, "the PDF writer draws no signature boxes");
      }
    }
    PangoLayout* text = footer(i + 1, total);
    writer.ShowLayout(text, left(), FooterTop(text));
  }
  return writer.Finish();
}

double PageLayout::FooterTop(PangoLayout* footer) const {
  return geometry_.height - geometry_.margin - HeightOf(footer);
}

}  // namespace esign::documents
