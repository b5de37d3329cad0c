// PdfWriter against cairo's PDF surface: the same layouts and shapes give the same words at the
// same places and the same pixels (poppler reads and draws both), in a file qpdf finds sound,
// with its fonts embedded as subsets with their Unicode maps; the same calls give the same bytes.
#include "documents/pdf_writer.h"

#include <gtest/gtest.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "documents/pdf_canvas.h"
#include "pdf_fixtures.h"
#include "tests/documents/page_image.h"

namespace esign::documents {
namespace {

using pdf_test::Contains;
using pdf_test::PdfFile;

constexpr char kFonts[] = "Noto Sans, DejaVu Sans";
constexpr char kParagraph[] =
    "Each party (Acme Corporation and Globex GmbH) keeps the other's Confidential Information "
    "secret: Ärger über die Straße, a naïve café's fiancée, “quotes”, 12.5% of €1,000 — and "
    "words with fi and ff, which are shaped without ligatures. It wraps over several lines.";

// Draws the same page contents on a cairo canvas and on a writer.
class Drawing {
 public:
  Drawing() : canvas_(PdfCanvas::Create(Metadata()).value()), writer_(Metadata()) {
    writer_.NewPage();
  }
  static PdfMetadata Metadata() {
    return {.date = "2026-11-27T10:30:00Z",
            .title = "Mutual NDA: Acme — Globex",
            .author = "Acme Corporation",
            .subject = "Contract ctr_01"};
  }
  PangoContext* context() const { return canvas_->context(); }
  PangoLayout* Text(const std::string& text, double size, double width, bool bold = false,
                    PangoAlignment alignment = PANGO_ALIGN_LEFT) {
    layouts_.push_back(NewTextLayout(context(), kFonts, size, width, bold));
    PangoLayout* layout = layouts_.back().get();
    pango_layout_set_text(layout, text.c_str(), -1);
    pango_layout_set_alignment(layout, alignment);
    return layout;
  }
  void Layout(PangoLayout* layout, double x, double y) {
    PaintLayout(canvas_->cr(), x, y, layout);
    writer_.ShowLayout(layout, x, y);
  }
  void Line(PangoLayout* layout, int line, double x, double baseline) {
    cairo_t* cr = canvas_->cr();
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, x, baseline);
    pango_cairo_show_layout_line(cr, pango_layout_get_line_readonly(layout, line));
    writer_.ShowLayoutLine(pango_layout_get_line_readonly(layout, line), x, baseline);
  }
  void Fill(double x, double y, double width, double height, double gray) {
    PaintRect(canvas_->cr(), x, y, width, height, gray, true);
    writer_.FillRect(x, y, width, height, gray);
  }
  void Stroke(double x, double y, double width, double height, double gray, double line_width) {
    PaintRect(canvas_->cr(), x, y, width, height, gray, false, line_width);
    writer_.StrokeRect(x, y, width, height, gray, line_width);
  }
  void Rule(double x, double y, double width, double gray, double line_width) {
    PaintRule(canvas_->cr(), x, y, width, gray, line_width);
    writer_.Rule(x, y, width, gray, line_width);
  }
  void NextPage() {
    canvas_->NextPage(kA4Width, kA4Height);
    writer_.NewPage();
  }
  std::string CairoPdf() { return canvas_->Finish().value(); }
  PdfWriter& writer() { return writer_; }

 private:
  std::unique_ptr<PdfCanvas> canvas_;
  PdfWriter writer_;
  std::vector<GPtr<PangoLayout>> layouts_;
};

// A page of a contract, in small: a title, a paragraph, a table row with a shaded header, rules
// and a box, and on a second page a centred footer and one line of a layout.
void DrawContract(Drawing& drawing) {
  const double left = 56.7;
  const double width = kA4Width - 2 * left;
  drawing.Layout(drawing.Text("Mutual NDA: Acme and Globex", 16, width, true), left, 56.7);
  drawing.Layout(drawing.Text(kParagraph, 10.5, width), left, 90);
  drawing.Fill(left, 200, width, 18, 0.9);
  drawing.Stroke(left, 200, width / 2, 18, 0.4, 0.75);
  drawing.Stroke(left + width / 2, 200, width / 2, 18, 0.4, 0.75);
  drawing.Layout(drawing.Text("Milestone", 10.5, width / 2 - 8, true), left + 4, 203);
  drawing.Layout(drawing.Text("Due date", 10.5, width / 2 - 8, true), left + width / 2 + 4, 203);
  drawing.Rule(left, 240, width, 0.4, 0.5);
  drawing.Stroke(300, 600, 200, 60, 0, 0.75);
  drawing.Layout(drawing.Text("Disclosing party — Ada Lovelace", 8, 190), 305, 645);
  drawing.NextPage();
  PangoLayout* flowing = drawing.Text(kParagraph, 10.5, 300);
  drawing.Line(flowing, 1, left, 100);
  drawing.Layout(drawing.Text("Page 2 of 2", 8.925, width, false, PANGO_ALIGN_CENTER), left, 780);
  // Shapes alone, which poppler draws the same to the pixel whoever wrote them.
  drawing.NextPage();
  drawing.Fill(left, 100, width, 18, 0.9);
  drawing.Stroke(left, 100, width / 3, 18, 0.4, 0.75);
  drawing.Stroke(left + width / 3, 100, width / 3, 18, 0.4, 0.75);
  drawing.Rule(left, 140.3, width, 0.4, 0.5);
  drawing.Rule(left + 10, 160, width / 2, 0, 1);
  drawing.Stroke(300.5, 600.25, 200, 60, 0, 0.75);
  drawing.Fill(80, 700, 30, 30, 0);
}

// The ink (255 - gray, summed) of the square of `size` pixels at (x, y).
int Ink(const pdf_test::PageImage& page, int x, int y, int size) {
  int ink = 0;
  for (int row = y; row < y + size; ++row) {
    for (int column = x; column < x + size; ++column) ink += 255 - page.Gray(column, row);
  }
  return ink;
}

// DrawContract's PDF by cairo, then by the writer (empty when it failed).
std::pair<std::string, std::string> DrawContractTwice() {
  Drawing drawing;
  DrawContract(drawing);
  std::string cairo_pdf = drawing.CairoPdf();
  auto written = drawing.writer().Finish();
  EXPECT_TRUE(written) << written.error().message;
  return {std::move(cairo_pdf), written ? std::move(*written) : std::string()};
}

TEST(PdfWriterTest, TheWordsAreWhereCairoPutsThem) {
  const auto [cairo_pdf, written] = DrawContractTwice();
  ASSERT_FALSE(written.empty());
  PdfFile cairo_file(cairo_pdf);
  PdfFile writer_file(written);
  const auto expected = cairo_file.Words();
  const auto words = writer_file.Words();
  ASSERT_GT(expected.size(), 60u);
  ASSERT_EQ(words.size(), expected.size());
  for (size_t i = 0; i < words.size(); ++i) {
    EXPECT_EQ(words[i].text, expected[i].text) << i;
    EXPECT_EQ(words[i].page, expected[i].page) << words[i].text;
    EXPECT_NEAR(words[i].x_min, expected[i].x_min, 0.05) << words[i].text;
    EXPECT_NEAR(words[i].x_max, expected[i].x_max, 0.05) << words[i].text;
    EXPECT_NEAR(words[i].y_min, expected[i].y_min, 0.05) << words[i].text;
    EXPECT_NEAR(words[i].y_max, expected[i].y_max, 0.05) << words[i].text;
  }
  EXPECT_TRUE(Contains(writer_file.Text(), "Ärger über die Straße, a naïve café's fiancée"));
}

TEST(PdfWriterTest, ThePagesLookAsCairoDrawsThem) {
  const auto [cairo_pdf, written] = DrawContractTwice();
  ASSERT_FALSE(written.empty());
  PdfFile cairo_file(cairo_pdf);
  PdfFile writer_file(written);
  // Compared by the ink of squares of 8 pixels (at 100 dpi, a glyph of 10.5 points is about
  // 10 by 14 pixels and holds about 10,000): cairo and this writer round glyph origins on
  // different grids, which poppler's quarter-pixel glyph positions turn into slightly different
  // edges (at most about 500 of a square's ink here), while a glyph, a rule or a box out of place
  // moves thousands.
  constexpr int kSquare = 8;
  constexpr int kMostInkMoved = 1200;
  for (int page = 1; page <= 2; ++page) {
    const pdf_test::PageImage expected(cairo_file.path(), page, 100);
    const pdf_test::PageImage pixels(writer_file.path(), page, 100);
    ASSERT_EQ(pixels.width(), expected.width());
    ASSERT_EQ(pixels.height(), expected.height());
    int inked_squares = 0;
    int most_moved = 0;
    for (int y = 0; y + kSquare <= pixels.height(); y += kSquare) {
      for (int x = 0; x + kSquare <= pixels.width(); x += kSquare) {
        const int ink = Ink(expected, x, y, kSquare);
        if (ink > 0) ++inked_squares;
        const int moved = std::abs(Ink(pixels, x, y, kSquare) - ink);
        most_moved = std::max(most_moved, moved);
        EXPECT_LE(moved, kMostInkMoved) << "page " << page << ", pixels " << x << "," << y;
      }
    }
    EXPECT_GT(inked_squares, 100) << page;
    RecordProperty("most_ink_moved_page_" + std::to_string(page), most_moved);
  }
  const pdf_test::PageImage expected(cairo_file.path(), 3, 100);
  const pdf_test::PageImage pixels(writer_file.path(), 3, 100);
  ASSERT_EQ(pixels.width(), expected.width());
  ASSERT_EQ(pixels.height(), expected.height());
  size_t inked = 0;
  size_t differing = 0;
  for (int y = 0; y < pixels.height(); ++y) {
    for (int x = 0; x < pixels.width(); ++x) {
      if (expected.Gray(x, y) < 200) ++inked;
      if (std::abs(pixels.Gray(x, y) - expected.Gray(x, y)) > 32) ++differing;
    }
  }
  EXPECT_GT(inked, 1000u);
  EXPECT_EQ(differing, 0u) << "of " << inked << " inked pixels";
}

TEST(PdfWriterTest, QpdfFindsItSoundAndTheFontsAreEmbeddedSubsetsWithUnicodeMaps) {
  Drawing drawing;
  DrawContract(drawing);
  auto written = drawing.writer().Finish();
  ASSERT_TRUE(written) << written.error().message;
  PdfFile file(*written);
  const auto checked = file.Check();
  EXPECT_EQ(checked.exit_code, 0) << checked.out;
  EXPECT_EQ(file.PageCount(), 3);
  const auto fonts = pdf_test::Run("pdffonts " + file.path());
  ASSERT_EQ(fonts.exit_code, 0) << fonts.out;
  // name, type, encoding, emb, sub, uni: two faces (regular and bold), each a subset.
  EXPECT_EQ(pdf_test::Count(fonts.out, "CID TrueType      Identity-H       yes yes yes"), 2u)
      << fonts.out;
  const auto info = pdf_test::Run("pdfinfo " + file.path());
  EXPECT_TRUE(Contains(info.out, "Mutual NDA: Acme — Globex")) << info.out;
  EXPECT_TRUE(Contains(info.out, "Acme Corporation")) << info.out;
  EXPECT_TRUE(Contains(info.out, "Creator:         contractd")) << info.out;
}

TEST(PdfWriterTest, TheSameCallsGiveTheSameBytes) {
  Drawing first;
  DrawContract(first);
  Drawing second;
  DrawContract(second);
  auto a = first.writer().Finish();
  auto b = second.writer().Finish();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
  Drawing other;
  other.Layout(other.Text("Another text", 10.5, 400), 56.7, 56.7);
  auto c = other.writer().Finish();
  ASSERT_TRUE(c);
  EXPECT_NE(*a, *c);
}

TEST(PdfWriterTest, AFaceWithoutTrueTypeOutlinesIsRefused) {
  Drawing drawing;
  EXPECT_TRUE(drawing.writer().supported());
  // Noto Sans has no Han characters: fontconfig falls back to Noto Sans CJK, a CFF face.
  PangoContext* context = drawing.context();
  GPtr<PangoLayout> layout(NewTextLayout(context, "Noto Sans, Noto Sans CJK SC", 10.5, 400));
  pango_layout_set_text(layout.get(), "契約書 contract", -1);
  drawing.writer().ShowLayout(layout.get(), 56.7, 56.7);
  EXPECT_FALSE(drawing.writer().supported());
  auto written = drawing.writer().Finish();
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().code, ErrorCode::kInternal);
  EXPECT_TRUE(Contains(written.error().message, "Noto Sans CJK")) << written.error().message;
}

// Noto Sans Glagolitic has no bold: fontconfig asks the renderer to embolden it, which a subset
// of its outlines would not show. Its regular weight is written.
TEST(PdfWriterTest, AFaceTheRendererWouldEmboldenIsRefused) {
  const std::string glagolitic = "\u2C00\u2C01\u2C02";
  Drawing regular;
  regular.writer().ShowLayout(regular.Text(glagolitic, 10.5, 400), 56.7, 56.7);
  EXPECT_TRUE(regular.writer().supported());
  EXPECT_TRUE(regular.writer().Finish());
  Drawing bold;
  bold.writer().ShowLayout(bold.Text(glagolitic, 10.5, 400, /*bold=*/true), 56.7, 56.7);
  EXPECT_FALSE(bold.writer().supported());
  auto written = bold.writer().Finish();
  ASSERT_FALSE(written);
  EXPECT_TRUE(Contains(written.error().message, "emboldened by the renderer"))
      << written.error().message;
}

}  // namespace
}  // namespace esign::documents
