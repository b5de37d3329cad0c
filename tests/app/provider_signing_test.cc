// Organization signers through signing providers, end to end: providers configured with
// `contractd providers add` while the service runs, the provider's start request received by a
// real HTTP receiver on loopback, and HMAC-signed callbacks, in both organization signing modes.
// Bad, stale, replayed and duplicate callbacks change nothing.
#include <fstream>

#include "app/provider_notices.h"
#include "http/provider_callback_routes.h"
#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/http_receiver.h"
#include "tests/support/temp_dir.h"

namespace esign::testing {
namespace {

constexpr char kSecret[] = "provider-secret-0123456789";

// The services agreement: the client signs first (integrator_managed), then the provider
// organization through its signing provider; a project observer views.
std::string ServicesBody(const std::string& template_id, const std::string& provider) {
  return R"({"title":"Services with a provider","templateId":")" + template_id +
         R"(","sendNow":true,
"data":{"parties":{"clientName":"Client AG","clientAddress":"Bahnhofstrasse 1, Zurich",
"providerName":"Provider BV","providerRegistrationNumber":"NL-123","billingEmail":"billing@provider.example"},
"engagement":{"effectiveDate":"2026-12-01","scopeOfServices":"Cloud migration of the billing system.",
"currency":"EUR","totalFee":"1200.00","paymentTermsDays":30,"governingLaw":"Netherlands",
"paymentMilestones":[{"description":"All","dueDate":"2027-01-31","amount":"1200.00"}]}},
"participants":[
{"action":"sign","recipientType":"individual","executionChannel":"integrator_managed",
 "name":"Clara Client","email":"clara@client.example","templateRoleId":"client_signatory"},
{"action":"sign","recipientType":"organization","executionChannel":"provider_managed",
 "name":"Provider BV","organizationId":"org_provider","templateRoleId":"provider_company",
 "providerConfigRef":")" +
         provider + R"("},
{"action":"view","recipientType":"individual","name":"Otto Observer","email":"otto@client.example",
 "templateRoleId":"project_observer"}]})";
}

std::string Now() {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count());
}

class ProviderSigningTest : public ApiSuite {
 protected:
  void AddProvider(const std::string& id, const std::string& start_url) {
    auto added = RunContractd({"providers", "add", "--data-dir", data_dir_.string(), "--id", id,
                               "--secret", kSecret, "--start-url", start_url});
    ASSERT_EQ(added.exit_code, 0) << added.err;
  }
  HttpResult Callback(const std::string& provider, const std::string& body,
                      const std::string& timestamp, const std::string& secret = kSecret) {
    return client_.Post(
        "/api/v1/provider-callbacks/" + provider, body,
        {{"X-Provider-Timestamp", timestamp},
         {"X-Provider-Signature", http::ProviderSignature(secret, timestamp, body)}});
  }
  // The provider reports that its signer signed.
  HttpResult ReportCompleted(const std::string& provider, const std::string& event_id,
                             const std::string& session_id) {
    return Callback(provider,
                    R"({"eventId":")" + event_id + R"(","sessionId":")" + session_id +
                        R"(","outcome":"completed","signerName":"Petra Provider"})",
                    Now());
  }
  // Signs as the client through its integrator_managed session.
  void ClientSigns(const std::string& contract_id, const std::string& participant_id) {
    auto session = client_.Post("/api/v1/contracts/" + contract_id + "/signing-sessions",
                                R"({"participantId":")" + participant_id + R"("})", As("a"));
    ASSERT_EQ(session.status, 201) << session.body;
    auto done =
        client_.Post("/api/v1/signing-sessions/" +
                         std::string(session.Json().at("sessionId").as_string()) + "/complete",
                     R"({"signerName":"Clara Client","signedAt":")" + SignedAtNow() +
                         R"(","ipAddress":"192.0.2.1",
"userAgent":"Integrator/1","authenticationMethod":"password","consent":true})",
                     As("a"));
    ASSERT_EQ(done.status, 200) << done.body;
  }
  std::vector<object> Sessions(const std::string& contract_id) {
    auto list = client_.Get("/api/v1/contracts/" + contract_id + "/signing-sessions", As("a"));
    std::vector<object> out;
    for (const auto& s : list.Json().at("items").as_array()) out.push_back(s.as_object());
    return out;
  }
  static std::string Pid(const object& contract, size_t index) {
    return std::string(
        contract.at("participants").as_array()[index].at("participantId").as_string());
  }
  // A contract whose client has signed, so that the provider's session (automatic mode) is open.
  struct OpenProviderSession {
    object contract;
    std::string id;
    std::string session_id;
  };
  OpenProviderSession ClientSignedContract(const std::string& provider_id,
                                           const HttpReceiver& provider) {
    AddProvider(provider_id, provider.Url("/start"));
    OpenProviderSession open;
    open.contract = Create("a", ServicesBody("tpl_services_agreement", provider_id));
    open.id = std::string(open.contract.at("id").as_string());
    ClientSigns(open.id, Pid(open.contract, 0));
    auto sessions = Sessions(open.id);
    EXPECT_EQ(sessions.size(), 2u);
    if (sessions.size() == 2)
      open.session_id = std::string(sessions[1].at("sessionId").as_string());
    return open;
  }
};

// The request carries the provider's signature over its timestamp and body.
void ExpectSignedForTheProvider(const ReceivedRequest& request) {
  EXPECT_EQ(
      request.headers.at("x-provider-signature"),
      http::ProviderSignature(kSecret, request.headers.at("x-provider-timestamp"), request.body));
}

TEST_F(ProviderSigningTest, AutomaticModeStartsTheProviderAndACallbackCompletes) {
  HttpReceiver provider;
  AddProvider("acme-sign", provider.Url("/start"));
  object contract = Create("a", ServicesBody("tpl_services_agreement", "acme-sign"));
  const std::string id(contract.at("id").as_string());
  ASSERT_EQ(contract.at("organizationSigningMode").as_string(), "automatic");
  EXPECT_TRUE(Sessions(id).empty());  // the organization's turn has not come

  ClientSigns(id, Pid(contract, 0));
  // The client's signature brought the organization's turn: its session started by itself.
  auto sessions = Sessions(id);
  ASSERT_EQ(sessions.size(), 2u);
  const object& org_session = sessions[1];
  EXPECT_EQ(org_session.at("channel").as_string(), "provider_managed");
  EXPECT_TRUE(org_session.at("automatic").as_bool());
  EXPECT_EQ(org_session.at("providerId").as_string(), "acme-sign");
  const std::string session_id(org_session.at("sessionId").as_string());

  // The provider was asked to start, with a request it can authenticate.
  ASSERT_TRUE(provider.WaitFor(1, std::chrono::seconds(10)));
  const ReceivedRequest start = provider.Requests().front();
  EXPECT_EQ(start.target, "/start");
  ExpectSignedForTheProvider(start);
  auto start_body = boost::json::parse(start.body).as_object();
  EXPECT_EQ(start_body.at("sessionId").as_string(), session_id);
  EXPECT_FALSE(start_body.at("documentBase64").as_string().empty());

  const std::string completed = R"({"eventId":"evt-1","sessionId":")" + session_id +
                                R"(","outcome":"completed","signerName":"Petra Provider"})";
  uint64_t before = LogSize();
  ExpectRefused(Callback("acme-sign", completed, Now(), "wrong-secret-0123456789"), 401,
                "PROVIDER_SIGNATURE_INVALID", before, "X-Provider-Signature");
  ExpectRefused(Callback("acme-sign", completed, std::to_string(std::stoll(Now()) - 600)), 401,
                "PROVIDER_SIGNATURE_INVALID", before, "X-Provider-Timestamp");
  ExpectRefused(client_.Post("/api/v1/provider-callbacks/acme-sign", completed), 401,
                "PROVIDER_SIGNATURE_INVALID", before);
  // An unknown provider is told apart from a wrong signature by nothing but the request id, so
  // provider ids cannot be enumerated without credentials.
  auto unknown = Callback("nobody", completed, Now());
  ExpectRefused(unknown, 401, "PROVIDER_SIGNATURE_INVALID", before, "X-Provider-Signature");
  EXPECT_EQ(unknown.Header("www-authenticate"), R"(ProviderSignature realm="provider-callbacks")");
  auto wrong = Callback("acme-sign", completed, Now(), "wrong-secret-0123456789");
  auto without_request_id = [](const HttpResult& response) {
    object error = response.Json().at("error").as_object();
    error.erase("requestId");
    return boost::json::serialize(error);
  };
  EXPECT_EQ(without_request_id(unknown), without_request_id(wrong));
  ExpectRefused(
      Callback("acme-sign",
               R"({"eventId":"evt-0","sessionId":")" + session_id + R"(","outcome":"maybe"})",
               Now()),
      400, "VALIDATION_FAILED", before, "outcome");
  ExpectRefused(
      Callback("acme-sign", R"({"eventId":"evt-0","sessionId":"ses_other","outcome":"completed"})",
               Now()),
      404, "SIGNING_SESSION_NOT_FOUND", before);

  const std::string timestamp = Now();
  auto accepted = Callback("acme-sign", completed, timestamp);
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  EXPECT_FALSE(accepted.Json().at("duplicate").as_bool());
  EXPECT_EQ(accepted.Json().at("contractStatus").as_string(), "completed");

  before = LogSize();
  ExpectRefused(Callback("acme-sign", completed, timestamp), 409, "PROVIDER_CALLBACK_REPLAYED",
                before);
  // The provider retries (a new request): acknowledged, nothing recorded twice.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto duplicate = Callback("acme-sign", completed, Now());
  ASSERT_EQ(duplicate.status, 200) << duplicate.body;
  EXPECT_TRUE(duplicate.Json().at("duplicate").as_bool());
  EXPECT_EQ(LogSize(), before);

  auto status = client_.Get("/api/v1/contracts/" + id + "/status", As("a"));
  EXPECT_EQ(status.Json().at("status").as_string(), "completed");
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a")).status, 200);
}

TEST_F(ProviderSigningTest, ManualModeWaitsForTheIntegrator) {
  // The services agreement as a template whose organization signing mode is manual.
  std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/services-agreement.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto tmpl = boost::json::parse(text).as_object();
  tmpl["templateId"] = "tpl_services_manual";
  for (auto& version : tmpl["versions"].as_array()) {
    version.as_object()["settings"].as_object()["organizationSigningMode"] = "manual";
  }
  const std::string file = (data_dir_ / "services-manual.json").string();
  std::ofstream(file) << boost::json::serialize(tmpl);
  auto imported = RunContractd({"templates", "import", "--data-dir", data_dir_.string(), file});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;

  HttpReceiver provider;
  AddProvider("manual-sign", provider.Url("/begin"));
  object contract = Create("a", ServicesBody("tpl_services_manual", "manual-sign"));
  const std::string id(contract.at("id").as_string());
  ASSERT_EQ(contract.at("organizationSigningMode").as_string(), "manual");
  ClientSigns(id, Pid(contract, 0));
  EXPECT_EQ(Sessions(id).size(), 1u);  // nothing started by itself

  auto session = client_.Post("/api/v1/contracts/" + id + "/signing-sessions",
                              R"({"participantId":")" + Pid(contract, 1) + R"("})", As("a"));
  ASSERT_EQ(session.status, 201) << session.body;
  EXPECT_FALSE(session.Json().at("automatic").as_bool());
  const std::string session_id(session.Json().at("sessionId").as_string());
  ASSERT_TRUE(provider.WaitFor(1, std::chrono::seconds(10)));
  EXPECT_EQ(provider.Requests().front().target, "/begin");

  auto completed = Callback("manual-sign",
                            R"({"eventId":"m-1","sessionId":")" + session_id +
                                R"(","outcome":"completed","signerName":"Petra Provider"})",
                            Now());
  ASSERT_EQ(completed.status, 200) << completed.body;
  EXPECT_EQ(completed.Json().at("contractStatus").as_string(), "completed");
}

TEST_F(ProviderSigningTest, AProviderDeclineEndsTheContract) {
  HttpReceiver provider;
  const auto [contract, id, session_id] = ClientSignedContract("decline-sign", provider);
  ASSERT_FALSE(session_id.empty());
  auto declined = Callback("decline-sign",
                           R"({"eventId":"d-1","sessionId":")" + session_id +
                               R"(","outcome":"declined","reason":"Fee not approved"})",
                           Now());
  ASSERT_EQ(declined.status, 200) << declined.body;
  EXPECT_EQ(declined.Json().at("contractStatus").as_string(), "declined");
  EXPECT_EQ(Sessions(id)[1].at("state").as_string(), "declined");
}

TEST_F(ProviderSigningTest, ACallbackForACancelledSessionIsGone) {
  HttpReceiver provider;
  const auto [contract, id, session_id] = ClientSignedContract("cancel-sign", provider);
  ASSERT_FALSE(session_id.empty());
  auto cancelled = client_.Post("/api/v1/signing-sessions/" + session_id + "/cancel", "", As("a"));
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;

  const uint64_t before = LogSize();
  ExpectRefused(ReportCompleted("cancel-sign", "c-1", session_id), 410, "SIGNING_SESSION_CANCELLED",
                before);
  EXPECT_EQ(Sessions(id)[1].at("state").as_string(), "cancelled");
}

TEST_F(ProviderSigningTest, VoidingTellsTheProviderItsSessionEnded) {
  HttpReceiver provider;
  const auto [contract, id, session_id] = ClientSignedContract("void-sign", provider);
  ASSERT_FALSE(session_id.empty());
  ASSERT_TRUE(provider.WaitFor(1, std::chrono::seconds(10)));
  EXPECT_EQ(boost::json::parse(provider.Requests().front().body).at("type"), "session.started");

  auto voided = client_.Post("/api/v1/contracts/" + id + "/void",
                             R"({"reason":"The provider was replaced"})", As("a"));
  ASSERT_EQ(voided.status, 200) << voided.body;
  // The provider hears of it at its start URL, signed like the start request.
  ASSERT_TRUE(provider.WaitFor(2, std::chrono::seconds(10)));
  const ReceivedRequest cancel = provider.Requests()[1];
  EXPECT_EQ(cancel.target, "/start");
  ExpectSignedForTheProvider(cancel);
  const object body = boost::json::parse(cancel.body).as_object();
  EXPECT_EQ(body, (object{{"type", "session.cancelled"},
                          {"sessionId", session_id},
                          {"contractId", id},
                          {"participantId", Pid(contract, 1)},
                          {"reason", "contract_voided"}}));

  // A provider that reports anyway is told the session is gone, and nothing is recorded.
  const uint64_t before = LogSize();
  ExpectRefused(ReportCompleted("void-sign", "v-1", session_id), 410, "SIGNING_SESSION_GONE",
                before);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(provider.Requests().size(), 2u);  // told once
}

// A provider down at first (it answers 503 and asks for 8 s, longer than three quick attempts
// would last) gets the start notice once it is up: the notice waits on the retry schedule.
TEST_F(ProviderSigningTest, AProviderDownAtFirstGetsTheStartNoticeOnceUp) {
  HttpReceiver provider;
  provider.SetStatus(503, "8");
  const auto [contract, id, session_id] = ClientSignedContract("later-sign", provider);
  ASSERT_FALSE(session_id.empty());
  ASSERT_TRUE(provider.WaitFor(1, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::seconds(7));
  provider.SetStatus(200);
  const size_t refused = provider.Requests().size();
  ASSERT_TRUE(provider.WaitFor(refused + 1, std::chrono::seconds(20)));
  const std::vector<ReceivedRequest> requests = provider.Requests();
  for (const ReceivedRequest& request : requests) {
    ExpectSignedForTheProvider(request);
    const object body = boost::json::parse(request.body).as_object();
    EXPECT_EQ(body.at("type"), "session.started");
    EXPECT_EQ(body.at("sessionId"), session_id.c_str());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(provider.Requests().size(), refused + 1);  // delivered once it answered 200
}

// Expiry cannot be brought about in a running contractd without waiting for it: the notices of
// a contract.expired are made from an expired contract directly.
TEST(ProviderNoticesTest, AnExpiredContractsOpenSessionsAreCancelledWithTheirReason) {
  ContractState contract;
  contract.id = "ctr_1";
  contract.status = ContractStatus::kExpired;
  SigningSession session{.session_id = "ses_1",
                         .participant_id = "prt_2",
                         .channel = ExecutionChannel::kProviderManaged,
                         .provider_id = "expiry-sign"};
  SigningSession ended = session;
  ended.session_id = "ses_2";
  ended.state = SessionState::kCompleted;
  SigningSession hosted = session;
  hosted.session_id = "ses_3";
  hosted.channel = ExecutionChannel::kPlatformHosted;
  contract.sessions = {session, ended, hosted};
  eventstore::EventRecord expired;
  expired.type = std::string(event_type::kContractExpired);
  const std::vector<app::ProviderNotice> notices = app::NoticesOf(expired, contract);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].session->provider_id, "expiry-sign");
  EXPECT_EQ(notices[0].body, (object{{"type", "session.cancelled"},
                                     {"sessionId", "ses_1"},
                                     {"contractId", "ctr_1"},
                                     {"participantId", "prt_2"},
                                     {"reason", "contract_expired"}}));
  eventstore::EventRecord sent;
  sent.type = std::string(event_type::kContractSent);
  EXPECT_TRUE(app::NoticesOf(sent, contract).empty());
}

// The notices are recorded from the log before they are sent: a service stopped after the
// session was created and before its notice got through sends it after its restart.
class ProviderNoticeRestartTest : public RestartedServerFixture {
 protected:
  ProviderNoticeRestartTest() : RestartedServerFixture("org_a", kAll) {}
  HttpResult Post(const std::string& path, const std::string& body) {
    HttpClient client(port_);
    return client.Post(path, body, Auth());
  }
};

TEST_F(ProviderNoticeRestartTest, AStopBeforeTheNoticeGotThroughStillSendsIt) {
  HttpReceiver provider;
  provider.SetStatus(503, "3");  // the first attempt fails; the next is due 3 s later
  auto added =
      RunContractd({"providers", "add", "--data-dir", data_dir_.string(), "--id", "restart-sign",
                    "--secret", kSecret, "--start-url", provider.Url("/start")});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  StartAndLogIn();
  auto created = Post("/api/v1/contracts", ServicesBody("tpl_services_agreement", "restart-sign"));
  ASSERT_EQ(created.status, 201) << created.body;
  const object contract = created.Json().as_object();
  const std::string id(contract.at("id").as_string());
  auto session = Post(
      "/api/v1/contracts/" + id + "/signing-sessions",
      R"({"participantId":")" +
          std::string(contract.at("participants").as_array()[0].at("participantId").as_string()) +
          R"("})");
  ASSERT_EQ(session.status, 201) << session.body;
  auto done = Post(
      "/api/v1/signing-sessions/" + std::string(session.Json().at("sessionId").as_string()) +
          "/complete",
      R"({"signerName":"Clara Client","signedAt":")" + SignedAtNow() + R"(","ipAddress":"192.0.2.1",
"userAgent":"Integrator/1","authenticationMethod":"password","consent":true})");
  ASSERT_EQ(done.status, 200) << done.body;
  ASSERT_TRUE(provider.WaitFor(1, std::chrono::seconds(10)));  // refused
  StopServer(*server_);
  server_.reset();

  provider.SetStatus(200);
  const size_t refused = provider.Requests().size();
  StartAndLogIn();
  ASSERT_TRUE(provider.WaitFor(refused + 1, std::chrono::seconds(20)));
  const ReceivedRequest sent = provider.Requests()[refused];
  ExpectSignedForTheProvider(sent);
  const object body = boost::json::parse(sent.body).as_object();
  EXPECT_EQ(body.at("type"), "session.started");
  EXPECT_EQ(body.at("contractId"), id.c_str());
  EXPECT_FALSE(body.at("documentBase64").as_string().empty());
  EXPECT_EQ(body.at("callbackUrl"), ("http://127.0.0.1:" + std::to_string(port_) +
                                     "/api/v1/provider-callbacks/restart-sign")
                                        .c_str());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(provider.Requests().size(), refused + 1);
}

}  // namespace
}  // namespace esign::testing
