// Webhook delivery end to end: contractd (relay, embedded Kafka, dispatcher) delivers the events of
// contracts to receivers on loopback (tests/webhooks/receiver), which verify every signature with
// the standardwebhooks npm package, an implementation independent of the service.
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/time_text.h"
#include "domain/clock.h"
#include "tests/webhooks/delivery_fixture.h"
#include "webhooks/embedded_kafka.h"
#include "webhooks/endpoint.h"

namespace esign::testing {
namespace {

using boost::beast::http::verb;
using boost::json::object;

TEST_F(DeliveryEndToEndTest, LifecycleEventsArriveInOrderWithVerifiedSignatures) {
  Receiver receiver;
  Start();
  const std::string endpoint = AddEndpoint(receiver);
  const std::string id = CreateAndSend();
  auto received =
      receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 2; });
  const std::vector<object> events = Accepted(received, id);
  ASSERT_EQ(events.size(), 2u);
  const std::vector<std::pair<std::string, std::string>> expected = {{"contract.created", "draft"},
                                                                     {"contract.sent", "sent"}};
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    EXPECT_TRUE(e.at("verified").as_bool()) << boost::json::serialize(e);
    EXPECT_TRUE(e.at("id").as_string().starts_with("msg_"));
    EXPECT_EQ(e.at("body").at("type").as_string(), expected[i].first);
    const auto& data = e.at("body").at("data").as_object();
    EXPECT_EQ(data.at("status").as_string(), expected[i].second);
    EXPECT_TRUE(data.at("eventId").as_string().starts_with("evt_"));
    EXPECT_TRUE(data.contains("position"));
    if (i > 0) {
      EXPECT_GT(data.at("streamVersion").to_number<uint64_t>(),
                events[i - 1].at("body").at("data").at("streamVersion").to_number<uint64_t>());
    }
  }
  // The deliveries list shows each with its one successful attempt, newest first.
  const boost::json::array deliveries = Deliveries(endpoint);
  ASSERT_EQ(deliveries.size(), 2u);
  EXPECT_EQ(deliveries[0].at("eventType").as_string(), "contract.sent");
  for (const auto& d : deliveries) {
    EXPECT_EQ(d.at("status").as_string(), "succeeded");
    ASSERT_EQ(d.at("attempts").as_array().size(), 1u);
    EXPECT_EQ(d.at("attempts").at(0).at("statusCode").to_number<int64_t>(), 200);
  }
  // A retry sends the same message again, with the same webhook-id.
  const std::string delivery_id(deliveries[1].at("id").as_string());
  auto retried = Call(verb::post, "/api/v1/webhooks/deliveries/" + delivery_id + "/retry");
  EXPECT_EQ(retried.status, 202) << retried.body;
  received =
      receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 3; });
  const std::vector<object> all = Accepted(received, id);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].at("id"), events[0].at("id"));
  EXPECT_TRUE(all[2].at("verified").as_bool());
}

// The contract's participants in order (Ada hosted, Grace integrator_managed, then the copy).
std::vector<std::string> ParticipantIds(const HttpResult& contract) {
  std::vector<std::string> ids;
  for (const auto& p : contract.Json().at("participants").as_array()) {
    ids.emplace_back(p.at("participantId").as_string());
  }
  return ids;
}

std::vector<std::string> TypesOf(const std::vector<object>& deliveries) {
  std::vector<std::string> types;
  for (const auto& d : deliveries) types.emplace_back(d.at("body").at("type").as_string());
  return types;
}

// Deliveries that arrived at one path of the receiver.
std::vector<object> At(const std::vector<object>& deliveries, std::string_view path) {
  std::vector<object> at;
  for (const auto& d : deliveries) {
    if (d.at("path").as_string() == path) at.push_back(d);
  }
  return at;
}

TEST_F(DeliveryEndToEndTest, SigningDecliningRemindingAndVoidingDeliverEveryKind) {
  Receiver receiver;
  server_ = StartServer({"--webhook-allow-loopback", "true", "--access-log", "false"});
  token_ = TokenFor(
      ParseCreated(CreateClient("org_w",
                                "contracts:read,contracts:create,contracts:update,contracts:send,"
                                "signing:manage,webhooks:manage")));
  const auto every = AddEndpointAt(receiver, "/hooks");
  const auto voided_only = AddEndpointAt(receiver, "/voided", {"contract.voided"});
  receiver.Secrets({every.second, voided_only.second});
  const std::string signed_id = CreateAndSend();
  const std::string declined_id = CreateAndSend();
  const std::string voided_id = CreateAndSend();
  const auto participants = ParticipantIds(Call(verb::get, "/api/v1/contracts/" + signed_id));
  const auto declining = ParticipantIds(Call(verb::get, "/api/v1/contracts/" + declined_id));
  ASSERT_GE(participants.size(), 2u);
  // Ada signs on the hosted page, Grace in the integrator's application.
  auto hosted = Call(verb::post, "/api/v1/contracts/" + signed_id + "/signing-sessions",
                     R"({"participantId":")" + participants[0] + R"("})");
  ASSERT_EQ(hosted.status / 100, 2) << hosted.body;
  const std::string url(hosted.Json().at("url").as_string());
  const std::string token = url.substr(url.rfind("/sign/") + 6);
  auto ada = HttpClient(port_).Post("/api/v1/hosted-signing/" + token + "/complete",
                                    R"({"signatureText":"Ada Lovelace","consent":true})");
  ASSERT_EQ(ada.status / 100, 2) << ada.body;
  auto session = Call(verb::post, "/api/v1/contracts/" + signed_id + "/signing-sessions",
                      R"({"participantId":")" + participants[1] + R"("})");
  ASSERT_EQ(session.status / 100, 2) << session.body;
  auto grace = Call(verb::post,
                    "/api/v1/signing-sessions/" +
                        std::string(session.Json().at("sessionId").as_string()) + "/complete",
                    R"({"signerName":"Grace Hopper","signedAt":")" +
                        FormatTimestamp(SystemClock::Instance().NowMicros()) + R"(",
                        "ipAddress":"203.0.113.9","userAgent":"Integrator app",
                        "authenticationMethod":"sso","consent":true})");
  ASSERT_EQ(grace.status / 100, 2) << grace.body;
  // Ada declines the other contract.
  auto other = Call(verb::post, "/api/v1/contracts/" + declined_id + "/signing-sessions",
                    R"({"participantId":")" + declining[0] + R"("})");
  ASSERT_EQ(other.status / 100, 2) << other.body;
  const std::string other_url(other.Json().at("url").as_string());
  auto decline = HttpClient(port_).Post(
      "/api/v1/hosted-signing/" + other_url.substr(other_url.rfind("/sign/") + 6) + "/decline",
      R"({"reason":"Wrong counterparty"})");
  ASSERT_EQ(decline.status / 100, 2) << decline.body;

  // Ada is reminded of the third contract, which is then voided.
  const auto reminded_ids = ParticipantIds(Call(verb::get, "/api/v1/contracts/" + voided_id));
  ASSERT_FALSE(reminded_ids.empty());
  auto remind = Call(verb::post, "/api/v1/contracts/" + voided_id + "/remind",
                     R"({"participantIds":[")" + reminded_ids[0] + R"("]})");
  ASSERT_EQ(remind.status, 200) << remind.body;
  auto voided = Call(verb::post, "/api/v1/contracts/" + voided_id + "/void",
                     R"({"reason":"Sent to the wrong counterparty"})");
  ASSERT_EQ(voided.status, 200) << voided.body;

  auto received = receiver.WaitUntil([&](const boost::json::array& r) {
    const auto s = TypesOf(Accepted(r, signed_id));
    const auto d = TypesOf(Accepted(r, declined_id));
    const auto v = TypesOf(At(Accepted(r, voided_id), "/hooks"));
    return !s.empty() && s.back() == "contract.completed" && !d.empty() &&
           d.back() == "contract.declined" && !v.empty() && v.back() == "contract.voided" &&
           !At(Accepted(r, voided_id), "/voided").empty();
  });
  const std::vector<object> completed = Accepted(received, signed_id);
  EXPECT_EQ(TypesOf(completed),
            (std::vector<std::string>{"contract.created", "contract.sent", "signer.completed",
                                      "contract.signing_in_progress", "signer.completed",
                                      "contract.completed"}));
  const std::vector<object> declined = Accepted(received, declined_id);
  EXPECT_EQ(TypesOf(declined), (std::vector<std::string>{"contract.created", "contract.sent",
                                                         "signer.declined", "contract.declined"}));
  for (const auto* events : {&completed, &declined}) {
    uint64_t previous = 0;
    for (const auto& e : *events) {
      EXPECT_TRUE(e.at("verified").as_bool());
      const uint64_t version = e.at("body").at("data").at("streamVersion").to_number<uint64_t>();
      EXPECT_GT(version, previous);
      previous = version;
    }
  }
  EXPECT_EQ(completed.back().at("body").at("data").at("status").as_string(), "completed");
  EXPECT_EQ(declined.back().at("body").at("data").at("status").as_string(), "declined");

  const std::vector<object> voided_events = At(Accepted(received, voided_id), "/hooks");
  ASSERT_EQ(TypesOf(voided_events),
            (std::vector<std::string>{"contract.created", "contract.sent", "participant.reminded",
                                      "contract.voided"}));
  for (const auto& e : voided_events) EXPECT_TRUE(e.at("verified").as_bool());
  const auto& reminder = voided_events[2].at("body").at("data").as_object();
  EXPECT_EQ(reminder.at("participantId").as_string(), reminded_ids[0]);
  EXPECT_FALSE(reminder.contains("status"));  // a reminder changes no status
  EXPECT_EQ(voided_events[3].at("body").at("data").at("status").as_string(), "voided");
  // The endpoint that asked for contract.voided only got that, of the voided contract only.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  std::vector<object> at_voided_only;
  for (const auto& r : receiver.Received()) {
    if (r.at("path").as_string() == "/voided") at_voided_only.push_back(r.as_object());
  }
  ASSERT_EQ(TypesOf(at_voided_only), (std::vector<std::string>{"contract.voided"}));
  EXPECT_TRUE(at_voided_only[0].at("verified").as_bool());
  EXPECT_EQ(at_voided_only[0].at("body").at("data").at("contractId").as_string(), voided_id);
  EXPECT_NE(at_voided_only[0].at("id"), voided_events[3].at("id"));  // one webhook-id per endpoint
}

TEST_F(DeliveryEndToEndTest, AFailingReceiverGetsRetriesAndEveryAttemptIsListed) {
  Receiver receiver;
  Start();
  const std::string endpoint = AddEndpoint(receiver);
  receiver.Behave(R"({"status":503,"count":1})");  // down for the first attempt
  const std::string id = CreateAndSend();
  auto received =
      receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 2; });
  // The first event's first attempt failed; its retry (5 s later) and then the second event
  // succeeded, in order.
  const std::vector<object> events = Accepted(received, id);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].at("body").at("type").as_string(), "contract.created");
  EXPECT_EQ(received.at(0).at("status").to_number<int64_t>(), 503);
  EXPECT_EQ(received.at(0).at("id"), events[0].at("id"));
  const boost::json::array deliveries = Deliveries(endpoint);
  ASSERT_EQ(deliveries.size(), 2u);
  const auto& attempts = deliveries[1].at("attempts").as_array();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].at("statusCode").to_number<int64_t>(), 503);
  EXPECT_EQ(attempts[1].at("statusCode").to_number<int64_t>(), 200);
  EXPECT_EQ(deliveries[1].at("status").as_string(), "succeeded");

  // A manual retry of the delivered event: sent again at once, with the same webhook-id, and
  // listed as a third attempt.
  const std::string delivery(deliveries[1].at("id").as_string());
  auto retried = Call(verb::post, "/api/v1/webhooks/deliveries/" + delivery + "/retry");
  ASSERT_EQ(retried.status, 202) << retried.body;
  EXPECT_EQ(retried.Json().at("status").as_string(), "pending");
  received = receiver.WaitUntil([&](const boost::json::array& r) { return r.size() >= 4; });
  EXPECT_EQ(received.at(3).at("id"), events[0].at("id"));
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (Deliveries(endpoint)[1].at("attempts").as_array().size() < 3 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(Deliveries(endpoint)[1].at("status").as_string(), "succeeded");
  EXPECT_EQ(Deliveries(endpoint)[1].at("attempts").as_array().size(), 3u);
}

TEST_F(DeliveryEndToEndTest, GoneDisablesTheEndpointWhichKeepsItsEventsUntilEnabledAgain) {
  Receiver receiver;
  Start();
  const std::string endpoint = AddEndpoint(receiver);
  receiver.Behave(R"({"status":410,"count":1})");
  std::ifstream file(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json");
  std::stringstream body;
  body << file.rdbuf();
  auto created = Call(verb::post, "/api/v1/contracts", body.str());
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.Json().at("id").as_string());
  receiver.WaitUntil([](const boost::json::array& r) { return !r.empty(); });
  // 410: the endpoint is disabled by the service.
  ASSERT_TRUE(WaitUntilDisabled(endpoint));
  // Events of a disabled endpoint wait for it.
  ASSERT_EQ(Call(verb::post, "/api/v1/contracts/" + id + "/send").status, 200);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(receiver.Received().size(), 1u);
  // Enabled again, it receives both events, in order.
  ASSERT_EQ(Call(verb::patch, kEndpoints + "/" + endpoint, R"({"enabled":true})").status, 200);
  auto received =
      receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 2; });
  const std::vector<object> events = Accepted(received, id);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].at("body").at("type").as_string(), "contract.created");
  EXPECT_EQ(events[1].at("body").at("type").as_string(), "contract.sent");
  EXPECT_EQ(events[0].at("id"), received.at(0).at("id"));  // the same webhook-id as the 410
  const boost::json::array deliveries = Deliveries(endpoint);
  ASSERT_EQ(deliveries.size(), 2u);
  const auto& attempts = deliveries[1].at("attempts").as_array();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].at("statusCode").to_number<int64_t>(), 410);
  EXPECT_EQ(attempts[1].at("statusCode").to_number<int64_t>(), 200);
}

TEST_F(DeliveryEndToEndTest, ASlowReceiverHoldsBackOnlyItsOwnDeliveries) {
  Receiver slow;
  Receiver quick;
  Start();
  AddEndpoint(slow);
  AddEndpoint(quick);
  slow.Behave(R"({"status":200,"count":-1,"delayMs":4000})");
  const std::string id = CreateAndSend();
  quick.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 2; });
  // Both events are at the quick receiver while the slow one has not finished its second.
  EXPECT_LT(Accepted(slow.Received(), id).size(), 2u);
  slow.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 2; });
}

TEST_F(DeliveryEndToEndTest, KilledInABurstAndRestartedEveryEventArrivesWithOneWebhookId) {
  Receiver receiver;
  Start();
  AddEndpoint(receiver);
  std::vector<std::string> contracts;
  for (int i = 0; i < 8; ++i) contracts.push_back(CreateAndSend());
  server_->Signal(SIGKILL);
  server_->Wait(std::chrono::seconds(10));
  server_ = StartServer({"--webhook-allow-loopback", "true", "--access-log", "false"});
  ExpectOneWebhookIdPerEvent(WaitForEvents(receiver, contracts, 2), 2 * contracts.size());
}

TEST_F(DeliveryEndToEndTest, ExternalClusterSurvivesABrokerOutageAndAKill) {
  // A cluster outside contractd (librdkafka's mock, in this test process), so the topic and the
  // group's committed offsets outlive the service.
  auto kafka = webhooks::EmbeddedKafka::Start();
  ASSERT_TRUE(kafka) << kafka.error().message;
  const std::vector<std::string> flags = {
      "--webhook-allow-loopback", "true", "--access-log", "false", "--kafka-brokers",
      (*kafka)->bootstraps()};
  Receiver receiver;
  server_ = StartServer(flags);
  token_ = TokenFor(ParseCreated(CreateClient(
      "org_w", "contracts:read,contracts:create,contracts:update,contracts:send,webhooks:manage")));
  AddEndpoint(receiver);
  std::vector<std::string> contracts{CreateAndSend()};
  receiver.WaitUntil(
      [&](const boost::json::array& r) { return Accepted(r, contracts[0]).size() >= 2; });

  // The broker goes away for a while; the service keeps accepting writes, the relay catches up.
  ASSERT_EQ(rd_kafka_mock_broker_set_down((*kafka)->cluster(), 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  for (int i = 0; i < 3; ++i) contracts.push_back(CreateAndSend());
  std::this_thread::sleep_for(std::chrono::seconds(2));
  ASSERT_EQ(rd_kafka_mock_broker_set_up((*kafka)->cluster(), 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  // And then the service is killed in a burst of writes, and started again on the same cluster.
  for (int i = 0; i < 4; ++i) contracts.push_back(CreateAndSend());
  server_->Signal(SIGKILL);
  server_->Wait(std::chrono::seconds(10));
  server_ = StartServer(flags);
  contracts.push_back(CreateAndSend());

  const auto received = WaitForEvents(receiver, contracts, 2);
  ExpectOneWebhookIdPerEvent(received, 2 * contracts.size());
  // Each contract's events arrived in order.
  for (const auto& id : contracts) {
    const auto events = Accepted(received, id);
    EXPECT_EQ(events.front().at("body").at("type").as_string(), "contract.created") << id;
  }
}

TEST_F(DeliveryEndToEndTest, A429WithRetryAfterIsRetriedAfterTheWaitItAsksFor) {
  Receiver receiver;
  Start();
  const std::string endpoint = AddEndpoint(receiver);
  receiver.Behave(R"({"status":429,"count":1,"retryAfter":"2"})");
  const std::string id = CreateAndSend();
  auto received =
      receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 2; });
  ASSERT_GE(received.size(), 3u);
  EXPECT_EQ(received.at(0).at("status").to_number<int64_t>(), 429);
  EXPECT_EQ(received.at(1).at("id"), received.at(0).at("id"));  // the retry, before the next event
  // The receiver's clock: 2 s asked, not the schedule's 5 s (at least 4.5 s with its jitter).
  const int64_t waited_ms =
      received.at(1).at("at").to_number<int64_t>() - received.at(0).at("at").to_number<int64_t>();
  EXPECT_GE(waited_ms, 1900);
  EXPECT_LT(waited_ms, 4500);

  // Both attempts are listed, 429 then 200, about 2 s apart.
  const boost::json::array deliveries = Deliveries(endpoint);
  ASSERT_EQ(deliveries.size(), 2u);
  EXPECT_EQ(deliveries[1].at("eventType").as_string(), "contract.created");
  EXPECT_EQ(deliveries[1].at("status").as_string(), "succeeded");
  const auto& attempts = deliveries[1].at("attempts").as_array();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].at("statusCode").to_number<int64_t>(), 429);
  EXPECT_EQ(attempts[1].at("statusCode").to_number<int64_t>(), 200);
  const auto first_at = ParseTimestampMicros(attempts[0].at("attemptedAt").as_string());
  const auto second_at = ParseTimestampMicros(attempts[1].at("attemptedAt").as_string());
  ASSERT_TRUE(first_at && second_at);
  EXPECT_GE(*second_at - *first_at, 1'900'000);
  EXPECT_LT(*second_at - *first_at, 4'500'000);
}

// The threads of a process, from /proc.
size_t ThreadsOf(pid_t pid) {
  const auto tasks = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task");
  return static_cast<size_t>(std::distance(begin(tasks), end(tasks)));
}

// Endpoints used to cost a lane of two threads each for as long as the service ran (300 endpoints
// and one event: 98 -> 698 threads, and still 698 after deleting them). Now every endpoint of
// two organizations at their limit delivers through the dispatcher's fixed pool of senders.
TEST_F(DeliveryEndToEndTest, EndpointsAtTheLimitInTwoOrganizationsShareTheSenderThreads) {
  constexpr size_t kSenderThreads = 16;  // DispatcherOptions::sender_threads
  Receiver receiver;
  Start();
  const std::vector<std::string> tokens = {
      token_, TokenFor(ParseCreated(
                  CreateClient("org_v",
                               "contracts:read,contracts:create,contracts:update,contracts:send,"
                               "webhooks:manage")))};
  const size_t before = ThreadsOf(server_->pid());
  std::vector<std::string> secrets;
  std::vector<std::pair<std::string, std::string>> endpoints;  // token, id
  for (const std::string& token : tokens) {
    token_ = token;
    for (size_t i = 0; i < webhooks::kMaxEndpointsPerOrganization; ++i) {
      auto created = Call(verb::post, kEndpoints,
                          R"({"url":")" + receiver.Url("/hooks/" + std::to_string(i)) +
                              R"(","eventTypes":["contract.created","contract.sent"]})");
      ASSERT_EQ(created.status, 201) << created.body;
      secrets.emplace_back(created.Json().at("secret").as_string());
      endpoints.emplace_back(token, created.Json().at("id").as_string());
    }
  }
  receiver.Secrets(secrets);
  std::vector<std::string> contracts;
  for (const std::string& token : tokens) {
    token_ = token;
    contracts.push_back(CreateAndSend());
  }
  // Two events for each of the organization's 20 endpoints, per contract.
  const auto received =
      WaitForEvents(receiver, contracts, 2 * webhooks::kMaxEndpointsPerOrganization);
  for (const auto& r : received) EXPECT_TRUE(r.at("verified").as_bool());
  const size_t after = ThreadsOf(server_->pid());
  EXPECT_LT(after, before + kSenderThreads) << before << " threads before, " << after << " after";
  RecordProperty("threads_before", static_cast<int>(before));
  RecordProperty("threads_after", static_cast<int>(after));

  // Deleted, the endpoints leave no thread behind; new events start none.
  for (const auto& [token, id] : endpoints) {
    token_ = token;
    ASSERT_EQ(Call(verb::delete_, kEndpoints + "/" + id).status, 204);
  }
  for (const std::string& token : tokens) {
    token_ = token;
    CreateAndSend();
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const size_t deleted = ThreadsOf(server_->pid());
  EXPECT_LE(deleted, after);
  RecordProperty("threads_after_deleting", static_cast<int>(deleted));
}

}  // namespace
}  // namespace esign::testing
