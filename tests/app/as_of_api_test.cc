// Point-in-time reads end to end (DESIGN section 16): a contract is driven through its life over
// loopback HTTP, the live GET /contracts/{id} and /status answers are captured after every step
// with the log position and time of the contract's last event, and each ?asOf= (by position and
// by time) must answer exactly what the live read answered then. Bad asOf values answer 400 and
// change nothing; a point before the contract existed, and a reader without a grant, answer 404.
#include <regex>
#include <string>
#include <vector>

#include "base/time_text.h"
#include "tests/app/api_suite.h"
#include "tests/support/eventually.h"

namespace esign::testing {
namespace {

// What a live read answered after one step of the contract's life.
struct Captured {
  std::string step;
  std::string contract;  // GET /contracts/{id}, the body as sent
  std::string status;    // GET /contracts/{id}/status
  std::string etag;
  uint64_t position = 0;    // of the contract's last event (the audit trail's last entry)
  std::string recorded_at;  // of that event
  size_t events = 0;        // of the contract so far
};

class AsOfApiTest : public ApiSuite {
 protected:
  static std::string Path(const std::string& id, const std::string& rest = "") {
    return "/api/v1/contracts/" + id + rest;
  }

  // Events in the log that the read side has not applied yet, from the service's own gauge.
  static uint64_t ProjectionLag() {
    HttpClient client(port_);
    const std::string metrics = client.Get("/metrics").body;
    std::smatch match;
    if (!std::regex_search(metrics, match, std::regex(R"(contractd_projection_lag_events (\d+))")))
      return 1;
    return std::stoull(match[1]);
  }

  // The live answers once every event so far is visible (hosted signers write without a token,
  // so read-your-writes does not cover their steps).
  Captured Capture(const std::string& step, const std::string& id) {
    EXPECT_TRUE(Eventually([] { return ProjectionLag() == 0; })) << step;
    Captured captured{step};
    auto contract = client_.Get(Path(id), As("a"));
    EXPECT_EQ(contract.status, 200) << contract.body;
    EXPECT_EQ(contract.Header("x-log-position"), "") << "a live read names no position";
    auto status = client_.Get(Path(id, "/status"), As("a"));
    EXPECT_EQ(status.status, 200) << status.body;
    auto trail = client_.Get(Path(id, "/evidence/audit-trail"), As("a"));
    EXPECT_EQ(trail.status, 200) << trail.body;
    const auto& last = trail.Json().at("events").as_array().back();
    captured.contract = contract.body;
    captured.status = status.body;
    captured.etag = contract.Header("etag");
    captured.position = last.at("position").to_number<uint64_t>();
    captured.recorded_at = std::string(last.at("recordedAt").as_string());
    captured.events = trail.Json().at("events").as_array().size();
    return captured;
  }

  // Both reads of `id` at `as_of` answer what `expected` captured, naming its position.
  void ExpectAsOf(const std::string& id, const std::string& as_of, const Captured& expected) {
    SCOPED_TRACE(expected.step + ", asOf=" + as_of);
    auto contract = client_.Get(Path(id) + "?asOf=" + as_of, As("a"));
    ASSERT_EQ(contract.status, 200) << contract.body;
    EXPECT_EQ(contract.body, expected.contract);
    EXPECT_EQ(contract.Header("etag"), expected.etag);
    EXPECT_EQ(contract.Header("x-log-position"), std::to_string(expected.position));
    auto status = client_.Get(Path(id, "/status") + "?asOf=" + as_of, As("a"));
    ASSERT_EQ(status.status, 200) << status.body;
    EXPECT_EQ(status.body, expected.status);
    EXPECT_EQ(status.Header("etag"), expected.etag);
    EXPECT_EQ(status.Header("x-log-position"), std::to_string(expected.position));
  }

  static std::string IdOf(const object& json) { return std::string(json.at("id").as_string()); }
  static std::string SessionPath(const HttpResult& session) {
    return "/api/v1/signing-sessions/" + std::string(session.Json().at("sessionId").as_string());
  }
};

TEST_F(AsOfApiTest, EveryStepOfAContractsLifeIsAnsweredAsItWasThen) {
  std::vector<Captured> steps;
  const object created = Create("a", NdaBody("As of", /*with_roles=*/true));
  const std::string id = IdOf(created);
  steps.push_back(Capture("created", id));

  auto edited = client_.Put(
      Path(id, "/data"), R"({"fieldValues":[{"key":"purpose","value":"A new purpose"}]})", As("a"));
  ASSERT_EQ(edited.status, 200) << edited.body;
  steps.push_back(Capture("edited", id));

  // Another contract's events in between: positions past a step's own answer as that step.
  const std::string voided_id = IdOf(Create("a", NdaBody("Voided later", true, true)));
  const Captured other_created = Capture("other created", voided_id);

  auto sent = client_.Post(Path(id, "/send"), "", As("a"));
  ASSERT_EQ(sent.status, 200) << sent.body;
  steps.push_back(Capture("sent", id));

  auto hosted = NewSession(id, ParticipantId(created, 0));
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  steps.push_back(Capture("hosted session", id));
  // Ada opens her link (which records nothing), then signs.
  ASSERT_EQ(client_.Get("/api/v1/hosted-signing/" + TokenOf(hosted)).status, 200);
  auto ada = client_.Post("/api/v1/hosted-signing/" + TokenOf(hosted) + "/complete",
                          R"({"signatureText":"Ada Lovelace","consent":true})");
  ASSERT_EQ(ada.status, 200) << ada.body;
  steps.push_back(Capture("ada signed", id));

  auto voided = client_.Post(Path(voided_id, "/void"), R"({"reason":"superseded"})", As("a"));
  ASSERT_EQ(voided.status, 200) << voided.body;
  const Captured other_voided = Capture("other voided", voided_id);

  auto managed = NewSession(id, ParticipantId(created, 1));
  ASSERT_EQ(managed.status, 201) << managed.body;
  steps.push_back(Capture("managed session", id));
  auto grace = client_.Post(SessionPath(managed) + "/complete", CompleteBody(), As("a"));
  ASSERT_EQ(grace.status, 200) << grace.body;
  steps.push_back(Capture("completed", id));
  ASSERT_EQ(client_.Get(Path(id), As("a")).Json().at("status"), "completed");

  auto bundle = client_.Post(Path(id, "/evidence/bundle"), "", As("a"));
  ASSERT_EQ(bundle.status, 201) << bundle.body;
  steps.push_back(Capture("evidence persisted", id));

  const auto trail = client_.Get(Path(id, "/evidence/audit-trail"), As("a"));
  const auto& events = trail.Json().at("events").as_array();
  ASSERT_EQ(events.size(), steps.back().events);
  for (size_t i = 0; i < steps.size(); ++i) {
    ExpectAsOf(id, std::to_string(steps[i].position), steps[i]);
    ExpectAsOf(id, steps[i].recorded_at, steps[i]);
    if (i + 1 == steps.size()) {
      ExpectAsOf(id, std::to_string(LogSize() - 1), steps[i]);
      continue;
    }
    // Until just before the next step's first event the contract stands as after this step;
    // the log records times that never go back, so a microsecond before that event's time too.
    const auto& next = events[steps[i].events];
    ExpectAsOf(id, std::to_string(next.at("position").to_number<uint64_t>() - 1), steps[i]);
    const int64_t next_at = *ParseTimestampMicros(next.at("recordedAt").as_string());
    if (next_at - 1 >= *ParseTimestampMicros(steps[i].recorded_at)) {
      ExpectAsOf(id, FormatTimestamp(next_at - 1), steps[i]);
    }
  }
  // A time with an offset ("+" written %2B in a query): the same instant.
  const int64_t completed_at = *ParseTimestampMicros(steps.back().recorded_at);
  std::string plus_one = FormatTimestamp(completed_at + kMicrosPerHour);
  plus_one.replace(plus_one.size() - 1, 1, "%2B01:00");
  ExpectAsOf(id, plus_one, steps.back());

  ExpectAsOf(voided_id, std::to_string(other_created.position), other_created);
  ExpectAsOf(voided_id, std::to_string(other_voided.position), other_voided);
  ExpectAsOf(voided_id, other_voided.recorded_at, other_voided);
  ExpectAsOf(voided_id, std::to_string(steps.back().position), other_voided);
}

TEST_F(AsOfApiTest, BeforeTheContractExistedIsNotFoundAsForAnUnknownOne) {
  const std::string id = IdOf(Create("a", NdaBody("Not yet", true)));
  const Captured created = Capture("created", id);
  ASSERT_GT(created.position, 0u);
  const uint64_t before = LogSize();
  const std::string created_at = created.recorded_at;
  const std::string earlier =
      FormatTimestamp(*ParseTimestampMicros(created.recorded_at) - kMicrosPerSecond);
  for (const std::string rest : {"", "/status"}) {
    for (const std::string& as_of : {std::to_string(created.position - 1), std::string("0"),
                                     earlier, std::string("2001-01-01T00:00:00Z")}) {
      SCOPED_TRACE(rest + " asOf=" + as_of);
      ExpectRefused(client_.Get(Path(id, rest) + "?asOf=" + as_of, As("a")), 404,
                    "CONTRACT_NOT_FOUND", before);
    }
    // An unknown contract answers the same at every point.
    ExpectRefused(
        client_.Get(Path("ctr_does_not_exist", rest) + "?asOf=" + std::to_string(created.position),
                    As("a")),
        404, "CONTRACT_NOT_FOUND", before);
    ExpectRefused(client_.Get(Path("ctr_does_not_exist", rest) + "?asOf=" + created_at, As("a")),
                  404, "CONTRACT_NOT_FOUND", before);
  }
}

TEST_F(AsOfApiTest, AReaderWithoutAGrantGetsTheAnswerItGetsToday) {
  const std::string id = IdOf(Create("a", NdaBody("Not for b", true, true)));
  const Captured sent = Capture("sent", id);
  const uint64_t before = LogSize();
  for (const std::string rest : {"", "/status"}) {
    const HttpResult live = client_.Get(Path(id, rest), As("b"));
    ExpectRefused(live, 404, "CONTRACT_NOT_FOUND", before);
    // Whatever asOf says, even something malformed: existence does not leak.
    for (const std::string& as_of :
         {std::to_string(sent.position), sent.recorded_at, std::string("-1"), std::string("x"),
          std::to_string(before + 10)}) {
      SCOPED_TRACE(rest + " asOf=" + as_of);
      const HttpResult then = client_.Get(Path(id, rest) + "?asOf=" + as_of, As("b"));
      ExpectRefused(then, 404, "CONTRACT_NOT_FOUND", before);
      EXPECT_EQ(then.Json().at("error").at("message"), live.Json().at("error").at("message"));
    }
    // And the permission is the live read's.
    ExpectRefused(client_.Get(Path(id, rest) + "?asOf=" + std::to_string(sent.position),
                              As("a_templates_only")),
                  403, "PERMISSION_DENIED", before);
    ExpectRefused(client_.Get(Path(id, rest) + "?asOf=" + std::to_string(sent.position)), 401,
                  "UNAUTHENTICATED", before);
  }
}

// A draft is the controller's workspace: an organization it names sees the contract from the send
// on, and asking for an earlier point answers what a contract it cannot see answers, by position
// and by time, for both representations. The controller sees every point.
TEST_F(AsOfApiTest, AnOrganizationSeesNoPointBeforeItsAccessBegan) {
  std::string body = NdaBody("Walk-away", true, false,
                             R"(,{"action":"view","recipientType":"organization",)"
                             R"("name":"Globex legal","organizationId":"org_b"})");
  const std::string internal = "INTERNAL: our walk-away price is 1.2M";
  body.replace(body.find("Evaluating a joint venture"), 26, internal);
  const std::string id = IdOf(Create("a", body));
  const Captured created = Capture("created", id);
  ASSERT_NE(created.contract.find(internal), std::string::npos);
  ASSERT_EQ(client_.Get(Path(id), As("b")).status, 404) << "a draft is not b's to see";
  auto edited = client_.Put(
      Path(id, "/data"), R"({"fieldValues":[{"key":"purpose","value":"Joint venture"}]})", As("a"));
  ASSERT_EQ(edited.status, 200) << edited.body;
  const Captured draft = Capture("edited", id);
  auto sent = client_.Post(Path(id, "/send"), "", As("a"));
  ASSERT_EQ(sent.status, 200) << sent.body;
  const Captured after_send = Capture("sent", id);
  ASSERT_EQ(client_.Get(Path(id), As("b")).status, 200) << "sent: b's viewer grant answers";

  const uint64_t before = LogSize();
  for (const std::string rest : {"", "/status"}) {
    const HttpResult unknown = client_.Get(Path("ctr_does_not_exist", rest), As("b"));
    for (const Captured* point : {&created, &draft}) {
      for (const std::string& as_of : {std::to_string(point->position), point->recorded_at}) {
        SCOPED_TRACE(rest + " asOf=" + as_of);
        const HttpResult then = client_.Get(Path(id, rest) + "?asOf=" + as_of, As("b"));
        ExpectRefused(then, 404, "CONTRACT_NOT_FOUND", before);
        EXPECT_EQ(then.Json().at("error").at("message"), unknown.Json().at("error").at("message"));
        EXPECT_EQ(then.body.find(internal), std::string::npos);
      }
    }
    for (const std::string& as_of : {std::to_string(after_send.position), after_send.recorded_at}) {
      SCOPED_TRACE(rest + " asOf=" + as_of);
      const HttpResult then = client_.Get(Path(id, rest) + "?asOf=" + as_of, As("b"));
      ASSERT_EQ(then.status, 200) << then.body;
      EXPECT_EQ(then.body, rest.empty() ? after_send.contract : after_send.status);
      EXPECT_EQ(then.Header("x-log-position"), std::to_string(after_send.position));
    }
  }
  for (const Captured& point : {created, draft, after_send}) {
    ExpectAsOf(id, std::to_string(point.position), point);
    ExpectAsOf(id, point.recorded_at, point);
  }
}

TEST_F(AsOfApiTest, BadAsOfValuesAreRefusedAndChangeNothing) {
  const std::string id = IdOf(Create("a", NdaBody("Bad asOf", true, true)));
  ASSERT_TRUE(Eventually([] { return ProjectionLag() == 0; }));
  const uint64_t before = LogSize();
  const std::string version = client_.Get(Path(id), As("a")).Header("etag");
  const std::vector<std::string> bad = {
      "",                      // empty
      "-1",                    // negative
      "-0",                    // negative zero is still a sign
      "%2B5",                  // "+5": a sign
      "%205",                  // " 5"
      "5%20",                  // "5 "
      "1.5",                   // not an integer
      "0x10",                  // not decimal
      "abc",                   // neither
      "%00",                   // a NUL byte
      std::to_string(before),  // the next position to be written: beyond the end of the log
      std::to_string(before + 1000),
      "18446744073709551615",        // the largest unsigned 64-bit number: beyond the log
      "18446744073709551616",        // too large for a position at all
      "99999999999999999999999999",  // likewise
      "2026-11-20",                  // a date, not a date-time
      "2026-11-20T10:00:00",         // no offset
      "2026-11-20%2010:00:00Z",      // a space for the T
      "2026-02-30T10:00:00Z",        // no such day
      "2026-11-20T25:00:00Z",        // no such hour
      "2999-01-01T00:00:00Z",        // the future
      FormatTimestamp(SystemClock::Instance().NowMicros() + kMicrosPerDay),  // likewise
  };
  for (const std::string rest : {"", "/status"}) {
    for (const std::string& as_of : bad) {
      SCOPED_TRACE(rest + " asOf=" + as_of);
      ExpectRefused(client_.Get(Path(id, rest) + "?asOf=" + as_of, As("a")), 400,
                    "VALIDATION_FAILED", before, "asOf");
    }
    SCOPED_TRACE(rest + " asOf given twice");
    ExpectRefused(client_.Get(Path(id, rest) + "?asOf=1&asOf=2", As("a")), 400, "VALIDATION_FAILED",
                  before, "asOf");
    ExpectRefused(client_.Get(Path(id, rest) + "?asOf", As("a")), 400, "VALIDATION_FAILED", before,
                  "asOf");
  }
  auto live = client_.Get(Path(id), As("a"));
  EXPECT_EQ(live.Header("etag"), version) << "a refused read changed the contract";
}

}  // namespace
}  // namespace esign::testing
