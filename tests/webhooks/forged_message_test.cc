// Review item D5 end to end: the embedded Kafka cluster listens on loopback without credentials,
// so any local process can write to contractd's topics. A message contractd did not write must
// never become a (genuinely signed) webhook: the exploit as written, then what happens instead:
// the dispatcher drops the message with one log line, genuine events keep flowing past it, and no
// delivery, contract or endpoint state is added.
#include <boost/json.hpp>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/support/shell.h"
#include "tests/webhooks/delivery_fixture.h"
#include "tests/webhooks/forged_message.h"
#include "webhooks/delivery_topics.h"

namespace esign::testing {
namespace {

constexpr char kDropped[] = "contractd: webhook dispatcher: dropped the message at ";

class ForgedMessageTest : public DeliveryEndToEndTest {
 protected:
  std::string Brokers() const {
    std::smatch match;
    const std::string output = server_->output();
    EXPECT_TRUE(std::regex_search(output, match,
                                  std::regex(R"(embedded Kafka cluster at (127\.0\.0\.1:\d+))")))
        << output;
    return match.empty() ? "" : match[1].str();
  }

  // What an attacker reads first: a genuine message of contract-events, here the contract's
  // contract.sent, read with kcat.
  boost::json::object ReadSentMessage(const std::string& contract_id) const {
    std::istringstream lines(RunShell("timeout 60 kcat -C -b " + Brokers() +
                                      " -t contract-events -e -q -f '%s\\n' 2>/dev/null")
                                 .out);
    for (std::string line; std::getline(lines, line);) {
      boost::system::error_code ec;
      auto value = boost::json::parse(line, ec);
      if (!ec && value.is_object() && value.at("contractId") == boost::json::value(contract_id) &&
          value.at("type") == boost::json::value("contract.sent")) {
        return value.as_object();
      }
    }
    ADD_FAILURE() << "no contract.sent of " << contract_id << " in contract-events";
    return {};
  }

  // Every request the receiver got for the contract, whatever its answer.
  static size_t ReceivedFor(Receiver& receiver, const std::string& contract_id) {
    size_t count = 0;
    for (const auto& r : receiver.Received()) {
      count += r.at("body").at("data").at("contractId") == boost::json::value(contract_id);
    }
    return count;
  }

  // The deliveries contractd lists for the endpoint, by contract.
  std::set<std::string> ListedContracts(const std::string& endpoint) {
    std::set<std::string> contracts;
    for (const auto& d : Deliveries(endpoint)) {
      contracts.emplace(d.at("contractId").as_string());
    }
    return contracts;
  }
};

TEST_F(ForgedMessageTest, AForgedContractEventIsDroppedAndTheGenuineOneIsDelivered) {
  Receiver receiver;
  Start();
  const std::string endpoint = AddEndpoint(receiver);
  const std::string before = CreateAndSend();
  WaitForEvents(receiver, {before}, 2);

  // The exploit: a contract.completed of a contract that does not exist, for org_w, written with
  // `kcat -P`; the same again with a contractd-mac made under a key of the attacker's own.
  boost::json::object forged = ReadSentMessage(before);
  const std::string ghost = "ctr_forged0000000000000000000";
  forged["eventId"] = "evt_forged00000000000000000000";
  forged["type"] = "contract.completed";
  forged["streamId"] = "contract-" + ghost;
  forged["contractId"] = ghost;
  ASSERT_EQ(forged.at("contractOrganizationId"), boost::json::value("org_w"));
  const std::string value = boost::json::serialize(forged);
  const std::string file = data_dir_.string() + "-forged.json";
  std::ofstream(file) << value;
  const ShellResult kcat = RunShell("timeout 30 kcat -P -b " + Brokers() +
                                    " -t contract-events -k " + ghost + " " + file + " 2>&1");
  std::filesystem::remove(file);
  ASSERT_EQ(kcat.exit_code, 0) << kcat.out;
  auto other = webhooks::MessageAuth::FromKey(std::string(webhooks::kMessageKeyBytes, 'x'));
  ASSERT_TRUE(other);
  ProduceForged(Brokers(), "contract-events", ghost, value,
                other->Mac("contract-events", ghost, value));

  // Genuine events written after it arrive; the forged one never does.
  const std::string after = CreateAndSend();
  const auto received = WaitForEvents(receiver, {after}, 2);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(ReceivedFor(receiver, ghost), 0u) << boost::json::serialize(receiver.Received());
  ExpectOneWebhookIdPerEvent(receiver.Received(), 4);

  // Said in the log, without the message; nothing recorded for it.
  const auto dropped = server_->WaitForLine(kDropped, std::chrono::seconds(1));
  ASSERT_TRUE(dropped) << server_->output();
  EXPECT_NE(dropped->find("contract-events["), std::string::npos) << *dropped;
  EXPECT_EQ(server_->ReadOutput().find("evt_forged"), std::string::npos);
  EXPECT_EQ(ListedContracts(endpoint), (std::set<std::string>{before, after}));
  EXPECT_EQ(Call(verb::get, "/api/v1/contracts/" + ghost).status, 404);
}

TEST_F(ForgedMessageTest, AForgedRetryRequestIsDroppedAndGenuineRetriesStillWork) {
  Receiver receiver;
  Start();
  const std::string endpoint = AddEndpoint(receiver);
  const std::string before = CreateAndSend();
  WaitForEvents(receiver, {before}, 2);

  // The exploit: a retry request for the endpoint carrying a delivery no one recorded, with a
  // body of the attacker's choosing, which the dispatcher would sign.
  const std::string ghost = "ctr_forged0000000000000000000";
  const delivery::Delivery delivery{
      .id = "dlv_forged0000000000000000000000",
      .destination_id = endpoint,
      .webhook_id = "msg_forged0000000000000000000000",
      .event_id = "evt_forged",
      .event_type = "contract.completed",
      .contract_id = ghost,
      .position = 1,
      .body = boost::json::serialize(boost::json::object{
          {"type", "contract.completed"},
          {"timestamp", "2026-11-21T08:44:56.779341Z"},
          {"data", {{"contractId", ghost}, {"status", "completed"}, {"eventId", "evt_forged"}}}}),
      .next_attempt_us = 1,
      .created_us = 1};
  const webhooks::TopicMessage request = webhooks::RetryRequestMessage(delivery);
  ProduceForgedTwice(Brokers(), request.topic, request.key, request.value);

  // A genuine event and a genuine retry after it are carried out; the forged request never is.
  const std::string after = CreateAndSend();
  WaitForEvents(receiver, {after}, 2);
  std::string retried_id;
  for (const auto& d : Deliveries(endpoint)) {
    if (d.at("contractId") == boost::json::value(after)) retried_id = d.at("id").as_string();
  }
  ASSERT_EQ(Call(verb::post, "/api/v1/webhooks/deliveries/" + retried_id + "/retry").status, 202);
  receiver.WaitUntil([&](const boost::json::array& r) { return Accepted(r, after).size() >= 3; });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(ReceivedFor(receiver, ghost), 0u) << boost::json::serialize(receiver.Received());

  const auto dropped = server_->WaitForLine(kDropped, std::chrono::seconds(1));
  ASSERT_TRUE(dropped) << server_->output();
  EXPECT_NE(dropped->find("webhook-retries["), std::string::npos) << *dropped;
  EXPECT_EQ(ListedContracts(endpoint), (std::set<std::string>{before, after}));
  for (const auto& d : Deliveries(endpoint)) EXPECT_NE(d.at("id"), boost::json::value(delivery.id));
}

}  // namespace
}  // namespace esign::testing
