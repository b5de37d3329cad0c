// The hosted page's document pages end to end, over loopback from a real contractd: the pages
// route counts the frozen PDF's pages as pdfinfo does and gives the signer's signature boxes, a
// page comes back as a PNG of the asked width with immutable cache headers and an ETag, and bad
// page numbers, bad widths, dead links and a missing signer proof get their documented errors
// without writing anything.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "tests/app/api_suite.h"
#include "tests/support/pdf_words.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";

uint32_t BigEndian32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

class DocumentPagesTest : public ApiSuite {
 protected:
  // pdfinfo's page count of the PDF the signer is given.
  int PdfinfoPages(const std::string& pdf) {
    const std::string path = (data_dir_ / "pages-test.pdf").string();
    std::ofstream(path, std::ios::binary) << pdf;
    const ShellResult info = RunShell("pdfinfo " + path + " | sed -n 's/^Pages: *//p'");
    EXPECT_EQ(info.exit_code, 0);
    return info.out.empty() ? -1 : std::stoi(info.out);
  }
};

TEST_F(DocumentPagesTest, ThePagesRouteCountsThePagesAndMarksTheSignersBoxes) {
  const Hosted hosted = SentWithSession("Pages");
  auto pdf = client_.Get(hosted.base + "/document");
  ASSERT_EQ(pdf.status, 200) << pdf.body;
  auto pages = client_.Get(hosted.base + "/document/pages");
  ASSERT_EQ(pages.status, 200) << pages.body;
  EXPECT_EQ(pages.Header("cache-control"), "no-store");
  const auto& body = pages.Json().as_object();
  const int64_t count = body.at("pageCount").as_int64();
  EXPECT_EQ(count, PdfinfoPages(pdf.body));
  EXPECT_EQ(body.at("documentSha256").as_string(),
            client_.Get(hosted.base).Json().at("documentSha256").as_string());
  EXPECT_EQ(boost::json::serialize(body.at("widths")), "[400,800,1200,1600]");
  ASSERT_EQ(body.at("pages").as_array().size(), static_cast<size_t>(count));
  for (const auto& page : body.at("pages").as_array()) {  // A4 in points
    EXPECT_NEAR(page.at("width").to_number<double>(), 595.28, 0.5);
    EXPECT_NEAR(page.at("height").to_number<double>(), 841.89, 0.5);
  }
  // Ada's role of the NDA template has signature places; Grace's are not hers to see marked.
  const auto& boxes = body.at("signatureBoxes").as_array();
  ASSERT_FALSE(boxes.empty()) << pages.body;
  // A template's contract has no placed fields: its answer is as it always was.
  EXPECT_TRUE(body.at("fields").as_array().empty()) << pages.body;
  for (const auto& box : boxes) {
    const int64_t page = box.at("page").as_int64();
    EXPECT_GE(page, 1);
    EXPECT_LE(page, count);
    const double left = box.at("left").to_number<double>();
    const double top = box.at("top").to_number<double>();
    const double width = box.at("width").to_number<double>();
    const double height = box.at("height").to_number<double>();
    EXPECT_GT(width, 0);
    EXPECT_GT(height, 0);
    EXPECT_GE(left, 0);
    EXPECT_GE(top, 0);
    EXPECT_LE(left + width, 1.0);
    EXPECT_LE(top + height, 1.0);
  }
}

// Sending moved the template's boxes to just below the last paragraph; what contract.prepared
// recorded (the boxes the page marks) is where the frozen PDF drew them: its label inside, the
// text just above.
TEST_F(DocumentPagesTest, TheMarkedBoxIsWhereTheFrozenPdfDrewItJustBelowTheText) {
  const Hosted hosted = SentWithSession("Boxes");
  auto pdf = client_.Get(hosted.base + "/document");
  ASSERT_EQ(pdf.status, 200) << pdf.body;
  const std::string path = (data_dir_ / "boxes-test.pdf").string();
  std::ofstream(path, std::ios::binary) << pdf.body;
  const std::vector<PdfWord> words = PdfWords(path);
  auto pages = client_.Get(hosted.base + "/document/pages");
  ASSERT_EQ(pages.status, 200) << pages.body;
  const auto& boxes = pages.Json().at("signatureBoxes").as_array();
  ASSERT_FALSE(boxes.empty()) << pages.body;
  for (const auto& marked : boxes) {
    const int64_t page = marked.at("page").as_int64();
    const auto& size = pages.Json().at("pages").as_array().at(page - 1);
    const double page_width = size.at("width").to_number<double>();
    const double page_height = size.at("height").to_number<double>();
    const double left = marked.at("left").to_number<double>() * page_width;
    const double top = marked.at("top").to_number<double>() * page_height;
    const double right = left + marked.at("width").to_number<double>() * page_width;
    const double bottom = top + marked.at("height").to_number<double>() * page_height;
    size_t inside = 0;
    double text_foot = 0;
    for (const PdfWord& word : words) {
      if (word.page != page) continue;
      if (word.x_min >= left - 0.5 && word.x_max <= right + 0.5 && word.y_min >= top - 0.5 &&
          word.y_max <= bottom + 0.5) {
        ++inside;
      } else if (word.y_max <= top + 0.5) {
        text_foot = std::max(text_foot, word.y_max);
      }
    }
    EXPECT_GE(inside, 2u) << "the box's label";
    EXPECT_GT(text_foot, 0) << "a page of signatures alone";
    EXPECT_LT(top - text_foot, 30) << "box at " << top << ", text ends at " << text_foot;
  }
}

TEST_F(DocumentPagesTest, APageIsAPngOfTheAskedWidthWithImmutableCacheHeaders) {
  const Hosted hosted = SentWithSession("Page image");
  const auto start = std::chrono::steady_clock::now();
  auto first = client_.Get(hosted.base + "/document/pages/1");
  const auto drawn = std::chrono::steady_clock::now();
  auto second = client_.Get(hosted.base + "/document/pages/1");
  const auto cached = std::chrono::steady_clock::now();
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.Header("content-type"), "image/png");
  ASSERT_GE(first.body.size(), 24U);
  EXPECT_EQ(first.body.substr(0, 8), kPngSignature);
  EXPECT_EQ(BigEndian32(first.body, 16), 800U) << "the default width";
  EXPECT_EQ(BigEndian32(first.body, 20), 1131U) << "A4's aspect";
  EXPECT_EQ(first.Header("cache-control"), "private, max-age=31536000, immutable");
  EXPECT_EQ(first.Header("x-content-type-options"), "nosniff");
  const std::string sha256(client_.Get(hosted.base).Json().at("documentSha256").as_string());
  const std::string etag = first.Header("etag");
  EXPECT_EQ(etag, "\"" + sha256 + "-p1-w800\"");
  ASSERT_EQ(second.status, 200);
  EXPECT_EQ(second.body, first.body);
  std::printf("page 1 at 800 px over HTTP: %zu bytes, first %.1f ms, cached %.1f ms\n",
              first.body.size(), std::chrono::duration<double, std::milli>(drawn - start).count(),
              std::chrono::duration<double, std::milli>(cached - drawn).count());

  auto revalidated = client_.Get(hosted.base + "/document/pages/1", {{"If-None-Match", etag}});
  EXPECT_EQ(revalidated.status, 304);
  EXPECT_TRUE(revalidated.body.empty());
  EXPECT_EQ(revalidated.Header("etag"), etag);

  for (int width : {400, 1200, 1600}) {
    auto sized = client_.Get(hosted.base + "/document/pages/1?width=" + std::to_string(width));
    ASSERT_EQ(sized.status, 200) << sized.body;
    EXPECT_EQ(BigEndian32(sized.body, 16), static_cast<uint32_t>(width));
    EXPECT_NE(sized.Header("etag"), etag);
  }
}

TEST_F(DocumentPagesTest, BadPageNumbersAndWidthsGetTheDocumentedErrors) {
  const Hosted hosted = SentWithSession("Bad pages");
  auto pages = client_.Get(hosted.base + "/document/pages");
  ASSERT_EQ(pages.status, 200) << pages.body;
  const int64_t count = pages.Json().at("pageCount").as_int64();
  const uint64_t before = LogSize();
  const std::string base = hosted.base + "/document/pages/";
  for (const std::string page : {"abc", "-1", "1.5", "1e3", "%2B1", "0x1", "%20"}) {
    ExpectRefused(client_.Get(base + page), 400, "VALIDATION_FAILED", before, "page");
  }
  for (const std::string& page :
       {std::string("0"), std::to_string(count + 1), std::string("2147483648"),
        std::string("99999999999999999999999999")}) {
    ExpectRefused(client_.Get(base + page), 404, "NOT_FOUND", before, "page");
  }
  for (const std::string width : {"500", "0", "-800", "abc", "800px", "16000", ""}) {
    ExpectRefused(client_.Get(base + "1?width=" + width), 400, "VALIDATION_FAILED", before,
                  "width");
  }
}

TEST_F(DocumentPagesTest, DeadLinksAndMissingProofsSeeNoPage) {
  const uint64_t before_unknown = LogSize();
  const std::string forged = "/api/v1/hosted-signing/" + std::string(43, 'A');
  ExpectRefused(client_.Get(forged + "/document/pages"), 404, "SIGNING_SESSION_NOT_FOUND",
                before_unknown);
  ExpectRefused(client_.Get(forged + "/document/pages/1"), 404, "SIGNING_SESSION_NOT_FOUND",
                before_unknown);

  // A cancelled link is gone for its pages as for its PDF.
  const Hosted cancelled = SentWithSession("Cancelled pages");
  auto cancel =
      client_.Post("/api/v1/signing-sessions/" + cancelled.session_id + "/cancel", "", As("a"));
  ASSERT_EQ(cancel.status, 200) << cancel.body;
  const uint64_t before_cancelled = LogSize();
  ExpectRefused(client_.Get(cancelled.base + "/document/pages"), 410, "SIGNING_SESSION_CANCELLED",
                before_cancelled);
  ExpectRefused(client_.Get(cancelled.base + "/document/pages/1"), 410, "SIGNING_SESSION_CANCELLED",
                before_cancelled);

  // A signer who must give an access code sees no page before proving it.
  const std::string code = "Lovelace-1815-Analytical";
  const Hosted guarded = SentWithSession(
      "Guarded pages", R"(,"authentication":"access_code","accessCode":")" + code + "\"");
  const uint64_t before = LogSize();
  for (const std::string path : {"/document/pages", "/document/pages/1", "/document/pages/abc"}) {
    ExpectRefused(client_.Get(guarded.base + path), 401, "SIGNER_AUTHENTICATION_REQUIRED", before);
    ExpectRefused(client_.Get(guarded.base + path, {{"Signer-Proof", "1.forged"}}), 401,
                  "SIGNER_AUTHENTICATION_REQUIRED", before);
  }
  auto proven = client_.Post(guarded.base + "/authentication",
                             boost::json::serialize(object{{"code", code}}));
  ASSERT_EQ(proven.status, 200) << proven.body;
  const std::string proof(proven.Json().at("signerProof").as_string());
  auto pages = client_.Get(guarded.base + "/document/pages", {{"Signer-Proof", proof}});
  EXPECT_EQ(pages.status, 200) << pages.body;
  auto image = client_.Get(guarded.base + "/document/pages/1", {{"Signer-Proof", proof}});
  ASSERT_EQ(image.status, 200) << image.body;
  EXPECT_EQ(image.body.substr(0, 8), kPngSignature);
}

}  // namespace
}  // namespace esign::testing
