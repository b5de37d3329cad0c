// Uploads over HTTP against a real contractd (DESIGN section 20): a PDF as the body or as a
// multipart form's file, what the answer says was found and removed, the organization's alone,
// every refusal with its documented code and nothing stored, the hourly limit, and contracts made
// from uploads with fields placed by coordinates, text tags and form fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/base64.h"
#include "base/sha256.h"
#include "tests/app/api_suite.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

constexpr uint64_t kDocumentLimit = 65536;
constexpr int kUploadsPerHour = 12;

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(SOURCE_DIR) + "/tests/fixtures/documents/" + name, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

const std::map<std::string, std::string> kPdf{{"Content-Type", "application/pdf"}};

std::string Shell(const std::string& command) { return RunShell(command + " 2>&1").out; }

// Page `page` of the PDF drawn at 72 dpi in grey (so a pixel is a point), as rows of bytes.
struct Greymap {
  int width = 0;
  int height = 0;
  std::string pixels;
  // Pixels darker than mid-grey inside the box (points from the page's top-left corner).
  int InkIn(double x, double y, double w, double h) const {
    int ink = 0;
    for (int row = static_cast<int>(y); row < static_cast<int>(y + h) && row < height; ++row) {
      for (int col = static_cast<int>(x); col < static_cast<int>(x + w) && col < width; ++col) {
        ink += static_cast<unsigned char>(pixels[static_cast<size_t>(row * width + col)]) < 128;
      }
    }
    return ink;
  }
};

Greymap DrawPage(const std::string& pdf_path, int page) {
  const std::string out = pdf_path + "-page";
  Shell("pdftoppm -r 72 -gray -f " + std::to_string(page) + " -l " + std::to_string(page) +
        " -singlefile " + pdf_path + " " + out);
  std::ifstream in(out + ".pgm", std::ios::binary);
  std::string magic;
  int max = 0;
  Greymap map;
  in >> magic >> map.width >> map.height >> max;
  in.get();
  map.pixels.assign(std::istreambuf_iterator<char>(in), {});
  EXPECT_EQ(magic, "P5");
  EXPECT_EQ(map.pixels.size(), static_cast<size_t>(map.width * map.height));
  return map;
}

std::string Multipart(const std::string& boundary, const std::string& file_name,
                      const std::string& bytes, const std::string& name = "") {
  std::string body = "--" + boundary +
                     "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + file_name +
                     "\"\r\nContent-Type: application/pdf\r\n\r\n" + bytes + "\r\n";
  if (!name.empty()) {
    body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n" + name +
            "\r\n";
  }
  return body + "--" + boundary + "--\r\n";
}

// The members "participants" of a contract from uploads: Ada signs on the hosted page, Grace
// through `grace_channel`.
// What Grace's integrator reports when she signs with `values` (a JSON array of {field, value}).
std::string GraceSigned(const std::string& values) {
  return R"({"signerName":"Grace Hopper","signedAt":")" + SignedAtNow() +
         R"(","ipAddress":"198.51.100.4","userAgent":"IntegratorApp/2.1",
"authenticationMethod":"sso","consent":true,"fieldValues":)" +
         values + "}";
}

std::string Participants(const std::string& grace_channel) {
  return R"("participants":[
 {"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
  "name":"Ada Lovelace","email":"ada@acme.example"},
 {"action":"sign","recipientType":"individual","executionChannel":")" +
         grace_channel + R"(",
  "name":"Grace Hopper","email":"grace@globex.example"}])";
}

class DocumentsApiTest : public ApiSuite {
 protected:
  static void SetUpTestSuite() {
    serve_flags_ = {"--document-limit", std::to_string(kDocumentLimit),
                    "--document-uploads-per-hour", std::to_string(kUploadsPerHour)};
    ApiSuite::SetUpTestSuite();
    serve_flags_.clear();
  }

  HttpResult Upload(const std::string& who, const std::string& bytes,
                    const std::string& target = "/api/v1/documents") {
    auto headers = As(who, kPdf);
    return client_.Post(target, bytes, headers);
  }

  std::string UploadId(const std::string& fixture, const std::string& who = "a") {
    auto uploaded = Upload(who, Fixture(fixture));
    EXPECT_EQ(uploaded.status, 201) << uploaded.body;
    return uploaded.status == 201 ? std::string(uploaded.Json().at("documentId").as_string()) : "";
  }
};

TEST_F(DocumentsApiTest, APdfBodyIsUploadedAndShownToItsOrganizationAlone) {
  const std::string bytes = Fixture("two_pages_tagged_cairo.pdf");
  auto uploaded = Upload("a", bytes, "/api/v1/documents?name=nda.pdf");
  ASSERT_EQ(uploaded.status, 201) << uploaded.body;
  const object document = uploaded.Json().as_object();
  const std::string id(document.at("documentId").as_string());
  EXPECT_EQ(uploaded.Header("location"), "/api/v1/documents/" + id);
  EXPECT_EQ(document.at("name").as_string(), "nda.pdf");
  EXPECT_EQ(document.at("sha256").as_string(), Sha256Hex(bytes));
  EXPECT_EQ(document.at("size").as_int64(), static_cast<int64_t>(bytes.size()));
  ASSERT_EQ(document.at("pages").as_array().size(), 2u);
  EXPECT_NEAR(document.at("pages").as_array()[0].at("width").to_number<double>(), 595, 0.01);
  ASSERT_EQ(document.at("textTags").as_array().size(), 2u);
  EXPECT_EQ(document.at("textTags").as_array()[0].at("type").as_string(), "signature");
  EXPECT_EQ(document.at("textTags").as_array()[1].at("signer").as_int64(), 2);

  auto shown = client_.Get("/api/v1/documents/" + id, As("a"));
  ASSERT_EQ(shown.status, 200) << shown.body;
  EXPECT_EQ(shown.Json(), uploaded.Json());
  auto content = client_.Get("/api/v1/documents/" + id + "/content", As("a"));
  ASSERT_EQ(content.status, 200);
  EXPECT_EQ(content.Header("content-type"), "application/pdf");
  EXPECT_EQ(Sha256Hex(content.body), document.at("cleanedSha256").as_string());
  EXPECT_EQ(content.body.substr(0, 5), "%PDF-");

  for (const std::string& path :
       {"/api/v1/documents/" + id, "/api/v1/documents/" + id + "/content"}) {
    auto theirs = client_.Get(path, As("b"));
    EXPECT_EQ(theirs.status, 404) << theirs.body;
    EXPECT_EQ(theirs.ErrorCode(), "DOCUMENT_NOT_FOUND");
  }
  auto unknown = client_.Get("/api/v1/documents/doc_nothing", As("a"));
  EXPECT_EQ(unknown.ErrorCode(), "DOCUMENT_NOT_FOUND");
}

TEST_F(DocumentsApiTest, AMultipartFormIsUploadedCleanedOfActiveContent) {
  auto uploaded = client_.Post(
      "/api/v1/documents",
      Multipart("XyZ-boundary-1", "form.pdf", Fixture("acroform_with_actions.pdf"), "Order form"),
      As("a", {{"Content-Type", "multipart/form-data; boundary=XyZ-boundary-1"}}));
  ASSERT_EQ(uploaded.status, 201) << uploaded.body;
  const object document = uploaded.Json().as_object();
  EXPECT_EQ(document.at("name").as_string(), "Order form");
  std::vector<std::string> removed;
  for (const auto& kind : document.at("removed").as_array()) {
    removed.emplace_back(kind.as_string());
  }
  EXPECT_NE(std::find(removed.begin(), removed.end(), "javascript"), removed.end())
      << uploaded.body;
  EXPECT_NE(std::find(removed.begin(), removed.end(), "launch_action"), removed.end())
      << uploaded.body;
  EXPECT_EQ(document.at("formFields").as_array().size(), 3u) << uploaded.body;
  auto content = client_.Get(
      "/api/v1/documents/" + std::string(document.at("documentId").as_string()) + "/content",
      As("a"));
  EXPECT_EQ(content.body.find("/JavaScript"), std::string::npos);
  EXPECT_EQ(content.body.find("/Launch"), std::string::npos);
}

TEST_F(DocumentsApiTest, EveryRefusedUploadSaysWhyAndStoresNothing) {
  const uint64_t before = LogSize();
  ExpectRefused(Upload("a", "%PDF-1.7\nnot a document at all"), 400, "DOCUMENT_INVALID", before);
  ExpectRefused(Upload("a", "just text"), 400, "DOCUMENT_INVALID", before);
  ExpectRefused(Upload("a", ""), 400, "DOCUMENT_INVALID", before);
  const std::string truncated = Fixture("two_pages_tagged_cairo.pdf").substr(0, 2000);
  ExpectRefused(Upload("a", truncated), 400, "DOCUMENT_INVALID", before);

  // Encrypted by qpdf itself, with an empty user password.
  const auto dir = std::filesystem::temp_directory_path() / ("enc-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "plain.pdf", std::ios::binary);
    out << Fixture("tagged_handwritten.pdf");
  }
  auto encrypted = RunProgram("/usr/bin/qpdf",
                              {"--encrypt", "", "owner-secret", "256", "--",
                               (dir / "plain.pdf").string(), (dir / "encrypted.pdf").string()},
                              std::chrono::seconds(30));
  ASSERT_EQ(encrypted.exit_code, 0) << encrypted.err;
  std::ifstream in(dir / "encrypted.pdf", std::ios::binary);
  std::stringstream encrypted_bytes;
  encrypted_bytes << in.rdbuf();
  std::filesystem::remove_all(dir);
  ExpectRefused(Upload("a", encrypted_bytes.str()), 400, "DOCUMENT_ENCRYPTED", before);

  // Over the limit: refused by the upload check, and before its body is read.
  std::string large = Fixture("tagged_handwritten.pdf");
  large += "%" + std::string(kDocumentLimit, 'x') + "\n";
  ExpectRefused(Upload("a", large), 413, "DOCUMENT_TOO_LARGE", before);
  ExpectRefused(Upload("a", std::string(kDocumentLimit + (128 << 10), 'x')), 413,
                "DOCUMENT_TOO_LARGE", before);

  ExpectRefused(client_.Post("/api/v1/documents", R"({"file":"x"})", As("a")), 415,
                "UNSUPPORTED_MEDIA_TYPE", before);
  ExpectRefused(client_.Post("/api/v1/documents",
                             "--b1\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\n"
                             "hello\r\n--b1--\r\n",
                             As("a", {{"Content-Type", "multipart/form-data; boundary=b1"}})),
                400, "VALIDATION_FAILED", before, "file");
  ExpectRefused(client_.Post("/api/v1/documents", "--b1\r\nno headers here",
                             As("a", {{"Content-Type", "multipart/form-data; boundary=b1"}})),
                400, "VALIDATION_FAILED", before, "body");
  ExpectRefused(Upload("a_read_only", Fixture("tagged_handwritten.pdf")), 403, "PERMISSION_DENIED",
                before);
  ExpectRefused(client_.Post("/api/v1/documents", Fixture("tagged_handwritten.pdf"), kPdf), 401,
                "UNAUTHENTICATED", before);
}

TEST_F(DocumentsApiTest, AnOrganizationUploadsAtMostItsHourlyNumber) {
  const std::string bytes = Fixture("tagged_handwritten.pdf");
  // A retry with the same Idempotency-Key answers the first upload and does not count.
  const auto keyed = As("d", {{"Content-Type", "application/pdf"}, {"Idempotency-Key", "u-1"}});
  auto first = client_.Post("/api/v1/documents", bytes, keyed);
  ASSERT_EQ(first.status, 201) << first.body;
  const uint64_t after_first = LogSize();
  for (int i = 0; i < 3; ++i) {
    auto again = client_.Post("/api/v1/documents", bytes, keyed);
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(again.Json().at("documentId"), first.Json().at("documentId"));
  }
  EXPECT_EQ(LogSize(), after_first);
  ExpectRefused(client_.Post("/api/v1/documents", bytes + "%\n", keyed), 409,
                "IDEMPOTENCY_KEY_REUSED", after_first);
  for (int i = 1; i < kUploadsPerHour; ++i) {
    auto uploaded = Upload("d", bytes);
    ASSERT_EQ(uploaded.status, 201) << i << ": " << uploaded.body;
  }
  const uint64_t before = LogSize();
  auto refused = Upload("d", bytes);
  ExpectRefused(refused, 429, "RATE_LIMITED", before);
  // The wait until one more upload fits in the hour: 3600 / 12 seconds, give or take the test's
  // own time.
  ASSERT_FALSE(refused.Header("retry-after").empty());
  EXPECT_GT(std::stoi(refused.Header("retry-after")), 200) << refused.body;
  // Another organization is not held back.
  EXPECT_EQ(Upload("c", bytes).status, 201);
}

TEST_F(DocumentsApiTest, AContractIsMadeFromUploadsWithFieldsPlacedThreeWays) {
  const std::string tagged = UploadId("two_pages_tagged_cairo.pdf");
  const std::string form = UploadId("acroform_with_actions.pdf");
  const std::string body = R"({"title":"Supply agreement",
"documents":[{"documentId":")" +
                           tagged + R"(","name":"Agreement"},{"documentId":")" + form +
                           R"("}],
)" + Participants("integrator_managed") +
                           R"(,
"fields":[{"type":"initials","participantIndex":0,"documentIndex":0,"page":2,
  "x":500,"y":770,"width":50,"height":30},
 {"type":"text","participantIndex":1,"documentIndex":1,"page":1,"x":350,"y":40,"width":200,
  "height":20,"value":"PO-1234"}],
"formFieldMapping":[{"documentIndex":1,"formField":"full_name","type":"name","participantIndex":1}]})";
  auto created = client_.Post("/api/v1/contracts", body, As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  EXPECT_TRUE(contract.at("templateId").is_null());
  const auto& fields = contract.at("fields").as_array();
  ASSERT_EQ(fields.size(), 5u) << created.body;
  EXPECT_EQ(fields[2].at("placement").as_string(), "textTag");
  EXPECT_EQ(fields[2].at("participantId"),
            contract.at("participants").as_array()[0].at("participantId"));
  EXPECT_EQ(fields[4].at("placement").as_string(), "formField");

  auto documents = client_.Get(
      "/api/v1/contracts/" + std::string(contract.at("id").as_string()) + "/documents", As("a"));
  ASSERT_EQ(documents.status, 200) << documents.body;
  const auto& items = documents.Json().at("items").as_array();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].at("name").as_string(), "Agreement");
  EXPECT_EQ(items[1].at("firstPage").as_int64(), 3);
  EXPECT_EQ(items[1].at("source").as_string(), "upload");

  // Another organization's upload is not there for it, and nothing is stored.
  const uint64_t before = LogSize();
  std::string theirs = body;
  auto refused = client_.Post("/api/v1/contracts", theirs, As("b"));
  ExpectRefused(refused, 404, "DOCUMENT_NOT_FOUND", before, "documents[0].documentId");
}

TEST_F(DocumentsApiTest, SignersSignAContractFromUploadsAndTheSealCoversEveryStampedPage) {
  const std::string tagged = UploadId("two_pages_tagged_cairo.pdf");
  const std::string form = UploadId("acroform_with_actions.pdf");
  // Ada signs where {{signature:1}} is written; Grace in a box on the form's page, and her
  // signing date goes where {{date_signed:2}} is; Ada's name fills the form's full_name.
  const std::string body = R"({"title":"Supply agreement","sendNow":true,
"documents":[{"documentId":")" +
                           tagged + R"("},{"documentId":")" + form + R"("}],
)" + Participants("integrator_managed") +
                           R"(,
"fields":[{"type":"signature","participantIndex":1,"documentIndex":1,"page":1,
  "x":330,"y":300,"width":220,"height":60}],
"formFieldMapping":[{"documentIndex":1,"formField":"full_name","type":"name","participantIndex":0}]})";
  auto created = client_.Post("/api/v1/contracts", body, As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  const std::string id(contract.at("id").as_string());
  EXPECT_EQ(contract.at("status").as_string(), "sent");

  // The frozen document: both uploads, tags covered, 3 pages.
  auto frozen = client_.Get("/api/v1/contracts/" + id + "/documents/rendered-unsigned", As("a"));
  ASSERT_EQ(frozen.status, 200) << frozen.body;
  const std::string frozen_path = (data_dir_ / (id + "-frozen.pdf")).string();
  std::ofstream(frozen_path, std::ios::binary) << frozen.body;
  const std::string frozen_text = Shell("pdftotext " + frozen_path + " -");
  EXPECT_NE(frozen_text.find("Annex: schedule of work"), std::string::npos) << frozen_text;
  const std::string info = Shell("pdfinfo " + frozen_path);
  EXPECT_TRUE(std::regex_search(info, std::regex(R"(Pages:\s+3\n)"))) << info;

  SignSentNda(client_, As("a"), contract);

  auto signed_pdf = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  ASSERT_EQ(signed_pdf.status, 200) << signed_pdf.body;
  const std::string path = (data_dir_ / (id + "-signed.pdf")).string();
  std::ofstream(path, std::ios::binary) << signed_pdf.body;
  const std::string pdfsig = Shell("pdfsig " + path);
  EXPECT_NE(pdfsig.find("Signature is Valid"), std::string::npos) << pdfsig;
  EXPECT_NE(pdfsig.find("Total document signed"), std::string::npos) << pdfsig;
  EXPECT_NE(Shell("qpdf --check " + path).find("No syntax or stream encoding errors"),
            std::string::npos);

  // Every signature where it was placed: ink in each box that the frozen page did not have.
  auto fields = client_.Get("/api/v1/contracts/" + id, As("a")).Json().at("fields").as_array();
  const auto& documents = contract.at("documents").as_array();
  for (const auto& value : fields) {
    const auto& field = value.as_object();
    if (field.at("type").as_string() != "signature") continue;
    const auto document = static_cast<size_t>(field.at("documentIndex").as_int64());
    const int page = static_cast<int>(documents[document].at("firstPage").as_int64() +
                                      field.at("page").as_int64() - 1);
    const double x = field.at("x").to_number<double>();
    const double y = field.at("y").to_number<double>();
    const double w = field.at("width").to_number<double>();
    const double h = field.at("height").to_number<double>();
    SCOPED_TRACE(boost::json::serialize(field));
    const int before = DrawPage(frozen_path, page).InkIn(x, y, w, h);
    const int after = DrawPage(path, page).InkIn(x, y, w, h);
    EXPECT_GT(after, before + 50) << "page " << page;
  }

  // The certificate names each document with its hashes, and each signer's implicit role.
  const std::string text = Shell("pdftotext " + path + " -");
  EXPECT_NE(text.find("Participant 2"), std::string::npos) << text;
  for (const auto& document : documents) {
    EXPECT_NE(text.find(std::string(document.at("sha256").as_string()).substr(0, 16)),
              std::string::npos)
        << text;
  }
}

// The hosted page's pages answer of each signer lists that signer's fields and no other's, on the
// page of the composed PDF and as fractions of it, with a text's value; the signature boxes stay.
TEST_F(DocumentsApiTest, TheHostedPagesAnswerListsEachSignersOwnFieldsWhereTheyArePlaced) {
  const std::string tagged = UploadId("two_pages_tagged_cairo.pdf", "c");
  const std::string body = R"({"title":"Fields on the page","sendNow":true,
"documents":[{"documentId":")" +
                           tagged + R"("}],
)" + Participants("platform_hosted") +
                           R"(,
"fields":[{"type":"signature","participantIndex":1,"documentIndex":0,"page":2,
  "x":300,"y":300,"width":220,"height":60},
 {"type":"text","participantIndex":0,"documentIndex":0,"page":1,"x":350,"y":40,"width":200,
  "height":20,"value":"<b>PO-1234</b>","name":"Order"},
 {"type":"name","participantIndex":0,"documentIndex":0,"page":2,"x":300,"y":700,"width":200,
  "height":24,"required":false}]})";
  auto created = client_.Post("/api/v1/contracts", body, As("c"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  const std::string id(contract.at("id").as_string());
  const auto& pages = contract.at("documents").as_array()[0].at("pages").as_array();
  for (size_t signer = 0; signer < 2; ++signer) {
    SCOPED_TRACE(signer);
    const std::string participant = ParticipantId(contract, signer);
    auto session = NewSession(id, participant, "", "c");
    ASSERT_EQ(session.status, 201) << session.body;
    auto answer = client_.Get("/api/v1/hosted-signing/" + TokenOf(session) + "/document/pages");
    ASSERT_EQ(answer.status, 200) << answer.body;
    const auto& listed = answer.Json().at("fields").as_array();
    std::vector<std::string> expected;
    for (const auto& value : contract.at("fields").as_array()) {
      const auto& field = value.as_object();
      if (field.at("participantId").as_string() != participant) continue;
      const std::string field_id(field.at("fieldId").as_string());
      expected.push_back(field_id);
      auto found = std::find_if(listed.begin(), listed.end(), [&](const auto& item) {
        return item.at("fieldId").as_string() == field_id;
      });
      ASSERT_NE(found, listed.end()) << field_id << " " << answer.body;
      const auto& item = found->as_object();
      const int64_t page = field.at("page").as_int64();
      EXPECT_EQ(item.at("page").as_int64(), page);  // one document: its pages are the PDF's
      EXPECT_EQ(item.at("type"), field.at("type"));
      EXPECT_EQ(item.at("required"), field.at("required"));
      const auto& size = pages[static_cast<size_t>(page - 1)].as_object();
      const double width = size.at("width").to_number<double>();
      const double height = size.at("height").to_number<double>();
      EXPECT_NEAR(item.at("left").to_number<double>(), field.at("x").to_number<double>() / width,
                  6e-5);
      EXPECT_NEAR(item.at("top").to_number<double>(), field.at("y").to_number<double>() / height,
                  6e-5);
      EXPECT_NEAR(item.at("width").to_number<double>(),
                  field.at("width").to_number<double>() / width, 6e-5);
      EXPECT_NEAR(item.at("height").to_number<double>(),
                  field.at("height").to_number<double>() / height, 6e-5);
      if (field.at("type").as_string() == "text") {
        EXPECT_EQ(item.at("value").as_string(), "<b>PO-1234</b>");
        EXPECT_EQ(item.at("name").as_string(), "Order");
      } else {
        EXPECT_FALSE(item.contains("value"));
      }
    }
    // Ada: the tagged signature, the text and the name; Grace: her signature and the tagged date.
    EXPECT_EQ(expected.size(), signer == 0 ? 3u : 2u);
    EXPECT_EQ(listed.size(), expected.size()) << answer.body;
    // Each signature field is one of the signer's signature boxes too.
    EXPECT_EQ(answer.Json().at("signatureBoxes").as_array().size(), 1u) << answer.body;
  }
}

// An organization makes a template from its upload, fields placed by coordinates and by the
// document's text tags (whose numbers are the roles' places); a contract from it gets the
// template's documents with each role's fields given to the participant bound to it, and is
// signed and sealed. Every refusal names its path and stores nothing.
TEST_F(DocumentsApiTest, ATemplateMadeFromUploadsGivesEachRolesFieldsToItsParticipant) {
  const std::string tagged = UploadId("two_pages_tagged_cairo.pdf");
  auto template_body = [&](const std::string& roles, const std::string& fields,
                           const std::string& document = "") {
    return R"({"name":"Supply agreement","documents":[{"documentId":")" +
           (document.empty() ? tagged : document) + R"(","name":"Agreement"}],"roles":[)" + roles +
           R"(],"fields":[)" + fields + "]}";
  };
  const std::string roles =
      R"({"templateRoleId":"client","name":"Client","action":"sign","recipientType":"individual",
  "routingOrder":1,"required":true},
 {"templateRoleId":"supplier","name":"Supplier","action":"sign","recipientType":"individual",
  "routingOrder":2,"required":true},
 {"templateRoleId":"archive","name":"Archive","action":"receive_copy",
  "recipientType":"individual"})";
  const std::string supplier_signs =
      R"({"type":"signature","templateRoleId":"supplier","documentIndex":0,"page":2,
  "x":300,"y":300,"width":220,"height":60})";
  const std::string fields = supplier_signs + R"(,
 {"type":"text","roleIndex":0,"page":1,"x":350,"y":40,"width":200,"height":20,"value":"PO-1234"})";
  auto made = client_.Post("/api/v1/templates", template_body(roles, fields), As("a"));
  ASSERT_EQ(made.status, 201) << made.body;
  const object tmpl = made.Json().as_object();
  const std::string template_id(tmpl.at("id").as_string());
  EXPECT_EQ(tmpl.at("source").as_string(), "organization");
  ASSERT_FALSE(tmpl.at("publishedVersionId").is_null()) << made.body;
  const auto& version = tmpl.at("versions").as_array()[0].as_object();
  EXPECT_EQ(version.at("documents").as_array()[0].at("documentId").as_string(), tagged);
  EXPECT_FALSE(version.contains("body"));
  // Two fields by coordinates, then the two tags: {{signature:1}} and {{date_signed:2}}.
  const auto& template_fields = version.at("fields").as_array();
  ASSERT_EQ(template_fields.size(), 4u) << made.body;
  EXPECT_EQ(template_fields[2].at("templateRoleId").as_string(), "client");
  EXPECT_EQ(template_fields[3].at("templateRoleId").as_string(), "supplier");
  EXPECT_EQ(version.at("roles").as_array()[1].at("signaturePlacement").as_array().size(), 1u);

  const std::string people = R"("participants":[
 {"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
  "name":"Ada Lovelace","email":"ada@acme.example","templateRoleId":"client"},
 {"action":"sign","recipientType":"individual","executionChannel":"integrator_managed",
  "name":"Grace Hopper","email":"grace@globex.example","templateRoleId":"supplier"}])";
  auto created = client_.Post("/api/v1/contracts",
                              R"({"title":"Supply for Q3","sendNow":true,"templateId":")" +
                                  template_id + R"(",)" + people + "}",
                              As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  EXPECT_EQ(contract.at("status").as_string(), "sent");
  EXPECT_EQ(contract.at("templateId").as_string(), template_id);
  EXPECT_EQ(contract.at("documents").as_array()[0].at("name").as_string(), "Agreement");
  const std::string ada = ParticipantId(contract, 0);
  const std::string grace = ParticipantId(contract, 1);
  std::vector<std::string> owners;
  for (const auto& field : contract.at("fields").as_array()) {
    owners.emplace_back(field.at("participantId").as_string());
  }
  EXPECT_EQ(owners, (std::vector<std::string>{grace, ada, ada, grace}));
  // Routing follows the roles: Grace signs second.
  EXPECT_EQ(contract.at("participants").as_array()[1].at("routingOrder").as_int64(), 2);
  EXPECT_EQ(contract.at("roleBindings").as_array()[1].at("templateRoleId").as_string(), "supplier");

  SignSentNda(client_, As("a"), contract);
  const std::string id(contract.at("id").as_string());
  auto signed_pdf = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  ASSERT_EQ(signed_pdf.status, 200) << signed_pdf.body;
  const std::string path = (data_dir_ / (id + "-from-template.pdf")).string();
  std::ofstream(path, std::ios::binary) << signed_pdf.body;
  EXPECT_NE(Shell("pdfsig " + path).find("Signature is Valid"), std::string::npos);
  // The certificate names the template and the roles by the names it gave them.
  const std::string certificate = Shell("pdftotext " + path + " -");
  EXPECT_NE(certificate.find("Supply agreement"), std::string::npos) << certificate;
  EXPECT_NE(certificate.find("Supplier"), std::string::npos) << certificate;

  // A new version from the same upload, published at once.
  auto added =
      client_.Post("/api/v1/templates/" + template_id + "/versions",
                   R"({"published":true,"documents":[{"documentId":")" + tagged +
                       R"("}],"roles":[)" + roles + R"(],"fields":[)" + supplier_signs + "]}",
                   As("a"));
  ASSERT_EQ(added.status, 201) << added.body;
  EXPECT_TRUE(added.Json().at("published").as_bool());
  EXPECT_EQ(added.Json().at("fields").as_array().size(), 3u) << added.body;

  const uint64_t before = LogSize();
  const std::string client_only =
      R"({"templateRoleId":"client","name":"Client","action":"sign","recipientType":"individual"})";
  ExpectRefused(client_.Post("/api/v1/templates", template_body(roles, ""), As("a")), 400,
                "TEMPLATE_INVALID", before, "roles[1]");
  ExpectRefused(
      client_.Post("/api/v1/templates",
                   template_body(R"({"templateRoleId":"client","name":"Client","action":"sign",
  "recipientType":"individual","signaturePlacement":[{"page":1,"x":1,"y":1,"width":9,"height":9}]})",
                                 ""),
                   As("a")),
      400, "TEMPLATE_INVALID", before, "roles[0].signaturePlacement");
  ExpectRefused(client_.Post("/api/v1/templates",
                             template_body(client_only,
                                           R"({"type":"signature","templateRoleId":"nobody",
  "page":1,"x":10,"y":10,"width":100,"height":40})"),
                             As("a")),
                400, "TEMPLATE_INVALID", before, "fields[0].templateRoleId");
  // The tags name roles 1 and 2; a template of one role has no role 2.
  ExpectRefused(client_.Post("/api/v1/templates", template_body(client_only, ""), As("a")), 400,
                "TEMPLATE_INVALID", before, "documents[0].textTags[1]");
  ExpectRefused(client_.Post("/api/v1/templates", template_body(roles, fields), As("b")), 404,
                "DOCUMENT_NOT_FOUND", before, "documents[0].documentId");
  // Its participants are fixed when the contract is made: each signer and required role bound.
  ExpectRefused(client_.Post("/api/v1/contracts",
                             R"({"title":"Unbound","templateId":")" + template_id +
                                 R"(","participants":[{"action":"sign","recipientType":"individual",
  "executionChannel":"integrator_managed","name":"Ada","email":"ada@acme.example"}]})",
                             As("a")),
                400, "CONTRACT_ROLE_BINDING_INVALID", before, "participants[0].templateRoleId");
  ExpectRefused(client_.Post("/api/v1/contracts",
                             R"({"title":"Half","templateId":")" + template_id +
                                 R"(","participants":[{"action":"sign","recipientType":"individual",
  "executionChannel":"integrator_managed","name":"Ada","email":"ada@acme.example",
  "templateRoleId":"client"}]})",
                             As("a")),
                400, "CONTRACT_ROLE_BINDING_REQUIRED_ROLE_UNBOUND", before, "roleBindings");
}

// Signers fill in fields of every kind, on the hosted page's API and through an integrator's
// session: a refused value names its field and stores nothing; the values are in the fields
// route, the audit trail and the sealed pages.
TEST_F(DocumentsApiTest, SignersFillInTheirFieldsAndTheValuesAreSealed) {
  const std::string tagged = UploadId("two_pages_tagged_cairo.pdf");
  // fld_1 Grace's signature; fld_2..fld_4 Ada's number, checkbox and dropdown; fld_5 and fld_6
  // Grace's reference and phone; then the tags: fld_7 Ada's signature, fld_8 Grace's date.
  const std::string body = R"({"title":"Hours and terms","sendNow":true,
"documents":[{"documentId":")" +
                           tagged + R"("}],)" + Participants("integrator_managed") + R"(,
"fields":[{"type":"signature","participantIndex":1,"page":2,"x":300,"y":300,"width":220,"height":60},
 {"type":"number","participantIndex":0,"page":2,"x":300,"y":400,"width":100,"height":20,
  "min":1,"max":100,"name":"Hours"},
 {"type":"checkbox","participantIndex":0,"page":2,"x":300,"y":440,"width":20,"height":20,
  "required":false},
 {"type":"dropdown","participantIndex":0,"page":2,"x":300,"y":480,"width":150,"height":20,
  "options":["monthly","yearly"]},
 {"type":"text","participantIndex":1,"page":2,"x":300,"y":520,"width":200,"height":20,
  "pattern":"[A-Z]{2}-[0-9]{4}","patternMessage":"two capitals, a dash and four digits"},
 {"type":"phone","participantIndex":1,"page":2,"x":300,"y":560,"width":200,"height":20,
  "required":false}]})";
  auto created = client_.Post("/api/v1/contracts", body, As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  const std::string id(contract.at("id").as_string());

  // Ada on the hosted page: a number as text is refused, by its field.
  auto session = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string complete = "/api/v1/hosted-signing/" + TokenOf(session) + "/complete";
  uint64_t before = LogSize();
  ExpectRefused(client_.Post(complete, R"({"signatureText":"Ada Lovelace","consent":true,
"fieldValues":[{"field":"fld_2","value":"many"},{"field":"fld_4","value":"yearly"}]})"),
                400, "VALIDATION_FAILED", before, "fieldValues[0].value");
  ExpectRefused(client_.Post(complete, R"({"signatureText":"Ada Lovelace","consent":true,
"fieldValues":[{"field":"fld_2","value":42}]})"),
                400, "VALIDATION_FAILED", before, "fieldValues");
  auto ada = client_.Post(complete, R"({"signatureText":"Ada Lovelace","consent":true,
"fieldValues":[{"field":"fld_2","value":42},{"field":"fld_3","value":true},
 {"field":"fld_4","value":"yearly"}]})");
  ASSERT_EQ(ada.status, 200) << ada.body;

  // Grace through the integrator's session: her pattern's own message, then her values.
  auto managed =
      client_.Post("/api/v1/contracts/" + id + "/signing-sessions",
                   R"({"participantId":")" + ParticipantId(contract, 1) + "\"}", As("a"));
  ASSERT_EQ(managed.status, 201) << managed.body;
  const std::string done = "/api/v1/signing-sessions/" +
                           std::string(managed.Json().at("sessionId").as_string()) + "/complete";
  before = LogSize();
  auto wrong = client_.Post(done, GraceSigned(R"([{"field":"fld_5","value":"ab-12"}])"), As("a"));
  ExpectRefused(wrong, 400, "VALIDATION_FAILED", before, "fieldValues[0].value");
  EXPECT_NE(wrong.body.find("two capitals, a dash and four digits"), std::string::npos);
  ExpectRefused(client_.Post(done, GraceSigned(R"([{"field":"fld_2","value":7},
{"field":"fld_5","value":"AB-1234"}])"),
                             As("a")),
                400, "VALIDATION_FAILED", before, "fieldValues[0].field");
  auto grace = client_.Post(
      done,
      GraceSigned(
          R"([{"field":"fld_5","value":"AB-1234"},{"field":"fld_6","value":"+1 (555) 010-9999"}])"),
      As("a"));
  ASSERT_EQ(grace.status, 200) << grace.body;

  auto fields = client_.Get("/api/v1/contracts/" + id + "/fields", As("a"));
  ASSERT_EQ(fields.status, 200) << fields.body;
  std::map<std::string, boost::json::value> values;
  for (const auto& field : fields.Json().at("items").as_array()) {
    values[std::string(field.at("fieldId").as_string())] =
        field.as_object().contains("value") ? field.at("value") : boost::json::value();
  }
  EXPECT_EQ(values["fld_2"], boost::json::value("42"));
  EXPECT_EQ(values["fld_3"], boost::json::value(true));
  EXPECT_EQ(values["fld_4"], boost::json::value("yearly"));
  EXPECT_EQ(values["fld_5"], boost::json::value("AB-1234"));
  EXPECT_EQ(values["fld_6"], boost::json::value("+15550109999"));
  EXPECT_TRUE(values["fld_1"].is_null());

  auto trail = client_.Get("/api/v1/contracts/" + id + "/evidence/audit-trail", As("a"));
  ASSERT_EQ(trail.status, 200);
  EXPECT_NE(trail.body.find(R"("fieldId":"fld_5","value":"AB-1234")"), std::string::npos)
      << trail.body;

  auto signed_pdf = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  ASSERT_EQ(signed_pdf.status, 200) << signed_pdf.body;
  const std::string path = (data_dir_ / (id + "-filled.pdf")).string();
  std::ofstream(path, std::ios::binary) << signed_pdf.body;
  EXPECT_NE(Shell("pdfsig " + path).find("Signature is Valid"), std::string::npos);
  const std::string text = Shell("pdftotext " + path + " -");
  for (const std::string shown : {"42", "yearly", "AB-1234", "+15550109999", "\u2713"}) {
    EXPECT_NE(text.find(shown), std::string::npos) << shown << " in " << text;
  }
  // The evidence bundle shows the values as the proven records give them, and verifies.
  auto bundle = client_.Get("/api/v1/contracts/" + id + "/evidence/bundle", As("a"));
  ASSERT_EQ(bundle.status, 200) << bundle.body;
  const auto& shown = bundle.Json().at("fieldValues").as_array();
  ASSERT_EQ(shown.size(), 5u) << bundle.body;
  EXPECT_EQ(shown[3].at("value"), boost::json::value("AB-1234"));
  auto report = client_.Get("/api/v1/contracts/" + id + "/evidence/verification", As("a"));
  ASSERT_EQ(report.status, 200) << report.body;
  EXPECT_TRUE(report.Json().at("valid").as_bool()) << report.body;
  EXPECT_NE(report.body.find(R"("name":"fieldValues[4]")"), std::string::npos) << report.body;
  // The certificate lists what each signer entered.
  for (const std::string listed : {"Values entered (5)", "Hours (fld_2)", "Ticked"}) {
    EXPECT_NE(text.find(listed), std::string::npos) << listed << " in " << text;
  }
}

// A 1x1 PNG, and the smallest well-formed JPEG stream (one 1x1 frame, one scan); `fill` varies
// its scan byte so that two files differ.
std::string TinyPng() {
  return *Base64Decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJg"
      "gg==");
}
std::string TinyJpeg(char fill) {
  return std::string(
             "\xFF\xD8\xFF\xC0\x00\x11\x08\x00\x01\x00\x01\x03\x01\x22\x00\x02\x11\x01"
             "\x03\x11\x01\xFF\xDA\x00\x0C\x03\x01\x00\x02\x11\x03\x11\x00\x3F\x00",
             37) +
         fill + "\xFF\xD9";
}

TEST_F(DocumentsApiTest, AHostedSignerWhoMustProveWhoSheIsAttachesOnlyWithHerProof) {
  const std::string form = UploadId("acroform_with_actions.pdf");
  const std::string body = R"({"title":"Attach with a code","sendNow":true,
"documents":[{"documentId":")" +
                           form + R"("}],"participants":[
 {"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
  "name":"Ada Lovelace","email":"ada@acme.example","authentication":"access_code",
  "accessCode":"12345678"}],
"fields":[{"type":"signature","participantIndex":0,"page":1,"x":300,"y":300,"width":220,
  "height":60},{"type":"attachment","participantIndex":0,"page":1,"x":300,"y":440,"width":200,
  "height":20,"required":false}]})";
  auto created = client_.Post("/api/v1/contracts", body, As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  auto hosted = NewSession(std::string(contract.at("id").as_string()), ParticipantId(contract, 0));
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  const std::string page = "/api/v1/hosted-signing/" + TokenOf(hosted);

  // Without her proof, or with a forged one: 401, nothing stored.
  const uint64_t before = LogSize();
  auto refused = client_.Post(page + "/attachments?name=scan.jpg", TinyJpeg('\5'),
                              {{"Content-Type", "image/jpeg"}});
  ExpectRefused(refused, 401, "SIGNER_AUTHENTICATION_REQUIRED", before);
  EXPECT_EQ(refused.Header("www-authenticate"), R"(SignerProof realm="hosted-signing")");
  auto forged = client_.Post(page + "/attachments?name=scan.jpg", TinyJpeg('\5'),
                             {{"Content-Type", "image/jpeg"}, {"Signer-Proof", "1.forged"}});
  EXPECT_EQ(forged.status, 401) << forged.body;
  EXPECT_EQ(LogSize(), before);

  // With it, the file is taken.
  auto proven = client_.Post(page + "/authentication", R"({"code":"12345678"})");
  ASSERT_EQ(proven.status, 200) << proven.body;
  const std::string proof(proven.Json().at("signerProof").as_string());
  auto taken = client_.Post(page + "/attachments?name=scan.jpg", TinyJpeg('\5'),
                            {{"Content-Type", "image/jpeg"}, {"Signer-Proof", proof}});
  EXPECT_EQ(taken.status, 201) << taken.body;
}

TEST_F(DocumentsApiTest, SignersAttachFilesThatAreEmbeddedUnderTheSeal) {
  const std::string tagged = UploadId("two_pages_tagged_cairo.pdf");
  // fld_1 Grace's signature, fld_2 Grace's attachment, fld_3 Ada's (optional); the tags: fld_4
  // Ada's signature, fld_5 Grace's date.
  const std::string body = R"({"title":"With a copy of an ID","sendNow":true,
"documents":[{"documentId":")" +
                           tagged + R"("}],)" + Participants("integrator_managed") + R"(,
"fields":[{"type":"signature","participantIndex":1,"page":2,"x":300,"y":300,"width":220,"height":60},
 {"type":"attachment","participantIndex":1,"page":2,"x":300,"y":400,"width":200,"height":20,
  "name":"Copy of ID"},
 {"type":"attachment","participantIndex":0,"page":2,"x":300,"y":440,"width":200,"height":20,
  "required":false}]})";
  auto created = client_.Post("/api/v1/contracts", body, As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  const std::string id(contract.at("id").as_string());
  auto managed =
      client_.Post("/api/v1/contracts/" + id + "/signing-sessions",
                   R"({"participantId":")" + ParticipantId(contract, 1) + "\"}", As("a"));
  ASSERT_EQ(managed.status, 201) << managed.body;
  const std::string session =
      "/api/v1/signing-sessions/" + std::string(managed.Json().at("sessionId").as_string());
  auto attach = [&](const std::string& bytes, const std::string& type, const std::string& name) {
    auto headers = As("a");
    headers["Content-Type"] = type;
    return client_.Post(session + "/attachments?name=" + name, bytes, headers);
  };

  // Grace's integrator uploads her file: 201, and the same file again is the same one (200).
  const std::string png = TinyPng();
  auto uploaded = attach(png, "image/png", "id.png");
  ASSERT_EQ(uploaded.status, 201) << uploaded.body;
  const std::string sha256(uploaded.Json().at("sha256").as_string());
  EXPECT_EQ(sha256, Sha256Hex(png));
  EXPECT_EQ(uploaded.Json().at("mediaType"), "image/png");
  EXPECT_EQ(uploaded.Json().at("size"), static_cast<int64_t>(png.size()));
  uint64_t before = LogSize();
  auto again = attach(png, "image/png", "other.png");
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.Json().at("name"), "id.png");
  EXPECT_EQ(LogSize(), before);

  // A file that is not what it says, a type not taken, one over 10 MiB: refused, nothing stored.
  ExpectRefused(attach(png, "image/jpeg", "id.jpg"), 400, "DOCUMENT_INVALID", before, "file");
  ExpectRefused(attach("%PDF-1.7\nno", "application/pdf", "x.pdf"), 400, "DOCUMENT_INVALID",
                before);
  ExpectRefused(attach("hello", "text/plain", "x.txt"), 415, "UNSUPPORTED_MEDIA_TYPE", before);
  ExpectRefused(attach(std::string((10 << 20) + 1, 'x'), "image/png", "big.png"), 413,
                "DOCUMENT_TOO_LARGE", before);
  // A name longer than 200 characters, or with a control character: refused by its parameter.
  ExpectRefused(attach(TinyJpeg('\4'), "image/jpeg", std::string(201, 'n') + ".jpg"), 400,
                "VALIDATION_FAILED", before, "name");
  ExpectRefused(attach(TinyJpeg('\4'), "image/jpeg", "a%01b.jpg"), 400, "VALIDATION_FAILED", before,
                "name");
  // Nothing to download before its signer signed.
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id + "/fields/fld_2/attachment", As("a")).status,
            404);
  // At most five files a session.
  for (const std::string& file : {TinyJpeg('\0'), Fixture("tagged_handwritten.pdf"),
                                  Fixture("acroform_with_actions.pdf"), TinyJpeg('\1')}) {
    const bool pdf = file.starts_with("%PDF");
    auto more = attach(file, pdf ? "application/pdf" : "image/jpeg", pdf ? "a.pdf" : "a.jpg");
    ASSERT_EQ(more.status, 201) << more.body;
  }
  before = LogSize();
  ExpectRefused(attach(TinyJpeg('\2'), "image/jpeg", "sixth.jpg"), 409, "CONTRACT_STATE_CONFLICT",
                before, "attachments");

  // Ada's hosted page takes hers the same way; a value naming a file of another session is
  // refused by its field.
  auto hosted = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  const std::string page = "/api/v1/hosted-signing/" + TokenOf(hosted);
  before = LogSize();
  ExpectRefused(client_.Post(page + "/complete", R"({"signatureText":"Ada Lovelace","consent":true,
"fieldValues":[{"field":"fld_3","value":")" + sha256 +
                                                     R"("}]})"),
                400, "VALIDATION_FAILED", before, "fieldValues[0].value");
  // The integrator's route takes no file for a hosted signer's session.
  before = LogSize();
  auto integrator_on_hosted = As("a");
  integrator_on_hosted["Content-Type"] = "image/jpeg";
  ExpectRefused(client_.Post("/api/v1/signing-sessions/" +
                                 std::string(hosted.Json().at("sessionId").as_string()) +
                                 "/attachments?name=scan.jpg",
                             TinyJpeg('\3'), integrator_on_hosted),
                409, "SIGNING_SESSION_STATE_CONFLICT", before, "channel");
  auto ada_file = client_.Post(page + "/attachments?name=scan.jpg", TinyJpeg('\3'),
                               {{"Content-Type", "image/jpeg"}});
  ASSERT_EQ(ada_file.status, 201) << ada_file.body;
  auto ada = client_.Post(page + "/complete",
                          R"({"signatureText":"Ada Lovelace","consent":true,
"fieldValues":[{"field":"fld_3","value":")" +
                              std::string(ada_file.Json().at("sha256").as_string()) + R"("}]})");
  ASSERT_EQ(ada.status, 200) << ada.body;

  // Grace signs naming her file; a required attachment left out is refused first.
  before = LogSize();
  ExpectRefused(client_.Post(session + "/complete", GraceSigned("[]"), As("a")), 400,
                "VALIDATION_FAILED", before, "fieldValues");
  auto grace = client_.Post(
      session + "/complete",
      GraceSigned(R"([{"field":"fld_2","value":{"sha256":")" + sha256 + R"("}}])"), As("a"));
  ASSERT_EQ(grace.status, 200) << grace.body;

  // The fields route shows the file; its controller downloads it as uploaded.
  auto fields = client_.Get("/api/v1/contracts/" + id + "/fields", As("a"));
  ASSERT_EQ(fields.status, 200) << fields.body;
  const auto& items = fields.Json().at("items").as_array();
  const auto grace_field = std::find_if(items.begin(), items.end(),
                                        [](const auto& f) { return f.at("fieldId") == "fld_2"; });
  ASSERT_NE(grace_field, items.end());
  EXPECT_EQ(grace_field->at("value"),
            (boost::json::object{{"sha256", sha256},
                                 {"name", "id.png"},
                                 {"mediaType", "image/png"},
                                 {"size", static_cast<int64_t>(png.size())}}));
  auto download = client_.Get("/api/v1/contracts/" + id + "/fields/fld_2/attachment", As("a"));
  ASSERT_EQ(download.status, 200) << download.body;
  EXPECT_EQ(download.body, png);
  EXPECT_EQ(download.Header("content-type"), "image/png");
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id + "/fields/fld_2/attachment", As("b")).status,
            404);
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id + "/fields/fld_1/attachment", As("a")).status,
            404);

  // The sealed PDF carries both files under its seal, and its certificate names them.
  auto signed_pdf = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  ASSERT_EQ(signed_pdf.status, 200) << signed_pdf.body;
  const std::string path = (data_dir_ / (id + "-attached.pdf")).string();
  std::ofstream(path, std::ios::binary) << signed_pdf.body;
  EXPECT_NE(Shell("pdfsig " + path).find("Signature is Valid"), std::string::npos);
  const std::string listed = Shell("qpdf --list-attachments " + path);
  EXPECT_NE(listed.find("fld_2"), std::string::npos) << listed;
  EXPECT_NE(listed.find("fld_3"), std::string::npos) << listed;
  EXPECT_EQ(Shell("qpdf --show-attachment=fld_2 " + path), png);
  const std::string text = Shell("pdftotext " + path + " -");
  for (const std::string& shown :
       std::vector<std::string>{"Attached: id.png", "Copy of ID (fld_2)", "attached to this PDF",
                                sha256.substr(0, 16)}) {
    EXPECT_NE(text.find(shown), std::string::npos) << shown << " in " << text;
  }
}

}  // namespace
}  // namespace esign::testing
