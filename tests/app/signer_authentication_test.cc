// Signer authentication on the hosted page end to end (DESIGN section 15): the participant's
// method is validated at creation, the access code never reaches an answer or the data
// directory, the page's API asks for the code before the document, counts wrong codes and locks
// the link at the fifth, mails e-mail codes at a bounded pace, refuses an expired one, and the
// method lands in the signature's evidence and the audit trail.
#include <fstream>
#include <iterator>
#include <thread>

#include "app/admin_socket.h"
#include "domain/signer_secrets.h"
#include "http/auth_token_key.h"
#include "tests/app/api_suite.h"

namespace esign::testing {
namespace {

const std::string kAccessCode = "Lovelace-1815-Analytical";

std::string AccessCodeMembers() {
  return R"(,"authentication":"access_code","accessCode":")" + kAccessCode + "\"";
}

class SignerAuthenticationTest : public ApiSuite {
 protected:
  static void SetUpTestSuite() {
    serve_flags_ = {"--clock-offset", "0"};
    ApiSuite::SetUpTestSuite();
  }

  HttpResult GiveCode(const Hosted& hosted, const std::string& code) {
    return client_.Post(hosted.base + "/authentication",
                        boost::json::serialize(object{{"code", code}}));
  }

  static std::string Detail(const HttpResult& response, std::string_view field) {
    for (const auto& d : response.Json().at("error").at("details").as_array()) {
      if (d.at("field").as_string() == field) return std::string(d.at("issue").as_string());
    }
    return "<none>";
  }

  // The contract's audit-trail entries of `type` (the signer's writes reach the read side a
  // moment later: waits up to two seconds for at least `at_least`).
  boost::json::array Trail(const std::string& id, std::string_view type, size_t at_least = 1) {
    boost::json::array found;
    for (int attempt = 0; attempt < 200; ++attempt) {
      found.clear();
      auto trail = client_.Get("/api/v1/contracts/" + id + "/evidence/audit-trail", As("a"));
      EXPECT_EQ(trail.status, 200) << trail.body;
      for (const auto& event : trail.Json().at("events").as_array()) {
        if (event.at("type").as_string() == type) found.push_back(event);
      }
      if (found.size() >= at_least) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return found;
  }

  // The code number `n` of the session, derived as the service derives it.
  static std::string EmailCode(const std::string& session_id, int n) {
    auto key = http::LoadOrCreateTokenKey(data_dir_ / "signer-secrets-key");
    EXPECT_TRUE(key.has_value());
    return key ? SignerSecrets(*key).EmailCode(session_id, n) : "";
  }
};

TEST_F(SignerAuthenticationTest, InvalidMethodsAreRefusedAndChangeNothing) {
  const uint64_t before = LogSize();
  const auto refuse = [&](const std::string& body, const std::string& field) {
    ExpectRefused(client_.Post("/api/v1/contracts", body, As("a")), 400, "VALIDATION_FAILED",
                  before, field);
  };
  refuse(NdaWithAda("Bad method", R"(,"authentication":"sms")"), "participants[0].authentication");
  refuse(NdaWithAda("No code", R"(,"authentication":"access_code")"), "participants[0].accessCode");
  refuse(NdaWithAda("Short code", R"(,"authentication":"access_code","accessCode":"abc")"),
         "participants[0].accessCode");
  refuse(NdaWithAda("Code without method", R"(,"accessCode":"12345678")"),
         "participants[0].accessCode");
  refuse(NdaWithAda("Code with none", R"(,"authentication":"none","accessCode":"12345678")"),
         "participants[0].accessCode");
  // Grace signs through her integrator: the hosted page never asks her anything.
  std::string grace = NdaBody("Integrator signer", true, true);
  const std::string grace_email = R"("email":"grace@globex.example")";
  grace.insert(grace.find(grace_email) + grace_email.size(), R"(,"authentication":"email_otp")");
  refuse(grace, "participants[1].authentication");

  // Replacing the participants of a draft follows the same rules.
  object draft = Create("a", NdaBody("Draft", false));
  const std::string id(draft.at("id").as_string());
  const uint64_t after_draft = LogSize();
  std::string participants = NdaWithAda("x", R"(,"authentication":"totp")", false);
  participants = participants.substr(participants.find("\"participants\""));
  participants = "{" + participants;
  ExpectRefused(client_.Put("/api/v1/contracts/" + id + "/participants", participants, As("a")),
                400, "VALIDATION_FAILED", after_draft, "participants[0].authentication");
}

TEST_F(SignerAuthenticationTest, TheAccessCodeIsNeverShownNorStored) {
  object contract = Create("a", NdaWithAda("Code kept hashed", AccessCodeMembers()));
  const std::string id(contract.at("id").as_string());
  const std::string shown = boost::json::serialize(contract);
  EXPECT_EQ(shown.find(kAccessCode), std::string::npos) << shown;
  EXPECT_EQ(shown.find("accessCode"), std::string::npos) << shown;
  EXPECT_EQ(contract.at("participants").as_array()[0].at("authentication").as_string(),
            "access_code");
  EXPECT_EQ(contract.at("participants").as_array()[1].at("authentication").as_string(), "none");
  auto read = client_.Get("/api/v1/contracts/" + id, As("a"));
  EXPECT_EQ(read.body.find("accessCode"), std::string::npos) << read.body;
  auto status = client_.Get("/api/v1/contracts/" + id + "/status", As("a"));
  EXPECT_EQ(status.body.find("accessCode"), std::string::npos) << status.body;

  // Not a byte of it in the data directory, where the contract's title is.
  bool title_found = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir_)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream file(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), {});
    EXPECT_EQ(bytes.find(kAccessCode), std::string::npos) << entry.path();
    title_found = title_found || bytes.find("Code kept hashed") != std::string::npos;
  }
  EXPECT_TRUE(title_found) << "the search would not see a stored text";
}

TEST_F(SignerAuthenticationTest, TheRightAccessCodeOpensTheDocumentAndSigns) {
  Hosted hosted = SentWithSession("Access code signs", AccessCodeMembers());
  auto page = client_.Get(hosted.base);
  ASSERT_EQ(page.status, 200) << page.body;
  const auto& auth = page.Json().at("authentication");
  EXPECT_EQ(auth.at("method").as_string(), "access_code");
  EXPECT_TRUE(auth.at("required").as_bool());
  EXPECT_FALSE(auth.at("locked").as_bool());
  EXPECT_EQ(auth.at("remainingAttempts").as_int64(), 5);
  EXPECT_EQ(page.Json().at("signerEmail").as_string(), "a***@acme.example");

  const uint64_t before = LogSize();
  auto without_proof = client_.Get(hosted.base + "/document");
  ExpectRefused(without_proof, 401, "SIGNER_AUTHENTICATION_REQUIRED", before);
  EXPECT_EQ(without_proof.Header("www-authenticate"), R"(SignerProof realm="hosted-signing")");
  const std::string sign = R"({"signatureText":"Ada Lovelace","consent":true})";
  ExpectRefused(client_.Post(hosted.base + "/complete", sign), 401,
                "SIGNER_AUTHENTICATION_REQUIRED", before);
  ExpectRefused(client_.Post(hosted.base + "/complete", sign, {{"Signer-Proof", "1.forged"}}), 401,
                "SIGNER_AUTHENTICATION_REQUIRED", before);
  ExpectRefused(client_.Post(hosted.base + "/decline", R"({"reason":"no"})"), 401,
                "SIGNER_AUTHENTICATION_REQUIRED", before);
  ExpectRefused(client_.Post(hosted.base + "/authentication", R"({"code":7})"), 400,
                "VALIDATION_FAILED", before, "code");
  ExpectRefused(GiveCode(hosted, std::string(65, '1')), 400, "VALIDATION_FAILED", before, "code");
  ExpectRefused(client_.Post(hosted.base + "/authentication/email-code", ""), 409,
                "SIGNING_SESSION_STATE_CONFLICT", before);

  auto proven = GiveCode(hosted, kAccessCode);
  ASSERT_EQ(proven.status, 200) << proven.body;
  const std::string proof(proven.Json().at("signerProof").as_string());
  EXPECT_EQ(LogSize(), before + 1);
  EXPECT_EQ(proven.body.find(kAccessCode), std::string::npos);

  auto again = client_.Get(hosted.base, {{"Signer-Proof", proof}});
  EXPECT_FALSE(again.Json().at("authentication").at("required").as_bool());
  EXPECT_EQ(again.Json().at("signerEmail").as_string(), "ada@acme.example");
  EXPECT_EQ(client_.Get(hosted.base + "/document", {{"Signer-Proof", proof}}).status, 200);
  auto signed_up = client_.Post(hosted.base + "/complete", sign, {{"Signer-Proof", proof}});
  ASSERT_EQ(signed_up.status, 200) << signed_up.body;

  auto completed = Trail(hosted.contract_id, "signer.completed");
  ASSERT_EQ(completed.size(), 1u);
  const auto& evidence = completed[0].at("details").at("evidence");
  EXPECT_EQ(evidence.at("authenticationMethod").as_string(), "access_code");
  EXPECT_TRUE(evidence.at("authenticatedAt").is_string());
  auto authenticated = Trail(hosted.contract_id, "signer.authenticated");
  ASSERT_EQ(authenticated.size(), 1u);
  EXPECT_EQ(authenticated[0].at("details").at("method").as_string(), "access_code");
}

TEST_F(SignerAuthenticationTest, WrongCodesAreCountedAndTheFifthLocksTheLink) {
  Hosted hosted = SentWithSession("Five wrong codes", AccessCodeMembers());
  for (int attempt = 1; attempt <= 5; ++attempt) {
    const uint64_t before = LogSize();
    auto wrong = GiveCode(hosted, "not-the-code");
    EXPECT_EQ(wrong.status, 401) << wrong.body;
    EXPECT_EQ(wrong.ErrorCode(), "SIGNER_AUTHENTICATION_FAILED");
    EXPECT_EQ(Detail(wrong, "code"), "wrong");
    EXPECT_EQ(Detail(wrong, "remainingAttempts"), std::to_string(5 - attempt));
    EXPECT_EQ(LogSize(), before + (attempt == 5 ? 2 : 1));
    if (attempt < 5) {
      EXPECT_EQ(client_.Get(hosted.base).Json().at("authentication").at("remainingAttempts"),
                5 - attempt);
    }
  }
  const uint64_t before = LogSize();
  ExpectRefused(client_.Get(hosted.base), 423, "SIGNING_SESSION_LOCKED", before);
  ExpectRefused(client_.Get(hosted.base + "/document"), 423, "SIGNING_SESSION_LOCKED", before);
  ExpectRefused(
      client_.Post(hosted.base + "/complete", R"({"signatureText":"Ada","consent":true})"), 423,
      "SIGNING_SESSION_LOCKED", before);
  ExpectRefused(GiveCode(hosted, kAccessCode), 423, "SIGNING_SESSION_LOCKED", before);

  auto failed = Trail(hosted.contract_id, "signer.authentication_failed");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].at("details").at("failedAttempts"), 5);
  EXPECT_EQ(failed[0].at("details").at("method").as_string(), "access_code");
  EXPECT_EQ(Trail(hosted.contract_id, "signer.authentication_attempt_failed", 5).size(), 5u);

  // A new session (a new link) lets the signer try again: counts are per session.
  object contract =
      client_.Get("/api/v1/contracts/" + hosted.contract_id, As("a")).Json().as_object();
  auto fresh = NewSession(hosted.contract_id, ParticipantId(contract, 0));
  ASSERT_EQ(fresh.status, 201) << fresh.body;
  Hosted next{hosted.contract_id, "", "/api/v1/hosted-signing/" + TokenOf(fresh)};
  EXPECT_EQ(GiveCode(next, kAccessCode).status, 200);
}

TEST_F(SignerAuthenticationTest, EmailCodesAreMailedAtAPaceAndExpire) {
  Hosted hosted = SentWithSession("Mailed codes", R"(,"authentication":"email_otp")");
  auto page = client_.Get(hosted.base);
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.Json().at("authentication").at("method").as_string(), "email_otp");
  EXPECT_EQ(page.Json().at("authentication").at("emailHint").as_string(), "a***@acme.example");

  uint64_t before = LogSize();
  auto sent = client_.Post(hosted.base + "/authentication/email-code", "");
  ASSERT_EQ(sent.status, 202) << sent.body;
  EXPECT_EQ(sent.Json().at("codesRemaining"), 4);
  EXPECT_EQ(LogSize(), before + 1);
  auto code_sent = Trail(hosted.contract_id, "signer.authentication_code_sent");
  ASSERT_EQ(code_sent.size(), 1u);
  EXPECT_EQ(code_sent[0].at("details").at("codeNumber"), 1);

  before = LogSize();
  auto too_soon = client_.Post(hosted.base + "/authentication/email-code", "{}");
  ExpectRefused(too_soon, 409, "SIGNER_CODE_TOO_SOON", before, "retryAfterSeconds");
  ExpectRefused(client_.Post(hosted.base + "/authentication/email-code", R"({"to":"x@y.z"})"), 400,
                "VALIDATION_FAILED", before, "to");

  // Ten minutes later the code is refused as expired, and the try counts.
  const std::string first = EmailCode(hosted.session_id, 1);
  AdvanceClock(601);
  auto expired = GiveCode(hosted, first);
  EXPECT_EQ(expired.status, 401) << expired.body;
  EXPECT_EQ(Detail(expired, "code"), "expired");
  EXPECT_EQ(Detail(expired, "remainingAttempts"), "4");

  // A new code replaces it; the old one is now wrong.
  ASSERT_EQ(client_.Post(hosted.base + "/authentication/email-code", "").status, 202);
  EXPECT_EQ(Detail(GiveCode(hosted, first), "code"), "wrong");
  auto proven = GiveCode(hosted, EmailCode(hosted.session_id, 2));
  ASSERT_EQ(proven.status, 200) << proven.body;
  const std::string proof(proven.Json().at("signerProof").as_string());
  EXPECT_EQ(client_.Get(hosted.base + "/document", {{"Signer-Proof", proof}}).status, 200);

  // At most five codes per session, one per 30 seconds.
  for (int n = 3; n <= 5; ++n) {
    AdvanceClock(31);
    EXPECT_EQ(client_.Post(hosted.base + "/authentication/email-code", "").status, 202);
  }
  AdvanceClock(31);
  before = LogSize();
  ExpectRefused(client_.Post(hosted.base + "/authentication/email-code", ""), 409,
                "SIGNER_CODE_LIMIT_REACHED", before);

  auto signed_up =
      client_.Post(hosted.base + "/complete", R"({"signatureText":"Ada Lovelace","consent":true})",
                   {{"Signer-Proof", proof}});
  ASSERT_EQ(signed_up.status, 200) << signed_up.body;
  auto completed = Trail(hosted.contract_id, "signer.completed");
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].at("details").at("evidence").at("authenticationMethod").as_string(),
            "email_otp");
}

}  // namespace
}  // namespace esign::testing
