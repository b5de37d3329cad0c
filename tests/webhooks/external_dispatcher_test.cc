// `contractd dispatcher` end to end: contractd publishes to a cluster outside it and leaves
// delivery to two dispatcher processes, which share the partitions of contract-events. Every
// event arrives once per webhook-id, also when one dispatcher is killed in a burst; what the
// dispatchers record is listed by contractd, and a 410 and a retry work through it.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <regex>

#include "delivery/delivery_store.h"
#include "tests/support/temp_dir.h"
#include "tests/webhooks/delivery_fixture.h"
#include "webhooks/embedded_kafka.h"

namespace esign::testing {
namespace {

using boost::beast::http::verb;

// The partitions of contract-events in a dispatcher's latest assignment, from its log.
std::set<int> AssignedEventPartitions(const std::string& output) {
  const std::string marker = "partitions assigned: ";
  const auto at = output.rfind(marker);
  std::set<int> partitions;
  if (at == std::string::npos) return partitions;
  const std::string line = output.substr(at, output.find('\n', at) - at);
  const std::regex partition(R"(contract-events\[(\d+)\])");
  for (std::sregex_iterator it(line.begin(), line.end(), partition), end; it != end; ++it) {
    partitions.insert(std::stoi((*it)[1]));
  }
  return partitions;
}

class ExternalDispatcherTest : public DeliveryEndToEndTest {
 protected:
  void SetUp() override {
    DeliveryEndToEndTest::SetUp();
    auto kafka = webhooks::EmbeddedKafka::Start();
    ASSERT_TRUE(kafka) << kafka.error().message;
    kafka_ = std::move(*kafka);
    server_ =
        StartServer({"--webhook-allow-loopback", "true", "--access-log", "false", "--kafka-brokers",
                     kafka_->bootstraps(), "--webhook-dispatcher", "external"});
    token_ = TokenFor(ParseCreated(CreateClient(
        "org_w",
        "contracts:read,contracts:create,contracts:update,contracts:send,webhooks:manage")));
  }
  void TearDown() override {
    for (auto& d : dispatchers_) {
      if (d) StopServer(*d);
    }
    DeliveryEndToEndTest::TearDown();
  }

  std::string DispatcherDir(size_t i) const {
    return dirs_.path() + "/dispatcher-" + std::to_string(i);
  }

  ChildProcess& StartDispatcher() {
    const size_t i = dispatchers_.size();
    dispatchers_.push_back(std::make_unique<ChildProcess>(std::vector<std::string>{
        CONTRACTD_BINARY, "dispatcher", "--kafka-brokers", kafka_->bootstraps(), "--secrets-dir",
        (data_dir_ / "webhook-secrets").string(), "--data-dir", DispatcherDir(i),
        "--webhook-allow-loopback", "true"}));
    EXPECT_TRUE(
        dispatchers_.back()->WaitForLine("contractd dispatcher: started", std::chrono::seconds(30)))
        << dispatchers_.back()->output();
    return *dispatchers_.back();
  }

  // Waits until the live dispatchers' assignments split the four partitions between them.
  void WaitForSharedPartitions() {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (std::chrono::steady_clock::now() < deadline) {
      std::set<int> all;
      size_t total = 0;
      bool each_has_some = true;
      for (auto& d : dispatchers_) {
        const auto mine = AssignedEventPartitions(d->ReadOutput());
        each_has_some = each_has_some && !mine.empty();
        total += mine.size();
        all.insert(mine.begin(), mine.end());
      }
      if (each_has_some && all.size() == 4 && total == 4) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ADD_FAILURE() << "the dispatchers did not share the partitions: " << dispatchers_[0]->output()
                  << dispatchers_[1]->output();
  }

  // The deliveries listed by contractd, once `done` holds for them.
  boost::json::array WaitForListed(const std::string& endpoint,
                                   const std::function<bool(const boost::json::array&)>& done) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    boost::json::array listed;
    while (std::chrono::steady_clock::now() < deadline) {
      auto response = Call(verb::get, kEndpoints + "/" + endpoint + "/deliveries?limit=100");
      listed = response.Json().at("items").as_array();
      if (done(listed)) return listed;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ADD_FAILURE() << "contractd lists " << boost::json::serialize(listed);
    return listed;
  }
  // The deliveries listed by contractd, once `count` of them have succeeded.
  boost::json::array WaitForListed(const std::string& endpoint, size_t count) {
    return WaitForListed(endpoint, [count](const boost::json::array& listed) {
      size_t succeeded = 0;
      for (const auto& d : listed) succeeded += d.at("status").as_string() == "succeeded";
      return succeeded >= count;
    });
  }

  std::unique_ptr<webhooks::EmbeddedKafka> kafka_;
  TempDir dirs_;
  std::vector<std::unique_ptr<ChildProcess>> dispatchers_;
};

TEST_F(ExternalDispatcherTest, TwoDispatchersShareThePartitionsAndSurviveTheLossOfOne) {
  Receiver receiver;
  const std::string endpoint = AddEndpoint(receiver);
  StartDispatcher();
  StartDispatcher();
  WaitForSharedPartitions();

  std::vector<std::string> contracts;
  for (int i = 0; i < 12; ++i) contracts.push_back(CreateAndSend());
  ExpectOneWebhookIdPerEvent(WaitForEvents(receiver, contracts, 2), 2 * contracts.size());
  // contractd lists what the dispatchers recorded.
  WaitForListed(endpoint, 2 * contracts.size());

  // One dispatcher dies in a burst; the other takes over its partitions, unsettled messages
  // included.
  for (int i = 0; i < 6; ++i) contracts.push_back(CreateAndSend());
  dispatchers_[0]->Signal(SIGKILL);
  dispatchers_[0]->Wait(std::chrono::seconds(10));
  for (int i = 0; i < 6; ++i) contracts.push_back(CreateAndSend());
  ExpectOneWebhookIdPerEvent(WaitForEvents(receiver, contracts, 2), 2 * contracts.size());
  WaitForListed(endpoint, 2 * contracts.size());
  EXPECT_EQ(AssignedEventPartitions(dispatchers_[1]->ReadOutput()), (std::set<int>{0, 1, 2, 3}));

  // Each dispatcher delivered some of the events: their own records say so.
  StopServer(*dispatchers_[1]);
  dispatchers_.clear();
  for (size_t i = 0; i < 2; ++i) {
    auto store = delivery::DeliveryStore::Open(DispatcherDir(i));
    ASSERT_TRUE(store) << store.error().message;
    auto listed = (*store)->List(endpoint, 0, 100);
    ASSERT_TRUE(listed);
    EXPECT_FALSE(listed->empty()) << "dispatcher " << i << " delivered nothing";
  }
}

TEST_F(ExternalDispatcherTest, GoneRetryAndRotationGoThroughContractd) {
  Receiver receiver;
  StartDispatcher();
  // Created while the dispatcher runs: it learns of the endpoint from the endpoints topic.
  const std::string endpoint = AddEndpoint(receiver);
  receiver.Behave(R"({"status":410,"count":1})");
  const std::string id = CreateAndSend();
  receiver.WaitUntil([](const boost::json::array& r) { return !r.empty(); });
  // The dispatcher asks contractd to disable the endpoint.
  ASSERT_TRUE(WaitUntilDisabled(endpoint));
  ASSERT_EQ(Call(verb::patch, kEndpoints + "/" + endpoint, R"({"enabled":true})").status, 200);
  auto received = WaitForEvents(receiver, {id}, 2);
  const auto listed = WaitForListed(endpoint, 2);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[1].at("attempts").as_array().at(0).at("statusCode").to_number<int64_t>(), 410);

  // A retry of a delivered event: the same webhook-id again, and a second attempt listed.
  const std::string delivery(listed[0].at("id").as_string());
  auto retried = Call(verb::post, "/api/v1/webhooks/deliveries/" + delivery + "/retry");
  ASSERT_EQ(retried.status, 202) << retried.body;
  received =
      receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, id).size() >= 3; });
  const auto events = Accepted(received, id);
  EXPECT_EQ(events[2].at("id"), events[1].at("id"));
  const auto deadline2 = std::chrono::steady_clock::now() + kWait;
  size_t attempts = 0;
  while (std::chrono::steady_clock::now() < deadline2 && attempts < 2) {
    auto listed_again = Call(verb::get, kEndpoints + "/" + endpoint + "/deliveries");
    attempts = listed_again.Json().at("items").as_array().at(0).at("attempts").as_array().size();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(attempts, 2u);

  // After a rotation the receiver knows only the new secret: the dispatcher signs with it too.
  auto rotated = Call(verb::post, kEndpoints + "/" + endpoint + "/rotate-secret");
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  receiver.Secrets({std::string(rotated.Json().at("secret").as_string())});
  const std::string after = CreateAndSend();
  received = WaitForEvents(receiver, {after}, 2);
  for (const auto& r : received) {
    if (r.at("body").at("data").at("contractId").as_string() == after) {
      EXPECT_TRUE(r.at("verified").as_bool());
    }
  }
}

TEST_F(ExternalDispatcherTest, ADispatcherWithoutTheMessageKeyRefusesToStart) {
  // A secrets directory contractd never started on: no key, so nothing could be trusted.
  const std::string secrets = dirs_.path() + "/elsewhere";
  std::filesystem::create_directories(secrets);
  const CommandResult result =
      RunContractd({"dispatcher", "--kafka-brokers", kafka_->bootstraps(), "--secrets-dir", secrets,
                    "--data-dir", DispatcherDir(0)},
                   std::chrono::seconds(30));
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("contractd dispatcher: no Kafka message key " + secrets +
                            "/kafka-message-key"),
            std::string::npos)
      << result.err;
}

// An attempt made after the cluster went away cannot be recorded (the record waits up to 30 s for
// the cluster); a SIGTERM still stops the dispatcher within the bound of docs/operations.md,
// leaving that delivery to the partition's next owner.
TEST_F(ExternalDispatcherTest, StopsWithinTheBoundWhileAnAttemptWaitsForTheGoneCluster) {
  Receiver receiver;
  receiver.Behave(R"({"status":500,"count":-1})");  // every attempt fails: retried after 5 s
  const std::string endpoint = AddEndpoint(receiver);
  ChildProcess& dispatcher = StartDispatcher();
  CreateAndSend();
  receiver.WaitUntil([](const boost::json::array& received) { return !received.empty(); });
  // The first attempt's record reaches contractd through the cluster: the outage must come after
  // it, or the lane would wait for that record, not the retry's.
  WaitForListed(endpoint, [](const boost::json::array& listed) {
    return std::ranges::any_of(listed,
                               [](const auto& d) { return !d.at("attempts").as_array().empty(); });
  });
  const size_t before_outage = receiver.Received().size();
  kafka_.reset();
  // The retry 5 s later is made, and its record waits for the cluster.
  receiver.WaitUntil(
      [&](const boost::json::array& received) { return received.size() > before_outage; });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  const auto start = std::chrono::steady_clock::now();
  dispatcher.Signal(SIGTERM);
  const auto status = dispatcher.Wait(std::chrono::seconds(60));
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  std::cout << "contractd dispatcher stopped " << took.count()
            << " ms after SIGTERM, an attempt's record waiting for the gone cluster" << std::endl;
  ASSERT_TRUE(status.has_value()) << dispatcher.output();
  EXPECT_EQ(*status, 0) << dispatcher.output();
  EXPECT_LT(took, std::chrono::seconds(10)) << dispatcher.output();
  dispatchers_.clear();
  StopServer(*server_);
  server_.reset();
}

}  // namespace
}  // namespace esign::testing
