// A signer's attached files: what each media type accepts and refuses, and their embedding in a
// PDF as an incremental update that QPDF reads back, the PDF before left as its prefix.
#include "documents/attachment_check.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "base/base64.h"
#include "documents/pdf_embedded_files.h"
#include "documents/qpdf_reader.h"
#include "tests/documents/pdf_test_support.h"

namespace esign::documents {
namespace {

std::string Png() {
  return *Base64Decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJg"
      "gg==");
}

std::string Jpeg(std::string frame = std::string("\x00\x01\x00\x01", 4)) {
  return std::string("\xFF\xD8\xFF\xC0\x00\x11\x08", 7) + frame +
         std::string(
             "\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01\xFF\xDA\x00\x0C\x03\x01\x00\x02"
             "\x11\x03\x11\x00\x3F\x00\x00\xFF\xD9",
             27);
}

ErrorCode Refusal(const std::string& bytes, std::string_view type) {
  auto checked = CheckAttachment(bytes, type);
  return checked ? ErrorCode::kInternal : checked.error().code;
}

TEST(AttachmentCheckTest, EachTypeTakesOnlyWhatItSays) {
  auto png = CheckAttachment(Png(), "image/PNG; charset=x");
  ASSERT_TRUE(png.has_value()) << png.error().message;
  EXPECT_EQ(png->media_type, "image/png");
  EXPECT_EQ(png->bytes, Png());
  ASSERT_TRUE(CheckAttachment(Jpeg(), "image/jpeg").has_value());
  auto pdf = CheckAttachment(DocumentFixture("acroform_with_actions.pdf"), "application/pdf");
  ASSERT_TRUE(pdf.has_value());
  EXPECT_EQ(pdf->bytes.find("/JavaScript"), std::string::npos);  // cleaned as uploads are

  EXPECT_EQ(Refusal(Png(), "image/jpeg"), ErrorCode::kDocumentInvalid);
  EXPECT_EQ(Refusal(Jpeg(), "image/png"), ErrorCode::kDocumentInvalid);
  EXPECT_EQ(Refusal(Png(), "application/pdf"), ErrorCode::kDocumentInvalid);
  EXPECT_EQ(Refusal(Png().substr(0, 40), "image/png"), ErrorCode::kDocumentInvalid);
  EXPECT_EQ(Refusal(Jpeg().substr(0, Jpeg().size() - 2), "image/jpeg"),
            ErrorCode::kDocumentInvalid);
  // 65535 x 65535 pixels: refused from the frame header, before anything is decoded.
  EXPECT_EQ(Refusal(Jpeg(std::string("\xFF\xFF\xFF\xFF", 4)), "image/jpeg"),
            ErrorCode::kDocumentInvalid);
  EXPECT_EQ(Refusal("", "image/png"), ErrorCode::kDocumentInvalid);
  EXPECT_EQ(Refusal("hello", "text/plain"), ErrorCode::kUnsupportedMediaType);
  EXPECT_EQ(Refusal(std::string((10 << 20) + 1, 'x'), "image/png"), ErrorCode::kDocumentTooLarge);
}

TEST(PdfEmbeddedFilesTest, FilesAreAddedAfterThePdfAndReadBackByQpdf) {
  const std::string pdf = DocumentFixture("two_pages_tagged_cairo.pdf");
  EXPECT_EQ(*EmbedFiles(pdf, {}), pdf);
  auto embedded =
      EmbedFiles(pdf, {{"fld_2", "Zoë's scan.png", "Attached by Ada", "image/png", Png()},
                       {"fld_1", "order.pdf", "", "application/pdf", "%PDF-1.7"}});
  ASSERT_TRUE(embedded.has_value()) << embedded.error().message;
  EXPECT_TRUE(embedded->starts_with(pdf));
  QpdfReader reader;
  ASSERT_TRUE(reader.Read(*embedded)) << reader.ErrorText();
  qpdf_data q = reader.get();
  const qpdf_oh root = qpdf_oh_get_key(q, qpdf_get_trailer(q), "/Root");
  const qpdf_oh names = qpdf_oh_get_key(
      q, qpdf_oh_get_key(q, qpdf_oh_get_key(q, root, "/Names"), "/EmbeddedFiles"), "/Names");
  ASSERT_EQ(qpdf_oh_get_array_n_items(q, names), 4);
  // Keys in order, the name tree's rule; each names its file specification.
  EXPECT_EQ(std::string(qpdf_oh_get_utf8_value(q, qpdf_oh_get_array_item(q, names, 0))), "fld_1");
  const qpdf_oh spec = qpdf_oh_get_array_item(q, names, 3);
  EXPECT_EQ(std::string(qpdf_oh_get_utf8_value(q, qpdf_oh_get_key(q, spec, "/UF"))),
            "Zoë's scan.png");
  const qpdf_oh stream = qpdf_oh_get_key(q, qpdf_oh_get_key(q, spec, "/EF"), "/F");
  unsigned char* data = nullptr;
  size_t length = 0;
  qpdf_oh_get_stream_data(q, stream, qpdf_dl_all, nullptr, &data, &length);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(data), length), Png());
  std::free(data);
  EXPECT_FALSE(reader.Failed()) << reader.ErrorText();
  // The page tree is untouched.
  EXPECT_EQ(qpdf_get_num_pages(q), 2);
}

}  // namespace
}  // namespace esign::documents
