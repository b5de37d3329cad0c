// Composing uploads and stamping fields, looked at as a reader would: qpdf finds nothing wrong,
// pdftoppm draws ink inside every field's box and nowhere else, none where a text tag or a mapped
// widget was, whatever the page's crop box and rotation; and every page's own content streams
// keep their bytes.
#include <gtest/gtest.h>
#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "documents/field_stamper.h"
#include "documents/uploaded_pdf_composer.h"
#include "tests/documents/pdf_fixtures.h"
#include "tests/documents/upload_pdf_fixtures.h"

namespace esign::documents {
namespace {

using pdf_test::Contains;
using pdf_test::PdfFile;
using upload_test::Documents;
using upload_test::Fields;
using upload_test::FormPdf;
using upload_test::Near;
using upload_test::PageImage;
using upload_test::TaggedPdf;

// The raw bytes of each page's content streams, in order.
std::vector<std::vector<std::string>> ContentStreams(const std::string& pdf) {
  QPDF q;
  q.setSuppressWarnings(true);
  q.processMemoryFile("test", pdf.data(), pdf.size());
  std::vector<std::vector<std::string>> out;
  for (QPDFPageObjectHelper& page : QPDFPageDocumentHelper(q).getAllPages()) {
    std::vector<std::string> streams;
    for (QPDFObjectHandle& stream : page.getPageContents()) {
      const std::shared_ptr<Buffer> raw = stream.getRawStreamData();
      streams.emplace_back(reinterpret_cast<const char*>(raw->getBuffer()), raw->getSize());
    }
    out.push_back(streams);
  }
  return out;
}

class UploadedPdfTest : public ::testing::Test {
 protected:
  Result<std::string> Compose() const {
    const std::vector<UploadedPdf> inputs = {{&documents_[0], tagged_}, {&documents_[1], form_}};
    return ComposeUploadedPdf(inputs);
  }
  // Fields() with composed page numbers, as ContractDocuments stamps them.
  static std::vector<FieldStamp> Stamps() {
    const std::vector<ContractDocument> documents = Documents();
    std::vector<FieldStamp> stamps;
    for (const PlacedField& field : Fields()) {
      FieldStamp stamp{
          .type = field.type, .box = field.box, .participant_id = field.participant_id};
      stamp.box.page =
          ComposedPage(documents, static_cast<size_t>(field.document_index), field.box.page);
      stamp.text = field.type == PlacedFieldType::kText       ? std::string(field.value.as_string())
                   : field.type == PlacedFieldType::kInitials ? "AS"
                   : field.type == PlacedFieldType::kDateSigned ? "2026-11-21"
                   : field.type == PlacedFieldType::kName       ? "Ana de Souza"
                                                                : "ana@example.com";
      stamps.push_back(stamp);
    }
    return stamps;
  }
  static std::vector<SignatureAppearance> Signatures() {
    return {{.participant_id = "p_ana",
             .signer_name = "Ana de Souza",
             .signed_at = "2026-11-21T10:04:33Z"}};
  }

  const std::vector<ContractDocument> documents_ = Documents();
  const std::string tagged_ = TaggedPdf();
  const std::string form_ = FormPdf();
};

TEST_F(UploadedPdfTest, ComposesThePagesInOrderCoveringTagsAndDroppingMappedWidgets) {
  auto composed = Compose();
  ASSERT_TRUE(composed) << composed.error().message;
  PdfFile file(*composed);
  const auto check = file.Check();
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_TRUE(Contains(check.out, "No syntax or stream encoding errors")) << check.out;
  ASSERT_EQ(file.PageCount(), 3);
  EXPECT_EQ(*Compose(), *composed);  // deterministic

  // Each page as displayed: 400 x 500, turned 500 x 400, cropped 400 x 500.
  const PageImage first(file.path(), 1), turned(file.path(), 2), cropped(file.path(), 3);
  EXPECT_EQ(first.width(), 400);
  EXPECT_EQ(first.height(), 500);
  EXPECT_EQ(turned.width(), 500);
  EXPECT_EQ(turned.height(), 400);
  EXPECT_EQ(cropped.width(), 400);
  EXPECT_EQ(cropped.height(), 500);

  // The tag showed in the upload and is white in the composition; the page's own square stays.
  const PdfFile tagged(tagged_);
  const PageImage uploaded(tagged.path(), 1);
  EXPECT_GT(uploaded.InkInside(upload_test::TagBox()), 20);
  EXPECT_EQ(first.InkInside(upload_test::TagBox()), 0);
  EXPECT_GT(first.InkInside({.page = 1, .x = 20, .y = 450, .width = 30, .height = 30}), 800);
  // The turned page's square (user space 300,50) shows at 50,300 as displayed.
  EXPECT_GT(turned.InkInside({.page = 2, .x = 50, .y = 300, .width = 40, .height = 40}), 1500);

  // The mapped field's widget showed in the upload and is gone; the crop box shifts the square.
  const PdfFile form(form_);
  EXPECT_GT(PageImage(form.path(), 1).InkInside(upload_test::WidgetBox()), 2500);
  EXPECT_EQ(cropped.InkInside(upload_test::WidgetBox()), 0);
  EXPECT_GT(cropped.InkInside({.page = 3, .x = 20, .y = 430, .width = 50, .height = 50}), 2400);

  // Each page's own content streams are kept byte for byte, between a "q" and a "Q".
  const auto pages = ContentStreams(*composed);
  const auto originals = std::vector<std::vector<std::string>>{
      ContentStreams(tagged_)[0], ContentStreams(tagged_)[1], ContentStreams(form_)[0]};
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(pages[i].size(), originals[i].size() + 2) << i;
    EXPECT_EQ(pages[i].front(), "q\n");
    EXPECT_EQ(pages[i][1], originals[i][0]) << i;
    EXPECT_TRUE(pages[i].back().starts_with("Q\n")) << i;
  }
}

TEST_F(UploadedPdfTest, StampsEachFieldInItsBoxAndNowhereElse) {
  auto composed = Compose();
  ASSERT_TRUE(composed) << composed.error().message;
  const std::vector<FieldStamp> stamps = Stamps();
  auto stamped = StampFields(*composed, stamps, Signatures());
  ASSERT_TRUE(stamped) << stamped.error().message;
  EXPECT_EQ(*StampFields(*composed, stamps, Signatures()), *stamped);  // deterministic

  PdfFile before(*composed), after(*stamped);
  const auto check = after.Check();
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_TRUE(Contains(check.out, "No syntax or stream encoding errors")) << check.out;
  ASSERT_EQ(after.PageCount(), 3);
  const std::string text = after.Text();
  for (const char* value :
       {"Ana de Souza", "AS", "2026-11-21", "ana@example.com", "Net 30 days", "Signed by"}) {
    EXPECT_TRUE(Contains(text, value)) << value << "\n" << text;
  }

  for (int page = 1; page <= 3; ++page) {
    const PageImage was(before.path(), page), is(after.path(), page);
    ASSERT_EQ(was.width(), is.width());
    ASSERT_EQ(was.height(), is.height());
    std::vector<PageRect> boxes;
    for (const FieldStamp& stamp : stamps) {
      if (stamp.box.page != page) continue;
      boxes.push_back(stamp.box);
      EXPECT_GT(is.InkInside(stamp.box), 10)
          << "page " << page << " field at " << stamp.box.x << "," << stamp.box.y;
    }
    ASSERT_FALSE(boxes.empty());
    int stray = 0;
    for (int y = 0; y < is.height(); ++y) {
      for (int x = 0; x < is.width(); ++x) {
        const bool in_a_box = std::any_of(boxes.begin(), boxes.end(),
                                          [&](const PageRect& b) { return Near(b, x, y); });
        if (!in_a_box && is.Differs(was, x, y)) ++stray;
      }
    }
    EXPECT_EQ(stray, 0) << "page " << page;
  }
  // The tag stays covered under the stamps.
  EXPECT_EQ(PageImage(after.path(), 1).InkInside(upload_test::TagBox()), 0);

  // Every stamped page: its streams as composed, and one more.
  const auto was = ContentStreams(*composed);
  const auto is = ContentStreams(*stamped);
  ASSERT_EQ(was.size(), is.size());
  for (size_t i = 0; i < was.size(); ++i) {
    ASSERT_EQ(is[i].size(), was[i].size() + 1) << i;
    EXPECT_TRUE(std::equal(was[i].begin(), was[i].end(), is[i].begin())) << i;
  }
}

TEST_F(UploadedPdfTest, RefusesWhatItCannotCompose) {
  std::vector<ContractDocument> documents = Documents();
  const auto compose = [&](std::string_view first) {
    const std::vector<UploadedPdf> inputs = {{&documents[0], first}, {&documents[1], form_}};
    return ComposeUploadedPdf(inputs);
  };
  for (const std::string_view bytes : {std::string_view("not a pdf"), std::string_view()}) {
    auto composed = compose(bytes);
    ASSERT_FALSE(composed);
    EXPECT_EQ(composed.error().code, ErrorCode::kValidationFailed);
  }
  documents[0].pages.pop_back();  // a page count the blob does not have
  auto miscounted = compose(tagged_);
  ASSERT_FALSE(miscounted);
  EXPECT_EQ(miscounted.error().code, ErrorCode::kValidationFailed);
  EXPECT_TRUE(Contains(miscounted.error().message, "2 pages")) << miscounted.error().message;
  documents = Documents();
  documents[0].covers.push_back({.page = 3, .x = 1, .y = 1, .width = 1, .height = 1});
  auto cover = compose(tagged_);
  ASSERT_FALSE(cover);
  EXPECT_EQ(cover.error().code, ErrorCode::kValidationFailed);
  auto none = ComposeUploadedPdf({});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::kValidationFailed);
}

TEST_F(UploadedPdfTest, RefusesWhatItCannotStamp) {
  auto composed = Compose();
  ASSERT_TRUE(composed) << composed.error().message;
  const auto refused = [&](std::vector<FieldStamp> stamps,
                           std::vector<SignatureAppearance> signatures, std::string_view pdf) {
    auto stamped = StampFields(pdf, stamps, signatures);
    return !stamped && stamped.error().code == ErrorCode::kValidationFailed;
  };
  auto stamps = Stamps();
  stamps[0].box.page = 4;
  EXPECT_TRUE(refused(stamps, Signatures(), *composed));
  stamps[0].box.page = 0;
  EXPECT_TRUE(refused(stamps, Signatures(), *composed));
  stamps = Stamps();
  stamps[1].box.width = 0;
  EXPECT_TRUE(refused(stamps, Signatures(), *composed));
  stamps = Stamps();
  stamps[2].box.x = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(refused(stamps, Signatures(), *composed));
  stamps = Stamps();
  stamps[3].box.height = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(refused(stamps, Signatures(), *composed));
  EXPECT_TRUE(refused(Stamps(), {}, *composed));  // a signature with no appearance
  auto bad_image = Signatures();
  bad_image[0].image_png = "not a png";
  EXPECT_TRUE(refused(Stamps(), bad_image, *composed));
  EXPECT_TRUE(refused(Stamps(), Signatures(), "not a pdf"));
  // Nothing to stamp: the PDF as it was.
  EXPECT_EQ(StampFields(*composed, {}, {}).value(), *composed);
}

TEST_F(UploadedPdfTest, AHugeTextIsCutBeforeLayoutNotRefused) {
  auto composed = Compose();
  ASSERT_TRUE(composed) << composed.error().message;
  std::string huge = "x";
  for (int i = 0; i < 200'000; ++i) huge += "\u00e9";  // two bytes each, cut off an odd offset
  const FieldStamp stamp{.type = PlacedFieldType::kText,
                         .box = {.page = 3, .x = 150, .y = 400, .width = 200, .height = 20},
                         .text = huge};
  auto stamped = StampFields(*composed, {&stamp, 1}, {});
  ASSERT_TRUE(stamped) << stamped.error().message;
  PdfFile file(*stamped);
  EXPECT_EQ(file.Check().exit_code, 0);
  const std::string text = file.PageTexts()[2];
  // At most the first 1000 bytes, and never half a character.
  EXPECT_TRUE(Contains(text, "x")) << text;
  EXPECT_GT(pdf_test::Count(text, "\u00e9"), 100u);
  EXPECT_LT(pdf_test::Count(text, "\u00e9"), 500u);
  EXPECT_FALSE(Contains(text, "\ufffd"));
}

// A black page 600 x 700 cropped to [100 150 500 650] and turned by each rotation: the cover
// is white exactly where it was placed and the stamp lands inside it, as the page is displayed.
TEST(UploadedPdfFrameTest, CoversAndStampsLandInTheDisplayedFrameForEveryRotation) {
  const PageRect cover{.page = 1, .x = 100, .y = 60, .width = 200, .height = 60};
  const PageRect box{.page = 1, .x = 110, .y = 70, .width = 150, .height = 40};
  for (const int rotate : {0, 90, 180, 270}) {
    SCOPED_TRACE("/Rotate " + std::to_string(rotate));
    const std::string upload = WritePdf({
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 700] /CropBox [100 150 500 650] "
        "/Rotate " +
            std::to_string(rotate) + " /Contents 4 0 R >>",
        "STREAM:0 g 0 0 600 700 re f",
    });
    ContractDocument document = upload_test::Document(
        "doc_turned", "Turned.pdf", upload,
        {rotate % 180 == 0 ? DocumentPage{400, 500} : DocumentPage{500, 400}});
    document.covers = {cover};
    const std::vector<UploadedPdf> inputs = {{&document, upload}};
    auto composed = ComposeUploadedPdf(inputs);
    ASSERT_TRUE(composed) << composed.error().message;
    const FieldStamp stamp{.type = PlacedFieldType::kText, .box = box, .text = "Corner"};
    auto stamped = StampFields(*composed, {&stamp, 1}, {});
    ASSERT_TRUE(stamped) << stamped.error().message;

    PdfFile before(*composed), after(*stamped);
    const PageImage was(before.path(), 1), is(after.path(), 1);
    EXPECT_EQ(was.width(), rotate % 180 == 0 ? 400 : 500);
    int white_outside = 0, changed_outside = 0;
    for (int y = 0; y < was.height(); ++y) {
      for (int x = 0; x < was.width(); ++x) {
        if (!Near(cover, x, y, 1) && was.Gray(x, y) > 128) ++white_outside;
        if (!Near(box, x, y) && is.Differs(was, x, y)) ++changed_outside;
      }
    }
    EXPECT_EQ(was.InkInside(cover), 0);
    EXPECT_EQ(white_outside, 0);
    EXPECT_GT(is.InkInside(box), 20);
    EXPECT_EQ(changed_outside, 0);
  }
}

TEST(FieldTextTest, InitialsAndSigningDate) {
  EXPECT_EQ(Initials("Ana de Souza"), "AS");
  EXPECT_EQ(Initials("  zoë   ñúñez "), "ZÑ");
  EXPECT_EQ(Initials("Madonna"), "M");
  EXPECT_EQ(Initials("王小明"), "王");
  EXPECT_EQ(Initials(""), "");
  EXPECT_EQ(Initials("\xff\xfe bad"), "B");
  EXPECT_EQ(SigningDate("2026-11-21T10:04:33Z"), "2026-11-21");
  EXPECT_EQ(SigningDate("yesterday"), "yesterday");
}

}  // namespace
}  // namespace esign::documents
