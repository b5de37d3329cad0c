// Void, expiry dates and reminders end to end over loopback HTTP (DESIGN section 14): a voided
// contract's links and sessions answer 410 SIGNING_SESSION_GONE, its status and the list show it,
// reminders are recorded once an hour at most, and signingSettings.expiresAt comes back from the
// contract, the status and the list. Every refusal leaves the log and the contract's version as
// they were.
#include <chrono>
#include <string>
#include <vector>

#include "base/time_text.h"
#include "tests/app/api_suite.h"
#include "tests/support/eventually.h"

namespace esign::testing {
namespace {

// The service's clock is the machine's: times relative to now.
std::string DaysFromNow(int64_t days) {
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  return FormatTimestamp(now + days * kMicrosPerDay);
}

int64_t Micros(const value& text) {
  return text.is_string() ? ParseTimestampMicros(text.as_string()).value_or(-1) : -1;
}

// The NDA with a viewer after its two signers (Ada hosted, Grace integrator-managed).
const std::string kViewer = R"(,{"action":"view","recipientType":"individual",
"name":"Victor Viewer","email":"victor@acme.example"})";

class LifecycleApiTest : public ApiSuite {
 protected:
  std::string Path(const std::string& id, const std::string& rest = "") {
    return "/api/v1/contracts/" + id + rest;
  }
  HttpResult Void(const std::string& id, const std::string& body, const std::string& who = "a",
                  std::map<std::string, std::string> headers = {}) {
    return client_.Post(Path(id, "/void"), body, As(who, std::move(headers)));
  }
  HttpResult Remind(const std::string& id, const std::string& body, const std::string& who = "a") {
    return client_.Post(Path(id, "/remind"), body, As(who));
  }
  object Get(const std::string& id, const std::string& rest = "") {
    auto response = client_.Get(Path(id, rest), As("a"));
    EXPECT_EQ(response.status, 200) << response.body;
    return response.Json().is_object() ? response.Json().as_object() : object{};
  }
  int64_t Version(const std::string& id) { return Get(id).at("version").as_int64(); }
  std::vector<std::string> AuditTypes(const std::string& id) {
    std::vector<std::string> types;
    const object trail = Get(id, "/evidence/audit-trail");
    for (const auto& entry : trail.at("events").as_array()) {
      types.emplace_back(entry.at("type").as_string());
    }
    return types;
  }
  std::vector<std::string> ListedIds(const std::string& query) {
    std::vector<std::string> ids;
    auto response = client_.Get("/api/v1/contracts" + query, As("a"));
    EXPECT_EQ(response.status, 200) << response.body;
    if (response.status != 200) return ids;
    for (const auto& item : response.Json().at("items").as_array()) {
      ids.emplace_back(item.at("id").as_string());
    }
    return ids;
  }
  bool Listed(const std::string& query, const std::string& id) {
    const auto ids = ListedIds(query);
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  }
  static std::string IdOf(const object& json) { return std::string(json.at("id").as_string()); }
  static const object& ParticipantOf(const object& contract, size_t index) {
    return contract.at("participants").as_array()[index].as_object();
  }
  static std::string SessionPath(const HttpResult& session) {
    return "/api/v1/signing-sessions/" + std::string(session.Json().at("sessionId").as_string());
  }
  // Grace signs through her integrator-managed session.
  void GraceSigns(const std::string& id, const std::string& grace) {
    auto session = NewSession(id, grace);
    ASSERT_EQ(session.status, 201) << session.body;
    auto signed_b = client_.Post(SessionPath(session) + "/complete", CompleteBody(), As("a"));
    ASSERT_EQ(signed_b.status, 200) << signed_b.body;
  }
  // A refusal with its documented status and code that changed neither the log nor the contract.
  void ExpectRefusedUnchanged(const HttpResult& response, int status, const std::string& code,
                              uint64_t log_before, const std::string& id, int64_t version_before,
                              const std::string& detail_field = "") {
    ExpectRefused(response, status, code, log_before, detail_field);
    EXPECT_EQ(Version(id), version_before) << "a refused request changed the contract";
  }
  // 410 SIGNING_SESSION_GONE saying why: the detail's issue is "voided" or "expired".
  void ExpectGone(const HttpResult& response, const std::string& issue, uint64_t log_before) {
    ExpectRefused(response, 410, "SIGNING_SESSION_GONE", log_before);
    const auto& details = response.Json().at("error").at("details").as_array();
    ASSERT_EQ(details.size(), 1u) << response.body;
    EXPECT_EQ(details[0].at("issue").as_string(), issue) << response.body;
  }
};

TEST_F(LifecycleApiTest, VoidingASentContractKillsItsLinksAndShowsEverywhere) {
  const object contract = Create("a", NdaBody("Voided after sending", true, true));
  const std::string id = IdOf(contract);
  ASSERT_EQ(contract.at("status"), "sent");
  const std::string ada = ParticipantId(contract, 0);
  const std::string grace = ParticipantId(contract, 1);
  auto hosted_session = NewSession(id, ada);
  ASSERT_EQ(hosted_session.status, 201) << hosted_session.body;
  auto grace_session = NewSession(id, grace);
  ASSERT_EQ(grace_session.status, 201) << grace_session.body;
  const std::string hosted = "/api/v1/hosted-signing/" + TokenOf(hosted_session);
  const std::string managed = SessionPath(grace_session);

  const std::string reason = "Sent to the wrong counterparty";
  const std::string body = R"({"reason":")" + reason + "\"}";
  auto voided = Void(id, body, "a", {{"Idempotency-Key", "void-" + id}});
  ASSERT_EQ(voided.status, 200) << voided.body;
  EXPECT_EQ(voided.Json().at("status"), "voided");
  EXPECT_EQ(voided.Json().at("voidReason").as_string(), reason);
  EXPECT_GT(Micros(voided.Json().at("voidedAt")), 0);
  EXPECT_TRUE(voided.Json().at("expiredAt").is_null());
  // The same key replays the answer and changes nothing.
  const uint64_t after = LogSize();
  auto replayed = Void(id, body, "a", {{"Idempotency-Key", "void-" + id}});
  EXPECT_EQ(replayed.status, 200) << replayed.body;
  EXPECT_EQ(replayed.Json().at("voidedAt"), voided.Json().at("voidedAt"));
  EXPECT_EQ(LogSize(), after);

  // The hosted link and every operation of it say why they are dead.
  ExpectGone(client_.Get(hosted), "voided", after);
  EXPECT_EQ(client_.Get(hosted).Json().at("error").at("details").at(0).at("field"), "token");
  ExpectGone(client_.Get(hosted + "/document"), "voided", after);
  ExpectGone(client_.Post(hosted + "/complete", R"({"signatureText":"Ada","consent":true})"),
             "voided", after);
  ExpectGone(client_.Post(hosted + "/decline", R"({"reason":"no"})"), "voided", after);
  // So do the integrator's operations on its session; reading it shows it cancelled.
  ExpectGone(client_.Post(managed + "/cancel", "", As("a")), "voided", after);
  ExpectGone(client_.Post(managed + "/refresh", "", As("a")), "voided", after);
  ExpectGone(client_.Post(managed + "/complete", CompleteBody(), As("a")), "voided", after);
  ExpectGone(client_.Post(managed + "/decline", R"({"reason":"no"})", As("a")), "voided", after);
  auto read = client_.Get(managed, As("a"));
  ASSERT_EQ(read.status, 200) << read.body;
  EXPECT_EQ(read.Json().at("state"), "cancelled");
  EXPECT_EQ(read.Json().at("cancelReason"), "contract_voided");

  const object status = Get(id, "/status");
  EXPECT_EQ(status.at("status"), "voided");
  EXPECT_EQ(status.at("lifecycle").at("voidedAt"), voided.Json().at("voidedAt"));
  EXPECT_EQ(status.at("lifecycle").at("voidReason").as_string(), reason);
  EXPECT_EQ(status.at("lifecycle").at("expiresAt"), voided.Json().at("expiresAt"));

  EXPECT_TRUE(Listed("?status=voided", id));
  EXPECT_FALSE(Listed("?status=sent", id));
  const std::string voided_at(voided.Json().at("voidedAt").as_string());
  EXPECT_TRUE(Listed("?dateField=voidedAt&from=" + voided_at, id));
  EXPECT_FALSE(Listed("?dateField=expiredAt&from=2000-01-01", id));

  const auto types = AuditTypes(id);
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.back(), "contract.voided");

  // Voided is final.
  const int64_t version = Version(id);
  ExpectRefusedUnchanged(Void(id, R"({"reason":"again"})"), 409, "CONTRACT_STATE_CONFLICT", after,
                         id, version, "status");
  ExpectRefusedUnchanged(Remind(id, ""), 409, "CONTRACT_STATE_CONFLICT", after, id, version);
  ExpectRefusedUnchanged(NewSession(id, ada), 409, "CONTRACT_STATE_CONFLICT", after, id, version);
}

TEST_F(LifecycleApiTest, ADraftCanBeVoided) {
  const std::string id = IdOf(Create("a", NdaBody("Voided draft", true)));
  auto voided = Void(id, R"({"reason":"No longer needed"})");
  ASSERT_EQ(voided.status, 200) << voided.body;
  EXPECT_EQ(voided.Json().at("status"), "voided");
  EXPECT_TRUE(voided.Json().at("sentAt").is_null());
  EXPECT_TRUE(voided.Json().at("expiresAt").is_null());
  EXPECT_TRUE(Listed("?status=voided", id));
  const uint64_t before = LogSize();
  ExpectRefusedUnchanged(client_.Post(Path(id, "/send"), "", As("a")), 409,
                         "CONTRACT_STATE_CONFLICT", before, id, Version(id));
}

TEST_F(LifecycleApiTest, BadVoidsAreRefusedAndChangeNothing) {
  const object contract = Create("a", NdaBody("Not voided", true, true));
  const std::string id = IdOf(contract);
  const uint64_t before = LogSize();
  const int64_t version = Version(id);
  // No body at all is refused as {} is: the missing reason is named.
  for (const std::string body : {"", "{}"}) {
    auto refused = Void(id, body);
    ExpectRefusedUnchanged(refused, 400, "VALIDATION_FAILED", before, id, version, "reason");
    EXPECT_EQ(refused.Json().at("error").at("message"), "a reason is required to void a contract");
    EXPECT_EQ(refused.Json().at("error").at("details"),
              boost::json::parse(R"([{"field":"reason","issue":"required"}])"));
  }
  ExpectRefusedUnchanged(Void(id, R"({"reason":""})"), 400, "VALIDATION_FAILED", before, id,
                         version, "reason");
  ExpectRefusedUnchanged(Void(id, R"({"reason":7})"), 400, "VALIDATION_FAILED", before, id, version,
                         "reason");
  ExpectRefusedUnchanged(Void(id, R"({"reason":")" + std::string(501, 'x') + "\"}"), 400,
                         "VALIDATION_FAILED", before, id, version, "reason");
  ExpectRefusedUnchanged(Void(id, R"({"reason":"x","colour":"blue"})"), 400, "VALIDATION_FAILED",
                         before, id, version, "colour");
  ExpectRefusedUnchanged(Void(id, R"({"reason":"x"})", "b"), 404, "CONTRACT_NOT_FOUND", before, id,
                         version);
  ExpectRefusedUnchanged(Void(id, R"({"reason":"x"})", "a_create_only"), 403, "PERMISSION_DENIED",
                         before, id, version);
  ExpectRefusedUnchanged(Void(id, R"({"reason":"x"})", "a_read_only"), 403, "PERMISSION_DENIED",
                         before, id, version);
  ExpectRefused(client_.Post(Path("ctr_does_not_exist", "/void"), R"({"reason":"x"})", As("a")),
                404, "CONTRACT_NOT_FOUND", before);

  // 500 characters are enough (characters, not bytes).
  std::string longest;
  for (int i = 0; i < 500; ++i) longest += "\xc3\xa9";  // é
  auto voided = Void(id, R"({"reason":")" + longest + "\"}");
  ASSERT_EQ(voided.status, 200) << voided.body;
  EXPECT_EQ(voided.Json().at("voidReason").as_string(), longest);
}

TEST_F(LifecycleApiTest, ACompletedContractCannotBeVoided) {
  const object contract = Create("a", NdaBody("Completed", true, true));
  const std::string id = IdOf(contract);
  auto hosted_session = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(hosted_session.status, 201) << hosted_session.body;
  auto signed_a = client_.Post("/api/v1/hosted-signing/" + TokenOf(hosted_session) + "/complete",
                               R"({"signatureText":"Ada Lovelace","consent":true})");
  ASSERT_EQ(signed_a.status, 200) << signed_a.body;
  GraceSigns(id, ParticipantId(contract, 1));
  ASSERT_EQ(Get(id).at("status"), "completed");

  const uint64_t before = LogSize();
  const int64_t version = Version(id);
  ExpectRefusedUnchanged(Void(id, R"({"reason":"too late"})"), 409, "CONTRACT_STATE_CONFLICT",
                         before, id, version, "status");
  ExpectRefusedUnchanged(Remind(id, ""), 409, "CONTRACT_STATE_CONFLICT", before, id, version);
}

TEST_F(LifecycleApiTest, RemindersAreRecordedAtMostOnceAnHour) {
  const object contract = Create("a", NdaBody("Reminded", true, true, kViewer));
  const std::string id = IdOf(contract);
  const std::string ada = ParticipantId(contract, 0);
  const std::string grace = ParticipantId(contract, 1);
  const std::string viewer = ParticipantId(contract, 2);
  EXPECT_EQ(ParticipantOf(contract, 0).at("reminderCount"), 0);
  EXPECT_TRUE(ParticipantOf(contract, 0).at("lastRemindedAt").is_null());
  EXPECT_FALSE(ParticipantOf(contract, 2).contains("reminderCount"));  // signers only

  auto reminded = Remind(id, R"({"participantIds":[")" + ada + "\"]}");
  ASSERT_EQ(reminded.status, 200) << reminded.body;
  const object& ada_now = ParticipantOf(reminded.Json().as_object(), 0);
  EXPECT_EQ(ada_now.at("reminderCount"), 1);
  EXPECT_GT(Micros(ada_now.at("lastRemindedAt")), 0);
  EXPECT_EQ(ParticipantOf(reminded.Json().as_object(), 1).at("reminderCount"), 0);
  EXPECT_EQ(AuditTypes(id).back(), "participant.reminded");
  const object status = Get(id, "/status");
  EXPECT_EQ(status.at("participants").at(0).at("reminderCount"), 1);
  EXPECT_EQ(status.at("participants").at(0).at("lastRemindedAt"), ada_now.at("lastRemindedAt"));

  uint64_t before = LogSize();
  int64_t version = Version(id);
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":[")" + ada + "\"]}"), 409,
                         "REMINDER_TOO_SOON", before, id, version, "participantIds[0]");
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":[")" + viewer + "\"]}"), 409,
                         "CONTRACT_STATE_CONFLICT", before, id, version, "participantIds[0]");
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":["prt_nobody"]})"), 404,
                         "PARTICIPANT_NOT_FOUND", before, id, version, "participantIds[0]");
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":")" + grace + "\"}"), 400,
                         "VALIDATION_FAILED", before, id, version, "participantIds");
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":[]})"), 400, "VALIDATION_FAILED", before,
                         id, version, "participantIds");
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":[")" + grace + R"(",")" + grace + "\"]}"),
                         400, "VALIDATION_FAILED", before, id, version, "participantIds[1]");
  ExpectRefusedUnchanged(Remind(id, R"({"channel":"sms"})"), 400, "VALIDATION_FAILED", before, id,
                         version, "channel");
  ExpectRefusedUnchanged(Remind(id, "", "b"), 404, "CONTRACT_NOT_FOUND", before, id, version);
  ExpectRefusedUnchanged(Remind(id, "", "a_create_only"), 403, "PERMISSION_DENIED", before, id,
                         version);

  // Without names: every signer waiting who was not reminded within the hour (Grace only).
  auto everyone = Remind(id, "");
  ASSERT_EQ(everyone.status, 200) << everyone.body;
  EXPECT_EQ(ParticipantOf(everyone.Json().as_object(), 0).at("reminderCount"), 1);
  EXPECT_EQ(ParticipantOf(everyone.Json().as_object(), 1).at("reminderCount"), 1);

  // Grace signs: she is not reminded again, and nobody else may be yet.
  GraceSigns(id, grace);
  before = LogSize();
  version = Version(id);
  ExpectRefusedUnchanged(Remind(id, R"({"participantIds":[")" + grace + "\"]}"), 409,
                         "CONTRACT_STATE_CONFLICT", before, id, version, "participantIds[0]");
  ExpectRefusedUnchanged(Remind(id, ""), 409, "REMINDER_TOO_SOON", before, id, version);
  size_t reminders = 0;
  for (const auto& type : AuditTypes(id)) reminders += type == "participant.reminded" ? 1 : 0;
  EXPECT_EQ(reminders, 2u);
}

TEST_F(LifecycleApiTest, RemindingWaitsForTheSignersTurn) {
  std::string body = NdaBody("Reminded in turn", true, true);
  const std::string grace = R"("name":"Grace Hopper","email":"grace@globex.example")";
  body.replace(body.find(grace), grace.size(), grace + R"(,"routingOrder":2)");
  const object contract = Create("a", body);
  const std::string id = IdOf(contract);
  const std::string draft = IdOf(Create("a", NdaBody("Reminded draft", true)));
  const uint64_t before = LogSize();
  const int64_t version = Version(id);
  ExpectRefusedUnchanged(
      Remind(id, R"({"participantIds":[")" + ParticipantId(contract, 1) + "\"]}"), 409,
      "SIGNING_OUT_OF_TURN", before, id, version, "participantIds[0]");
  // A draft is not out for signing.
  ExpectRefusedUnchanged(Remind(draft, ""), 409, "CONTRACT_STATE_CONFLICT", before, draft,
                         Version(draft));
}

TEST_F(LifecycleApiTest, ExpiresAtIsFixedAtSendAndShownEverywhere) {
  const std::string id = IdOf(Create("a", NdaBody("Expires", true)));
  const std::string expires_at = DaysFromNow(30);
  auto sent = client_.Post(Path(id, "/send"),
                           R"({"signingSettings":{"expiresAt":")" + expires_at + "\"}}", As("a"));
  ASSERT_EQ(sent.status, 200) << sent.body;
  EXPECT_EQ(sent.Json().at("status"), "sent");
  EXPECT_EQ(Micros(sent.Json().at("expiresAt")), Micros(value(expires_at)));
  EXPECT_EQ(sent.Json().at("signingSettings").at("expiresAt"), sent.Json().at("expiresAt"));
  EXPECT_EQ(Get(id, "/status").at("lifecycle").at("expiresAt"), sent.Json().at("expiresAt"));

  const std::string around =
      "?dateField=expiresAt&from=" + DaysFromNow(29) + "&to=" + DaysFromNow(31);
  auto listed = client_.Get("/api/v1/contracts" + around, As("a"));
  ASSERT_EQ(listed.status, 200) << listed.body;
  bool found = false;
  for (const auto& item : listed.Json().at("items").as_array()) {
    if (item.at("id").as_string() != id) continue;
    found = true;
    EXPECT_EQ(item.at("expiresAt"), sent.Json().at("expiresAt"));
  }
  EXPECT_TRUE(found) << listed.body;
  EXPECT_FALSE(Listed("?dateField=expiresAt&from=" + DaysFromNow(31), id));

  // expiresInDays alone: that many days after sending.
  const object in_days = Create("a", NdaBody("Expires in days", true));
  auto sent_in_days = client_.Post(Path(IdOf(in_days), "/send"),
                                   R"({"signingSettings":{"expiresInDays":10}})", As("a"));
  ASSERT_EQ(sent_in_days.status, 200) << sent_in_days.body;
  EXPECT_EQ(Micros(sent_in_days.Json().at("expiresAt")) - Micros(sent_in_days.Json().at("sentAt")),
            10 * kMicrosPerDay);
}

TEST_F(LifecycleApiTest, AnExpiredContractsLinksSayItExpired) {
  const std::string id = IdOf(Create("a", NdaBody("Expires in two seconds", true)));
  const std::string expires_at = FormatTimestamp(
      std::chrono::duration_cast<std::chrono::microseconds>(
          (std::chrono::system_clock::now() + std::chrono::seconds(2)).time_since_epoch())
          .count());
  auto sent = client_.Post(Path(id, "/send"),
                           R"({"signingSettings":{"expiresAt":")" + expires_at + "\"}}", As("a"));
  ASSERT_EQ(sent.status, 200) << sent.body;
  const object& contract = sent.Json().as_object();
  auto hosted_session = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(hosted_session.status, 201) << hosted_session.body;
  auto grace_session = NewSession(id, ParticipantId(contract, 1));
  ASSERT_EQ(grace_session.status, 201) << grace_session.body;
  // No session outlives the contract's expiry.
  EXPECT_EQ(Micros(grace_session.Json().at("expiresAt")), Micros(value(expires_at)));

  // The service expires the contract by itself, within moments of its time.
  EXPECT_TRUE(testing::Eventually([&] { return Get(id, "/status").at("status") == "expired"; }));
  const object status = Get(id, "/status");
  EXPECT_GE(Micros(status.at("lifecycle").at("expiredAt")), Micros(value(expires_at)));
  EXPECT_EQ(AuditTypes(id).back(), "contract.expired");

  const uint64_t after = LogSize();
  const std::string hosted = "/api/v1/hosted-signing/" + TokenOf(hosted_session);
  const std::string managed = SessionPath(grace_session);
  ExpectGone(client_.Get(hosted), "expired", after);
  ExpectGone(client_.Post(hosted + "/complete", R"({"signatureText":"Ada","consent":true})"),
             "expired", after);
  ExpectGone(client_.Post(managed + "/refresh", "", As("a")), "expired", after);
  ExpectGone(client_.Post(managed + "/complete", CompleteBody(), As("a")), "expired", after);
  const int64_t version = Version(id);
  ExpectRefusedUnchanged(Void(id, R"({"reason":"too late"})"), 409, "CONTRACT_STATE_CONFLICT",
                         after, id, version, "status");
  EXPECT_TRUE(Listed("?status=expired", id));
}

TEST_F(LifecycleApiTest, ExpiresAtMustBeAheadAndWithinAYear) {
  const auto with_expiry = [](const std::string& title, const std::string& at, bool send_now) {
    std::string body = NdaBody(title, true, send_now);
    body.insert(body.find(R"("templateId")"), R"("signingSettings":{"expiresAt":")" + at + "\"},");
    return body;
  };
  const std::string field = "signingSettings.expiresAt";
  uint64_t before = LogSize();
  for (const bool send_now : {false, true}) {
    ExpectRefused(
        client_.Post("/api/v1/contracts", with_expiry("Past", DaysFromNow(-1), send_now), As("a")),
        400, "VALIDATION_FAILED", before, field);
    ExpectRefused(client_.Post("/api/v1/contracts",
                               with_expiry("Too far", DaysFromNow(366), send_now), As("a")),
                  400, "VALIDATION_FAILED", before, field);
    ExpectRefused(client_.Post("/api/v1/contracts",
                               with_expiry("Not a time", "next tuesday", send_now), As("a")),
                  400, "VALIDATION_FAILED", before, field);
  }
  // Created with a valid one, it is kept for the send.
  const object kept = Create("a", with_expiry("Kept", DaysFromNow(7), true));
  EXPECT_EQ(kept.at("status"), "sent");
  EXPECT_EQ(kept.at("expiresAt"), kept.at("signingSettings").at("expiresAt"));

  // At send, the same checks; the draft stays a draft.
  const std::string id = IdOf(Create("a", NdaBody("Sent late", true)));
  before = LogSize();
  const int64_t version = Version(id);
  for (const std::string& at : {DaysFromNow(-1), DaysFromNow(366)}) {
    ExpectRefusedUnchanged(
        client_.Post(Path(id, "/send"), R"({"signingSettings":{"expiresAt":")" + at + "\"}}",
                     As("a")),
        400, "VALIDATION_FAILED", before, id, version, field);
  }
  EXPECT_EQ(Get(id).at("status"), "draft");
}

}  // namespace
}  // namespace esign::testing
