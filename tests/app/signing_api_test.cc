// The signing family end to end over loopback HTTP: sessions in routing order, the hosted page's
// API, integrator-managed completion, completion with a signed PDF that pdfsig validates, declines,
// and every dead link (forged, reused, cancelled, replaced, expired). Every refusal leaves the log
// as it was.
#include <array>
#include <cstdio>
#include <fstream>
#include <thread>

#include "base/sha256.h"
#include "tests/app/api_suite.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

// Party A (hosted) signs first, party B (integrator) second; a viewer and the legal copy never
// block completion.
std::string SequentialNda(const std::string& title) {
  return NdaBody(title, /*with_roles=*/true, /*send_now=*/true,
                 R"(,{"action":"view","recipientType":"individual","name":"Victor Viewer",
"email":"victor@acme.example"},
{"action":"receive_copy","recipientType":"individual","name":"Legal","email":"legal@acme.example",
"templateRoleId":"legal_copy"})");
}

std::string RunCommand(const std::string& command) { return RunShell(command + " 2>&1").out; }

class SigningApiTest : public ApiSuite {
 protected:
  // A sent NDA whose participants are in order: A (routing 1), B (routing 2), viewer, copy.
  object SentNda(const std::string& title) {
    std::string body = SequentialNda(title);
    // Sequential: party B waits for party A.
    const std::string grace = R"("name":"Grace Hopper","email":"grace@globex.example")";
    body.replace(body.find(grace), grace.size(), grace + R"(,"routingOrder":2)");
    object contract = Create("a", body);
    EXPECT_EQ(contract.at("status").as_string(), "sent");
    return contract;
  }
  // The status once it shows `expected_status` (the signer's own writes are not the
  // integrator's, so its reads see them a moment later), or as it is after two seconds.
  object Status(const std::string& contract_id, const std::string& expected_status = "") {
    for (int attempt = 0;; ++attempt) {
      auto status = client_.Get("/api/v1/contracts/" + contract_id + "/status", As("a"));
      EXPECT_EQ(status.status, 200) << status.body;
      object json = status.Json().as_object();
      if (expected_status.empty() || json.at("status").as_string() == expected_status ||
          attempt == 200) {
        return json;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  static std::string ProgressOf(const object& status, size_t index) {
    return std::string(status.at("participants").as_array()[index].at("state").as_string());
  }
};

TEST_F(SigningApiTest, HostedThenIntegratorSignersCompleteWithASignedPdf) {
  object contract = SentNda("Signed in turn");
  const std::string id(contract.at("id").as_string());
  const std::string ada = ParticipantId(contract, 0);
  const std::string grace = ParticipantId(contract, 1);

  // Grace's turn has not come.
  uint64_t before = LogSize();
  ExpectRefused(NewSession(id, grace), 409, "SIGNING_OUT_OF_TURN", before, "participantId");
  ExpectRefused(NewSession(id, ParticipantId(contract, 2)), 409, "CONTRACT_STATE_CONFLICT", before);
  ExpectRefused(NewSession(id, "prt_nobody"), 404, "PARTICIPANT_NOT_FOUND", before);
  ExpectRefused(NewSession(id, ada, R"(,"ttlSeconds":1)"), 400, "VALIDATION_FAILED", before,
                "ttlSeconds");
  ExpectRefused(NewSession(id, ada, R"(,"returnUrl":"javascript:void 0")"), 400,
                "VALIDATION_FAILED", before, "returnUrl");
  ExpectRefused(NewSession(id, ada, R"(,"colour":"blue")"), 400, "VALIDATION_FAILED", before,
                "colour");
  ExpectRefused(NewSession(id, ada, "", "b"), 404, "CONTRACT_NOT_FOUND", before);
  ExpectRefused(client_.Get("/api/v1/contracts/" + id + "/signing-sessions", As("b")), 404,
                "CONTRACT_NOT_FOUND", before);

  // Ada signs on the hosted page.
  auto session = NewSession(id, ada, R"(,"returnUrl":"https://app.example/done")");
  ASSERT_EQ(session.status, 201) << session.body;
  EXPECT_EQ(session.Json().at("channel").as_string(), "platform_hosted");
  EXPECT_EQ(session.Json().at("state").as_string(), "open");
  EXPECT_NE(session.Json().at("url").as_string().find("/sign/"), std::string::npos);
  const std::string token = TokenOf(session);
  const std::string hosted = "/api/v1/hosted-signing/" + token;

  auto page = client_.Get(hosted);
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.Json().at("signerName").as_string(), "Ada Lovelace");
  EXPECT_EQ(page.Json().at("contractTitle").as_string(), "Signed in turn");
  EXPECT_EQ(page.Json().at("state").as_string(), "open");
  EXPECT_FALSE(page.Json().at("roleName").as_string().empty());
  auto document = client_.Get(hosted + "/document");
  ASSERT_EQ(document.status, 200);
  EXPECT_EQ(document.Header("content-type"), "application/pdf");
  EXPECT_EQ(Sha256Hex(document.body), page.Json().at("documentSha256").as_string());

  before = LogSize();
  ExpectRefused(client_.Post(hosted + "/complete", R"({"signatureText":"Ada Lovelace"})"), 400,
                "VALIDATION_FAILED", before, "consent");
  ExpectRefused(client_.Post(hosted + "/complete", R"({"signatureText":" ","consent":true})"), 400,
                "VALIDATION_FAILED", before, "signatureText");
  auto signed_a =
      client_.Post(hosted + "/complete", R"({"signatureText":"Ada Lovelace","consent":true})",
                   {{"User-Agent", "BrowserTest/1.0"}});
  ASSERT_EQ(signed_a.status, 200) << signed_a.body;
  EXPECT_EQ(signed_a.Json().at("contractStatus").as_string(), "signing");
  EXPECT_EQ(signed_a.Json().at("returnUrl").as_string(), "https://app.example/done");

  // The link is used: it shows what happened but cannot sign again.
  before = LogSize();
  ExpectRefused(client_.Post(hosted + "/complete", R"({"signatureText":"Ada","consent":true})"),
                409, "SIGNING_SESSION_STATE_CONFLICT", before);
  EXPECT_EQ(client_.Get(hosted).Json().at("state").as_string(), "completed");

  object status = Status(id, "signing");
  EXPECT_EQ(status.at("status").as_string(), "signing");
  EXPECT_EQ(ProgressOf(status, 0), "signed");
  EXPECT_EQ(ProgressOf(status, 1), "ready");
  auto signed_only = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  EXPECT_EQ(signed_only.status, 404);

  // Grace signs through the integrator.
  auto grace_session = NewSession(id, grace);
  ASSERT_EQ(grace_session.status, 201) << grace_session.body;
  EXPECT_FALSE(grace_session.Json().as_object().contains("url"));
  EXPECT_EQ(grace_session.Json().at("documentSha256"), page.Json().at("documentSha256"));
  const std::string sessions =
      "/api/v1/signing-sessions/" + std::string(grace_session.Json().at("sessionId").as_string());
  auto to_sign = client_.Get(sessions + "/document", As("a"));
  ASSERT_EQ(to_sign.status, 200);
  EXPECT_EQ(to_sign.body, document.body);
  EXPECT_EQ(client_.Get(sessions, As("b")).ErrorCode(), "SIGNING_SESSION_NOT_FOUND");

  before = LogSize();
  ExpectRefused(client_.Post(sessions + "/complete", R"({"signerName":"Grace"})", As("a")), 400,
                "VALIDATION_FAILED", before, "consent");
  ExpectRefused(client_.Post(sessions + "/complete", CompleteBody(), As("a_read_only")), 403,
                "PERMISSION_DENIED", before);
  ExpectRefused(client_.Post(sessions + "/complete", CompleteBody(), As("b")), 404,
                "SIGNING_SESSION_NOT_FOUND", before);
  auto completed = client_.Post(sessions + "/complete", CompleteBody(), As("a"));
  ASSERT_EQ(completed.status, 200) << completed.body;
  EXPECT_EQ(completed.Json().at("state").as_string(), "completed");

  status = Status(id, "completed");
  EXPECT_EQ(status.at("status").as_string(), "completed");
  EXPECT_EQ(ProgressOf(status, 1), "signed");
  auto got = client_.Get("/api/v1/contracts/" + id, As("a"));
  ASSERT_TRUE(got.Json().as_object().contains("signedPdfKey")) << got.body;

  // The signed PDF: stored before completion was recorded, sealed by the service.
  auto signed_pdf = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  ASSERT_EQ(signed_pdf.status, 200) << signed_pdf.body;
  const std::string path = (data_dir_ / (id + "-signed.pdf")).string();
  std::ofstream(path, std::ios::binary) << signed_pdf.body;
  const std::string pdfsig = RunCommand("pdfsig " + path);
  EXPECT_NE(pdfsig.find("Signature is Valid"), std::string::npos) << pdfsig;
  EXPECT_NE(pdfsig.find("Total document signed"), std::string::npos) << pdfsig;
  EXPECT_NE(RunCommand("qpdf --check " + path).find("No syntax or stream encoding errors"),
            std::string::npos);
  // Each signature is drawn at its signer's placement.
  const std::string text = RunCommand("pdftotext " + path + " -");
  EXPECT_NE(text.find("Signed by Ada Lovelace"), std::string::npos) << text;
  EXPECT_NE(text.find("Signed by Grace Hopper"), std::string::npos) << text;

  // The certificate of completion follows the contract's pages, under the same seal: who took
  // part, every event with its IP address and user agent, both hashes, the ledger's tree head.
  const auto pages_of = [&](const std::string& file) {
    const std::string info = RunCommand("pdfinfo " + file);
    const size_t at = info.find("Pages:");
    return at == std::string::npos ? 0 : std::stoi(info.substr(at + 6));
  };
  const std::string unsigned_path = (data_dir_ / (id + "-unsigned.pdf")).string();
  std::ofstream(unsigned_path, std::ios::binary) << document.body;
  EXPECT_GT(pages_of(path), pages_of(unsigned_path));
  for (const std::string& expected : std::vector<std::string>{
           "Certificate of completion", "ada@acme.example", "grace@globex.example",
           "victor@acme.example", "BrowserTest/1.0", "127.0.0.1", "Sent for signing",
           std::string(page.Json().at("documentSha256").as_string()), "contract-" + id,
           "contract-ledger verify-bundle"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
  }
  // contract.completed records the hash of the signed contract pages: the sealed file's first
  // revision, which ends at its first %%EOF.
  auto bundle = client_.Get("/api/v1/contracts/" + id + "/evidence/bundle", As("a"));
  ASSERT_EQ(bundle.status, 200);
  std::string signed_content_sha256;
  for (const auto& event : bundle.Json().at("ledger").at("events").as_array()) {
    const auto record = boost::json::parse(event.at("record").as_string()).as_object();
    if (record.at("type") == "contract.completed") {
      signed_content_sha256 = record.at("data").at("signedContentSha256").as_string();
    }
  }
  const size_t first_revision = signed_pdf.body.find("%%EOF\n") + 6;
  EXPECT_EQ(Sha256Hex(signed_pdf.body.substr(0, first_revision)), signed_content_sha256);
  EXPECT_NE(text.find(signed_content_sha256), std::string::npos) << text;
  EXPECT_NE(text.find("head -c " + std::to_string(first_revision)), std::string::npos) << text;

  // The lifecycle, in order, with completion last.
  auto trail = client_.Get("/api/v1/contracts/" + id + "/evidence/audit-trail", As("a"));
  std::vector<std::string> lifecycle;
  for (const auto& entry : trail.Json().at("events").as_array()) {
    const std::string type(entry.at("type").as_string());
    if (type.starts_with("signer.") || type.starts_with("contract.signing") ||
        type == "contract.completed") {
      lifecycle.push_back(type);
    }
  }
  EXPECT_EQ(lifecycle, (std::vector<std::string>{"signer.completed", "contract.signing_in_progress",
                                                 "signer.completed", "contract.completed"}));
  auto list = client_.Get("/api/v1/contracts/" + id + "/signing-sessions", As("a"));
  ASSERT_EQ(list.status, 200);
  // Besides the two signers' sessions, the one the service created for the hosted signer's mail,
  // which the integrator's own session replaced.
  ASSERT_EQ(list.Json().at("items").as_array().size(), 3u);
  size_t completed_sessions = 0;
  for (const auto& s : list.Json().at("items").as_array()) {
    completed_sessions += s.at("state").as_string() == "completed" ? 1 : 0;
  }
  EXPECT_EQ(completed_sessions, 2u);
}

TEST_F(SigningApiTest, DeadLinksSayWhyAndChangeNothing) {
  object contract = SentNda("Dead links");
  const std::string id(contract.at("id").as_string());
  const std::string ada = ParticipantId(contract, 0);

  uint64_t before = LogSize();
  ExpectRefused(client_.Get("/api/v1/hosted-signing/forged-token-0123456789"), 404,
                "SIGNING_SESSION_NOT_FOUND", before);
  ExpectRefused(client_.Post("/api/v1/hosted-signing/forged/complete",
                             R"({"signatureText":"X","consent":true})"),
                404, "SIGNING_SESSION_NOT_FOUND", before);

  // Cancelled.
  auto first = NewSession(id, ada);
  ASSERT_EQ(first.status, 201) << first.body;
  const std::string first_id(first.Json().at("sessionId").as_string());
  auto cancelled = client_.Post("/api/v1/signing-sessions/" + first_id + "/cancel", "", As("a"));
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  EXPECT_EQ(cancelled.Json().at("state").as_string(), "cancelled");
  before = LogSize();
  ExpectRefused(client_.Get("/api/v1/hosted-signing/" + TokenOf(first)), 410,
                "SIGNING_SESSION_CANCELLED", before);
  ExpectRefused(client_.Post("/api/v1/signing-sessions/" + first_id + "/cancel", "", As("a")), 409,
                "SIGNING_SESSION_STATE_CONFLICT", before);

  // Refreshed: the old link dies, the new one works.
  auto second = NewSession(id, ada);
  ASSERT_EQ(second.status, 201);
  const std::string second_id(second.Json().at("sessionId").as_string());
  auto refreshed = client_.Post("/api/v1/signing-sessions/" + second_id + "/refresh",
                                R"({"ttlSeconds":600})", As("a"));
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  EXPECT_NE(TokenOf(refreshed), TokenOf(second));
  before = LogSize();
  ExpectRefused(client_.Get("/api/v1/hosted-signing/" + TokenOf(second)), 410,
                "SIGNING_SESSION_CANCELLED", before);
  EXPECT_EQ(client_.Get("/api/v1/hosted-signing/" + TokenOf(refreshed)).status, 200);

  // A newer session supersedes the open one.
  auto third = NewSession(id, ada);
  ASSERT_EQ(third.status, 201);
  before = LogSize();
  ExpectRefused(client_.Get("/api/v1/hosted-signing/" + TokenOf(refreshed)), 410,
                "SIGNING_SESSION_CANCELLED", before);

  // Expired.
  auto brief = NewSession(id, ada, R"(,"ttlSeconds":5)");
  ASSERT_EQ(brief.status, 201) << brief.body;
  std::this_thread::sleep_for(std::chrono::milliseconds(5500));
  before = LogSize();
  ExpectRefused(client_.Get("/api/v1/hosted-signing/" + TokenOf(brief)), 410,
                "SIGNING_SESSION_EXPIRED", before);
  ExpectRefused(client_.Post("/api/v1/hosted-signing/" + TokenOf(brief) + "/complete",
                             R"({"signatureText":"Ada","consent":true})"),
                410, "SIGNING_SESSION_EXPIRED", before);
  auto listed = client_.Get(
      "/api/v1/signing-sessions/" + std::string(brief.Json().at("sessionId").as_string()), As("a"));
  EXPECT_EQ(listed.Json().at("state").as_string(), "expired");
  EXPECT_EQ(ProgressOf(Status(id), 0), "ready");
}

TEST_F(SigningApiTest, ADeclineEndsTheContractAndEverySession) {
  object contract = SentNda("Declined");
  const std::string id(contract.at("id").as_string());
  auto session = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(session.status, 201);
  const std::string hosted = "/api/v1/hosted-signing/" + TokenOf(session);

  auto declined = client_.Post(hosted + "/decline", R"({"reason":"The term is too long."})");
  ASSERT_EQ(declined.status, 200) << declined.body;
  EXPECT_EQ(declined.Json().at("contractStatus").as_string(), "declined");
  object status = Status(id, "declined");
  EXPECT_EQ(status.at("status").as_string(), "declined");
  EXPECT_EQ(ProgressOf(status, 0), "declined");
  EXPECT_EQ(client_.Get(hosted).Json().at("state").as_string(), "declined");

  const uint64_t before = LogSize();
  ExpectRefused(client_.Post(hosted + "/decline", R"({"reason":"again"})"), 409,
                "SIGNING_SESSION_STATE_CONFLICT", before);
  ExpectRefused(NewSession(id, ParticipantId(contract, 1)), 409, "CONTRACT_STATE_CONFLICT", before);
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a")).ErrorCode(),
            "CONTRACT_SIGNED_DOCUMENT_NOT_AVAILABLE");
}

TEST_F(SigningApiTest, TheHostedPageCannotDeclineWhenTheSettingsForbidIt) {
  std::string body = NdaBody("No declining", /*with_roles=*/true, /*send_now=*/true);
  body.insert(body.find(R"("templateId")"), R"("signingSettings":{"allowDecline":false},)");
  object contract = Create("a", body);
  const std::string id(contract.at("id").as_string());
  auto session = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string hosted = "/api/v1/hosted-signing/" + TokenOf(session);
  EXPECT_FALSE(client_.Get(hosted).Json().at("allowDecline").as_bool());

  const uint64_t before = LogSize();
  ExpectRefused(client_.Post(hosted + "/decline", R"({"reason":"No."})"), 409,
                "CONTRACT_STATE_CONFLICT", before, "signingSettings.allowDecline");
  EXPECT_EQ(client_.Get(hosted).Json().at("state").as_string(), "open");
}

}  // namespace
}  // namespace esign::testing
