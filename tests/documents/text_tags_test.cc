#include "documents/text_tags.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/documents/pdf_test_support.h"

namespace esign::documents {
namespace {

TEST(TextTagsTest, ParsesTheGrammar) {
  auto plain = ParseTextTag("{{signature:1}}");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->type, "signature");
  EXPECT_EQ(plain->signer, 1);
  EXPECT_EQ(plain->name, "");
  EXPECT_FALSE(plain->optional);
  EXPECT_EQ(plain->text, "{{signature:1}}");

  auto named = ParseTextTag("{{text:2:company}}");
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(named->name, "company");
  EXPECT_FALSE(named->optional);

  auto optional = ParseTextTag("{{text:12:company:optional}}");
  ASSERT_TRUE(optional.has_value());
  EXPECT_EQ(optional->signer, 12);
  EXPECT_EQ(optional->name, "company");
  EXPECT_TRUE(optional->optional);

  auto unnamed_optional = ParseTextTag("{{initials:3:optional}}");
  ASSERT_TRUE(unnamed_optional.has_value());
  EXPECT_EQ(unnamed_optional->name, "");
  EXPECT_TRUE(unnamed_optional->optional);

  // Text runs split by the extraction leave spaces inside; they are not part of the tag.
  auto spaced = ParseTextTag("{{date_ signed : 2}}");
  ASSERT_TRUE(spaced.has_value());
  EXPECT_EQ(spaced->type, "date_signed");
  EXPECT_EQ(spaced->signer, 2);

  // An unknown type is a tag all the same: the caller decides.
  EXPECT_TRUE(ParseTextTag("{{stamp:1}}").has_value());
}

TEST(TextTagsTest, RefusesWhatIsNotATag) {
  for (const char* text :
       {"{{}}", "{{signature}}", "{{signature:}}", "{{signature:0}}", "{{signature:01}}",
        "{{signature:x}}", "{{Signature:1}}", "{{sig-nature:1}}", "{{signature:1:a:b}}",
        "{{signature:1:a:b:optional}}", "{{:1}}", "{signature:1}", "{{signature:99999}}",
        "{{name}}", "{{signature:1:}}"}) {
    EXPECT_FALSE(ParseTextTag(text).has_value()) << text;
  }
}

TEST(TextTagsTest, FindsTagsWithTheirBoxesInAHandWrittenPdf) {
  auto tags = FindTextTags(DocumentFixture("tagged_handwritten.pdf"));
  ASSERT_TRUE(tags.has_value()) << tags.error().message;
  std::vector<std::string> written;
  for (const TextTag& tag : *tags) written.push_back(tag.text);
  EXPECT_EQ(written, (std::vector<std::string>{"{{signature:1}}", "{{initials:2}}",
                                               "{{date_signed:1}}", "{{text:2:company:optional}}",
                                               "{{stamp:1}}", "{{signature:2}}"}));
  ASSERT_EQ(tags->size(), 6u);
  // Helvetica 12 on the baseline 680 of a 792-point page: the text's box ends a little below
  // y = 112 from the top, and the signature's box grows upwards to 24 points.
  const PageRect& signature = (*tags)[0].box;
  EXPECT_EQ(signature.page, 1);
  EXPECT_DOUBLE_EQ(signature.height, kMinSignatureTagHeight);
  EXPECT_NEAR(signature.y + signature.height, 792 - 680, 4);
  EXPECT_GT(signature.x, 72 + 100);  // after "Signed by the client: "
  EXPECT_GT(signature.width, 60);
  // Written in two text runs, found as one tag.
  EXPECT_EQ((*tags)[1].type, "initials");
  EXPECT_EQ((*tags)[1].signer, 2);
  // Two tags on one line.
  const TextTag& date = (*tags)[2];
  const TextTag& company = (*tags)[3];
  EXPECT_EQ(date.type, "date_signed");
  EXPECT_LT(date.box.height, kMinSignatureTagHeight);
  EXPECT_NEAR(date.box.y, company.box.y, 0.5);
  EXPECT_GT(company.box.x, date.box.x + date.box.width);
  EXPECT_EQ(company.name, "company");
  EXPECT_TRUE(company.optional);
  EXPECT_EQ((*tags)[4].type, "stamp");
  // Page 2 is turned a quarter clockwise and its text written turned the other way, so that it
  // reads upright: from (500, 100) in the page's own space to (100, 500) as displayed.
  const PageRect& turned = (*tags)[5].box;
  EXPECT_EQ(turned.page, 2);
  EXPECT_NEAR(turned.x, 100, 2);
  EXPECT_NEAR(turned.y + turned.height, 500, 4);
  EXPECT_DOUBLE_EQ(turned.height, kMinSignatureTagHeight);
  EXPECT_GT(turned.width, 60);
}

TEST(TextTagsTest, ATagAfterAPageOfOpeningBracesIsFound) {
  // 100 lines of 250 opening braces, then a tag: each search for the closing pair starts where the
  // last one ended (the page costs one pass, not one per opening).
  std::string content = "BT /F1 4 Tf 5 TL 20 780 Td\n";
  for (int line = 0; line < 100; ++line) content += "(" + std::string(250, '{') + ") '\n";
  content += "({{email:1}}) ' ET";
  const std::string pdf = WritePdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
      "/Resources << /Font << /F1 5 0 R >> >> >>",
      StreamObject(content),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  });
  auto tags = FindTextTags(pdf);
  ASSERT_TRUE(tags.has_value()) << tags.error().message;
  ASSERT_EQ(tags->size(), 1u);
  EXPECT_EQ((*tags)[0].text, "{{email:1}}");
}

TEST(TextTagsTest, RefusesBytesPopplerCannotRead) {
  auto tags = FindTextTags("not a pdf");
  ASSERT_FALSE(tags.has_value());
  EXPECT_EQ(tags.error().code, ErrorCode::kDocumentInvalid);
}

TEST(TextTagsTest, AnUnclosedOrBrokenTagIsSkippedAndTheNextFound) {
  const std::string pdf = WritePdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
      "/Resources << /Font << /F1 5 0 R >> >> >>",
      StreamObject("BT /F1 12 Tf 72 700 Td ({{signature:1 {{name:1}}) Tj ET\n"
                   "BT /F1 12 Tf 72 650 Td ({{email:) Tj ET\n"
                   "BT /F1 12 Tf 72 600 Td (1}} {{email:2}}) Tj ET"),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  });
  auto tags = FindTextTags(pdf);
  ASSERT_TRUE(tags.has_value()) << tags.error().message;
  ASSERT_EQ(tags->size(), 2u);
  EXPECT_EQ((*tags)[0].text, "{{name:1}}");
  EXPECT_EQ((*tags)[1].text, "{{email:2}}");
}

}  // namespace
}  // namespace esign::documents
