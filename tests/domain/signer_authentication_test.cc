// The pure rules of signer authentication: participants' methods as read from a request, access
// codes replaced by their keyed hashes, typed codes checked, proofs, the masked address, and the
// counting of tries and codes that the contract decides.
#include "domain/signer_authentication.h"

#include <gtest/gtest.h>

#include "domain/contract.h"

namespace esign {
namespace {

const SignerSecrets kSecrets(std::string(32, 'k'));

Details ReadProblems(const std::string& json) {
  Details validation;
  Details routing;
  size_t next = 0;
  (void)ReadParticipants(boost::json::parse(json), "participants", {"prt_1", "prt_2"}, &next,
                         validation, routing);
  return validation;
}

std::string FieldsOf(const Details& details) {
  std::string out;
  for (const auto& d : details) out += d.field + ";";
  return out;
}

constexpr std::string_view kHostedAda =
    R"({"action":"sign","recipientType":"individual","name":"Ada","email":"ada@acme.example",
        "executionChannel":"platform_hosted")";

TEST(SignerAuthenticationTest, ParticipantMethodsFollowTheRules) {
  const std::string ada(kHostedAda);
  EXPECT_TRUE(ReadProblems("[" + ada + "}]").empty());
  EXPECT_TRUE(ReadProblems("[" + ada + R"(,"authentication":"email_otp"}])").empty());
  EXPECT_TRUE(
      ReadProblems("[" + ada + R"(,"authentication":"access_code","accessCode":"1234"}])").empty());
  EXPECT_EQ(FieldsOf(ReadProblems("[" + ada + R"(,"authentication":"sms"}])")),
            "participants[0].authentication;");
  EXPECT_EQ(FieldsOf(ReadProblems("[" + ada + R"(,"authentication":"access_code"}])")),
            "participants[0].accessCode;");
  EXPECT_EQ(FieldsOf(ReadProblems("[" + ada + R"(,"accessCode":"12345"}])")),
            "participants[0].accessCode;");
  EXPECT_EQ(FieldsOf(ReadProblems("[" + ada +
                                  R"(,"authentication":"access_code","accessCode":"a\tbc"}])")),
            "participants[0].accessCode;");
  EXPECT_EQ(FieldsOf(ReadProblems("[" + ada + R"(,"authentication":"access_code","accessCode":")" +
                                  std::string(65, 'x') + "\"}]")),
            "participants[0].accessCode;");
  EXPECT_EQ(FieldsOf(ReadProblems(
                R"([{"action":"sign","recipientType":"individual","name":"Grace",
                     "email":"g@globex.example","executionChannel":"integrator_managed",
                     "authentication":"email_otp"}])")),
            "participants[0].authentication;");
  EXPECT_EQ(FieldsOf(ReadProblems(
                R"([{"action":"view","recipientType":"individual","name":"Vic",
                     "email":"v@acme.example","authentication":"access_code",
                     "accessCode":"1234"}])")),
            "participants[0].authentication;");
}

TEST(SignerAuthenticationTest, AccessCodesAreReplacedByTheirKeyedHash) {
  Participant ada;
  ada.participant_id = "prt_ada";
  ada.name = "Ada";
  ada.authentication = SignerAuthentication::kAccessCode;
  ada.access_code = "open-sesame";
  std::vector<DomainEvent> events{
      DomainEvent{std::string(event_type::kContractCreated),
                  {{"contractId", "ctr_1"},
                   {"participants", boost::json::array{ParticipantToEventJson(ada)}}}}};
  std::vector<DomainEvent> unkept = events;
  EXPECT_EQ(HashAccessCodes(unkept, nullptr).error().code, ErrorCode::kUnavailable);

  ASSERT_TRUE(HashAccessCodes(events, &kSecrets));
  const auto& stored = events[0].data.at("participants").as_array()[0].as_object();
  EXPECT_FALSE(stored.contains("accessCode"));
  EXPECT_EQ(stored.at("accessCodeHash").as_string(),
            kSecrets.AccessCodeHash("ctr_1", "prt_ada", "open-sesame"));
  EXPECT_EQ(boost::json::serialize(events[0].data).find("open-sesame"), std::string::npos);

  Participant read = ParticipantFromEventJson(stored);
  SigningSession session;
  session.session_id = "ses_1";
  EXPECT_EQ(CheckSignerCode("ctr_1", session, read, "open-sesame", kSecrets, "2026-01-01"),
            SignerCodeCheck::kMatched);
  EXPECT_EQ(CheckSignerCode("ctr_1", session, read, "open-sesamE", kSecrets, "2026-01-01"),
            SignerCodeCheck::kWrong);
  EXPECT_EQ(CheckSignerCode("ctr_2", session, read, "open-sesame", kSecrets, "2026-01-01"),
            SignerCodeCheck::kWrong);
}

TEST(SignerAuthenticationTest, EmailCodesMatchTheLatestWhileUnexpired) {
  Participant ada;
  ada.participant_id = "prt_ada";
  ada.authentication = SignerAuthentication::kEmailOtp;
  SigningSession session;
  session.session_id = "ses_1";
  const std::string now = "2026-01-01T10:00:00.000000Z";
  EXPECT_EQ(CheckSignerCode("ctr_1", session, ada, kSecrets.EmailCode("ses_1", 0), kSecrets, now),
            SignerCodeCheck::kWrong);
  session.codes_sent = 2;
  session.code_expires_at = "2026-01-01T10:10:00.000000Z";
  EXPECT_EQ(CheckSignerCode("ctr_1", session, ada, kSecrets.EmailCode("ses_1", 2), kSecrets, now),
            SignerCodeCheck::kMatched);
  EXPECT_EQ(CheckSignerCode("ctr_1", session, ada, kSecrets.EmailCode("ses_1", 1), kSecrets, now),
            SignerCodeCheck::kWrong);
  EXPECT_EQ(CheckSignerCode("ctr_1", session, ada, kSecrets.EmailCode("ses_1", 2), kSecrets,
                            "2026-01-01T10:10:00.000000Z"),
            SignerCodeCheck::kExpired);
}

TEST(SignerAuthenticationTest, ProofsNameAnAuthenticationOfTheirSession) {
  SigningSession session;
  session.session_id = "ses_1";
  const std::string proof = SignerProofHeader(kSecrets, "ses_1", 1);
  EXPECT_FALSE(ProvenAuthentication(kSecrets, session, proof)) << "before any authentication";
  session.authenticated_at = {"2026-01-01T10:00:00.000000Z"};
  EXPECT_EQ(ProvenAuthentication(kSecrets, session, proof), 1);
  EXPECT_FALSE(ProvenAuthentication(kSecrets, session, SignerProofHeader(kSecrets, "ses_2", 1)));
  EXPECT_FALSE(ProvenAuthentication(kSecrets, session, SignerProofHeader(kSecrets, "ses_1", 2)));
  EXPECT_FALSE(ProvenAuthentication(kSecrets, session, ""));
  EXPECT_FALSE(ProvenAuthentication(kSecrets, session, "1." + std::string(43, 'A')));
  EXPECT_FALSE(ProvenAuthentication(kSecrets, session, "x" + proof));
}

TEST(SignerAuthenticationTest, AddressesAreMasked) {
  EXPECT_EQ(MaskedEmail("jane@example.com"), "j***@example.com");
  EXPECT_EQ(MaskedEmail("no-at-sign"), "***");
}

// A contract out for signing with one hosted session of a signer who uses `method`.
ContractState SignerWith(SignerAuthentication method) {
  ContractState state;
  state.id = "ctr_1";
  state.version = 3;
  state.status = ContractStatus::kSent;
  Participant ada;
  ada.participant_id = "prt_ada";
  ada.action = ParticipantAction::kSign;
  ada.execution_channel = ExecutionChannel::kPlatformHosted;
  ada.progress = ParticipantProgress::kReady;
  ada.authentication = method;
  state.participants.push_back(ada);
  SigningSession session;
  session.session_id = "ses_1";
  session.participant_id = "prt_ada";
  session.token_sha256 = std::string(64, 'a');
  session.expires_at = "2026-01-02T00:00:00.000000Z";
  state.sessions.push_back(session);
  return state;
}

DecisionContext At(std::string now) {
  DecisionContext context;
  context.now = std::move(now);
  return context;
}

TEST(SignerAuthenticationTest, TheFifthFailureLocksTheSession) {
  ContractState state = SignerWith(SignerAuthentication::kAccessCode);
  const RecordSignerAuthentication wrong{"ses_1", std::string(64, 'a'), SignerCodeCheck::kWrong};
  for (int attempt = 1; attempt <= 5; ++attempt) {
    auto events = Decide(state, wrong, At("2026-01-01T10:00:00.000000Z"));
    ASSERT_TRUE(events) << events.error().message;
    ASSERT_EQ(events->size(), attempt == 5 ? 2u : 1u);
    EXPECT_EQ((*events)[0].data.at("failedAttempts"), attempt);
    for (const auto& event : *events) state = Apply(std::move(state), event);
  }
  EXPECT_TRUE(state.sessions[0].locked);
  EXPECT_EQ(Decide(state, wrong, At("2026-01-01T10:00:00.000000Z")).error().code,
            ErrorCode::kSigningSessionLocked);
}

// The review found an e-mail code good for ten proofs (one per Signer-Proof): it proves once.
TEST(SignerAuthenticationTest, AnEmailCodeProvesTheSessionOnce) {
  ContractState state = SignerWith(SignerAuthentication::kEmailOtp);
  const Participant& ada = state.participants[0];
  const SendSignerCode send{"ses_1", std::string(64, 'a'), "2026-01-01T11:00:00.000000Z"};
  auto sent = Decide(state, send, At("2026-01-01T10:00:00.000000Z"));
  ASSERT_TRUE(sent) << sent.error().message;
  state = Apply(std::move(state), (*sent)[0]);
  const std::string code = kSecrets.EmailCode("ses_1", 1);
  const std::string now = "2026-01-01T10:01:00.000000Z";
  ASSERT_EQ(CheckSignerCode("ctr_1", state.sessions[0], ada, code, kSecrets, now),
            SignerCodeCheck::kMatched);
  const RecordSignerAuthentication matched{"ses_1", std::string(64, 'a'), SignerCodeCheck::kMatched,
                                           1};
  auto proven = Decide(state, matched, At(now));
  ASSERT_TRUE(proven) << proven.error().message;
  state = Apply(std::move(state), (*proven)[0]);

  EXPECT_EQ(CheckSignerCode("ctr_1", state.sessions[0], ada, code, kSecrets, now),
            SignerCodeCheck::kSpent);
  // Checked as matched by a request that read the session before the first proof: refused too.
  for (const SignerCodeCheck check : {SignerCodeCheck::kSpent, SignerCodeCheck::kMatched}) {
    auto again =
        Decide(state, RecordSignerAuthentication{"ses_1", std::string(64, 'a'), check, 1}, At(now));
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, ErrorCode::kSignerAuthenticationFailed);
    EXPECT_EQ(again.error().details, (std::vector<ErrorDetail>{{"code", "spent"}}));
  }
  // A new code, asked for as today, proves it again.
  auto resent = Decide(state, send, At("2026-01-01T10:02:00.000000Z"));
  ASSERT_TRUE(resent) << resent.error().message;
  state = Apply(std::move(state), (*resent)[0]);
  EXPECT_EQ(CheckSignerCode("ctr_1", state.sessions[0], ada, kSecrets.EmailCode("ses_1", 2),
                            kSecrets, now),
            SignerCodeCheck::kMatched);
  EXPECT_TRUE(Decide(
      state,
      RecordSignerAuthentication{"ses_1", std::string(64, 'a'), SignerCodeCheck::kMatched, 2},
      At(now)));
}

TEST(SignerAuthenticationTest, EmailCodesAreSentAtAPace) {
  ContractState state = SignerWith(SignerAuthentication::kEmailOtp);
  const SendSignerCode send{"ses_1", std::string(64, 'a'), "2026-01-01T11:00:00.000000Z"};
  auto first = Decide(state, send, At("2026-01-01T10:00:00.000000Z"));
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ((*first)[0].data.at("codeNumber"), 1);
  state = Apply(std::move(state), (*first)[0]);
  auto soon = Decide(state, send, At("2026-01-01T10:00:20.000000Z"));
  ASSERT_FALSE(soon);
  EXPECT_EQ(soon.error().code, ErrorCode::kSignerCodeTooSoon);
  EXPECT_EQ(soon.error().details[0].issue, "10");
  for (int n = 2; n <= 5; ++n) {
    auto next = Decide(state, send, At("2026-01-01T10:0" + std::to_string(n) + ":00.000000Z"));
    ASSERT_TRUE(next) << next.error().message;
    state = Apply(std::move(state), (*next)[0]);
  }
  EXPECT_EQ(Decide(state, send, At("2026-01-01T10:09:00.000000Z")).error().code,
            ErrorCode::kSignerCodeLimitReached);
  // An access-code signer is mailed nothing.
  EXPECT_EQ(
      Decide(SignerWith(SignerAuthentication::kAccessCode), send, At("2026-01-01T10:00:00.000000Z"))
          .error()
          .code,
      ErrorCode::kSigningSessionStateConflict);
}

}  // namespace
}  // namespace esign
