// The page-layout engine alone: where blocks go, when a page breaks, how a table repeats its
// header, and that every page is painted with its footer. Positions are read from the recorded
// operations through the footer callback and the page count, and the PDF is read with poppler.
#include "documents/page_layout.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "pdf_fixtures.h"

namespace esign::documents {
namespace {

using pdf_test::Contains;
using pdf_test::PdfFile;

constexpr char kFonts[] = "Noto Sans, DejaVu Sans";

class PageLayoutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    canvas_ = PdfCanvas::Create({.date = "2026-11-27T00:00:00Z"}).value();
    layout_ = std::make_unique<PageLayout>(*canvas_, PageGeometry{}, PageFonts{.families = kFonts});
  }
  PangoLayout* Line(const std::string& text) {
    return layout_->Text(text, {.size = 10, .width = layout_->width()}, TextReuse::kOwn);
  }
  // Ends the document, every footer "Page N of M"; the pages' texts.
  std::vector<std::string> Finish() {
    auto pdf = layout_->Finish([&](size_t page, size_t total) {
      return layout_->Text("Page " + std::to_string(page) + " of " + std::to_string(total),
                           {.size = 8, .width = layout_->width(), .alignment = PANGO_ALIGN_CENTER},
                           TextReuse::kShared);
    });
    EXPECT_TRUE(pdf.has_value());
    PdfFile file(*pdf);
    EXPECT_EQ(file.Check().exit_code, 0);
    return file.PageTexts();
  }

  std::unique_ptr<PdfCanvas> canvas_;
  std::unique_ptr<PageLayout> layout_;
};

TEST_F(PageLayoutTest, ABlockThatDoesNotFitStartsTheNextPage) {
  EXPECT_TRUE(layout_->AtTop());
  PangoLayout* line = Line("first");
  const double height = PageLayout::HeightOf(line);
  layout_->Place(line, 5);
  EXPECT_DOUBLE_EQ(layout_->y(), layout_->top() + height + 5);
  layout_->BreakUnlessFits(layout_->Remaining());
  EXPECT_EQ(layout_->page_count(), 1u);
  layout_->BreakUnlessFits(layout_->Remaining() + 1);
  EXPECT_EQ(layout_->page_count(), 2u);
  EXPECT_TRUE(layout_->AtTop());
  layout_->Place(Line("second"));
  const auto pages = Finish();
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_TRUE(Contains(pages[0], "first"));
  EXPECT_TRUE(Contains(pages[0], "Page 1 of 2"));
  EXPECT_TRUE(Contains(pages[1], "second"));
  EXPECT_TRUE(Contains(pages[1], "Page 2 of 2"));
}

TEST_F(PageLayoutTest, KeepWithNextNeverLeavesAnEmptyPage) {
  layout_->KeepWithNext(10 * layout_->Remaining());
  EXPECT_EQ(layout_->page_count(), 1u);
  layout_->Advance(1);
  layout_->KeepWithNext(layout_->Remaining() + 1);
  EXPECT_EQ(layout_->page_count(), 2u);
}

TEST_F(PageLayoutTest, SpaceStopsAtTheFootOfTheBodyAndAdvanceDoesNot) {
  layout_->Space(10'000);
  EXPECT_DOUBLE_EQ(layout_->Remaining(), 0);
  layout_->Advance(3);
  EXPECT_DOUBLE_EQ(layout_->Remaining(), -3);
}

TEST_F(PageLayoutTest, AFlowingParagraphContinuesOnTheNextPage) {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "Word" + std::to_string(i) + " lorem ipsum dolor sit. ";
  // Room for two lines at the foot of the page: the rest continues on the next.
  layout_->Space(10'000);
  layout_->Advance(-30);
  layout_->Flow(Line(text));
  const auto pages = Finish();
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_TRUE(Contains(pages[0], "Word0 "));
  EXPECT_FALSE(Contains(pages[0], "Word29 "));
  EXPECT_TRUE(Contains(pages[1], "Word29 "));
}

TEST_F(PageLayoutTest, ATableRepeatsItsHeaderOnEveryPageAndKeepsItWithTheFirstRow) {
  const auto columns = ColumnsOfWidths({100, 200});
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_DOUBLE_EQ(columns[1].offset, 100);
  const auto cell = [&](const std::string& text) {
    return layout_->Text(text, {.size = 9, .width = 90}, TextReuse::kOwn);
  };
  const std::vector<PangoLayout*> header = {cell("HeadA"), cell("HeadB")};
  std::vector<std::vector<PangoLayout*>> rows;
  for (int i = 0; i < 120; ++i) rows.push_back({cell("row" + std::to_string(i)), cell("x")});
  // Leave less room than a header and a row: the header moves with the first row.
  layout_->Space(10'000);
  layout_->Advance(-10);
  layout_->Table(columns, header, rows,
                 {.lines = TableStyle::Lines::kRowRules, .keep_header_with_first_row = true});
  const auto pages = Finish();
  ASSERT_GE(pages.size(), 3u);
  EXPECT_FALSE(Contains(pages[0], "HeadA"));
  for (size_t i = 1; i < pages.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(Contains(pages[i], "HeadA"));
    EXPECT_TRUE(Contains(pages[i], "HeadB"));
  }
  EXPECT_TRUE(Contains(pages[1], "row0\n"));
  EXPECT_TRUE(Contains(pages.back(), "row119\n"));
}

TEST_F(PageLayoutTest, AnEmptyTableStillShowsItsHeader) {
  layout_->Table(EqualColumns(0, layout_->width()),
                 {layout_->Text("Only", {.size = 9, .width = 90}, TextReuse::kOwn)}, {}, {});
  const auto pages = Finish();
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_TRUE(Contains(pages[0], "Only"));
}

TEST_F(PageLayoutTest, AnOperationOnALaterPageAddsThePagesBeforeIt) {
  int boxes = 0;
  layout_->AddToPage(3, {.kind = PageOp::Kind::kBox, .x = 10, .y = 10, .width = 50, .height = 20});
  EXPECT_EQ(layout_->page_count(), 3u);
  auto pdf = layout_->Finish(
      [&](size_t page, size_t total) {
        return layout_->Text(std::to_string(page) + "/" + std::to_string(total),
                             {.size = 8, .width = layout_->width()}, TextReuse::kOwn);
      },
      [&](cairo_t*, const PageOp& op) {
        ++boxes;
        EXPECT_DOUBLE_EQ(op.width, 50);
      });
  ASSERT_TRUE(pdf.has_value());
  EXPECT_EQ(boxes, 1);
  EXPECT_EQ(PdfFile(*pdf).PageCount(), 3);
}

TEST_F(PageLayoutTest, MarkupThatDoesNotParseShowsAsText) {
  layout_->Place(layout_->Markup("a <b>bold</b> word", {.size = 10, .width = 300}));
  layout_->Place(layout_->Markup("a <b>broken & open", {.size = 10, .width = 300}));
  const auto pages = Finish();
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_TRUE(Contains(pages[0], "a bold word"));
  EXPECT_TRUE(Contains(pages[0], "a <b>broken & open"));
}

}  // namespace
}  // namespace esign::documents
