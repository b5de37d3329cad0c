#include "documents/signature_keeping.h"

#include <gtest/gtest.h>

#include <vector>

namespace esign::documents {
namespace {

// An A4 body: 2 cm margins, the footer's space kept above the bottom one.
TextEnd EndsAt(size_t page, double y) {
  return {.page = page, .y = y, .top = 56.7, .bottom = 761.2, .left = 56.7, .right = 538.6};
}

SignaturePlacement Box(int64_t page, double x, double y) {
  return {.page = page, .x = x, .y = y, .width = 200, .height = 50};
}

struct TwoSigners {
  std::vector<SignaturePlacement> client;
  std::vector<SignaturePlacement> provider;
  void Keep(const TextEnd& end, const std::vector<int64_t>& field_pages = {}) {
    KeepSignaturesWithText({&client, &provider}, end, field_pages);
  }
};

TEST(SignatureKeepingTest, BoxesOnAPageAfterTheTextMoveBelowTheLastParagraph) {
  TwoSigners boxes{{Box(3, 72, 600)}, {Box(3, 320, 620)}};
  boxes.Keep(EndsAt(2, 400));
  // One group: both on page 2 just below the text, 20 points apart as the template had them.
  EXPECT_EQ(boxes.client[0], Box(2, 72, 406));
  EXPECT_EQ(boxes.provider[0], Box(2, 320, 426));
}

TEST(SignatureKeepingTest, BoxesTheTextRunsUnderMoveBelowIt) {
  TwoSigners boxes{{Box(1, 72, 688)}, {Box(1, 320, 688)}};
  boxes.Keep(EndsAt(1, 700.5));
  EXPECT_EQ(boxes.client[0], Box(1, 72, 706.5));
  EXPECT_EQ(boxes.provider[0], Box(1, 320, 706.5));
}

TEST(SignatureKeepingTest, BoxesFarBelowTheTextOnItsLastPageMoveUpToIt) {
  TwoSigners boxes{{Box(2, 72, 600)}, {Box(2, 320, 600)}};
  boxes.Keep(EndsAt(2, 400));
  EXPECT_EQ(boxes.client[0], Box(2, 72, 406));
  EXPECT_EQ(boxes.provider[0], Box(2, 320, 406));
}

TEST(SignatureKeepingTest, AGroupThatDoesNotFitBelowTheTextOpensTheNextPage) {
  TwoSigners boxes{{Box(3, 72, 600)}, {Box(3, 320, 600)}};
  boxes.Keep(EndsAt(2, 730));
  EXPECT_EQ(boxes.client[0], Box(3, 72, 56.7));
  EXPECT_EQ(boxes.provider[0], Box(3, 320, 56.7));
  // And when the text ran onto the boxes' own page, they go below it there.
  TwoSigners under{{Box(3, 72, 600)}, {Box(3, 320, 600)}};
  under.Keep(EndsAt(3, 650));
  EXPECT_EQ(under.client[0], Box(3, 72, 656));
}

TEST(SignatureKeepingTest, EachPagesBoxesStayTogetherAndFollowInPageOrder) {
  TwoSigners boxes{{Box(3, 72, 100), Box(4, 72, 300)}, {Box(3, 320, 100)}};
  boxes.Keep(EndsAt(2, 400));
  EXPECT_EQ(boxes.client[0], Box(2, 72, 406));
  EXPECT_EQ(boxes.provider[0], Box(2, 320, 406));
  EXPECT_EQ(boxes.client[1], Box(2, 72, 462));  // 406 + 50 + 6
}

TEST(SignatureKeepingTest, BoxesTheTemplatePlacedWithTheTextStayWhereTheyAre) {
  const TwoSigners earlier{{Box(1, 72, 300)}, {Box(1, 320, 300)}};
  const TwoSigners in_the_margin{{{.page = 2, .x = 540, .y = 100, .width = 40, .height = 20}},
                                 {Box(1, 320, 600)}};
  for (const TwoSigners& template_boxes : {earlier, in_the_margin}) {
    TwoSigners boxes = template_boxes;
    boxes.Keep(EndsAt(2, 400));
    EXPECT_EQ(boxes.client, template_boxes.client);
    EXPECT_EQ(boxes.provider, template_boxes.provider);
  }
}

TEST(SignatureKeepingTest, APageWithAPlacedFieldKeepsItsBoxes) {
  const TwoSigners template_boxes{{Box(3, 72, 600)}, {Box(3, 320, 600)}};
  TwoSigners boxes = template_boxes;
  boxes.Keep(EndsAt(2, 400), {1, 3});
  EXPECT_EQ(boxes.client, template_boxes.client);
  EXPECT_EQ(boxes.provider, template_boxes.provider);
}

TEST(SignatureKeepingTest, AGroupTallerThanAPageAndABadPageAreLeftAlone) {
  const TwoSigners tall{{{.page = 3, .x = 72, .y = 0, .width = 100, .height = 800}},
                        {Box(3, 320, 600)}};
  const TwoSigners bad_page{{Box(0, 72, 600)}, {Box(-4, 320, 600)}};
  for (const TwoSigners& template_boxes : {tall, bad_page}) {
    TwoSigners boxes = template_boxes;
    boxes.Keep(EndsAt(2, 400));
    EXPECT_EQ(boxes.client, template_boxes.client);
    EXPECT_EQ(boxes.provider, template_boxes.provider);
  }
}

}  // namespace
}  // namespace esign::documents
