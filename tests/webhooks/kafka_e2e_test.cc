// contractd end to end with Kafka: a contract created, sent and voided over HTTP shows up in the
// topic contract-events, read by kcat and by kafkajs (independent clients), in the embedded default
// and with --kafka-brokers naming a cluster outside the process.
#include <stdio.h>

#include <boost/json.hpp>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"
#include "webhooks/embedded_kafka.h"

namespace esign::testing {
namespace {

// The last event that sending the example NDA appends: the session of its hosted signer, whose
// link the service mails.
constexpr const char* kLastOfSend = "signing_session.created";

constexpr auto kWait = std::chrono::seconds(30);

// Runs a shell command; its standard output.
std::string Shell(const std::string& command) { return RunShell(command).out; }

struct TopicEvent {
  std::string key;
  boost::json::object value;
};

// Every message of the topic, read with kcat until the end of each partition.
std::vector<TopicEvent> KcatRead(const std::string& brokers) {
  std::vector<TopicEvent> events;
  std::istringstream lines(Shell("timeout 60 kcat -C -b " + brokers +
                                 " -t contract-events -e -q -f '%k\\t%s\\n' 2>/dev/null"));
  std::string line;
  while (std::getline(lines, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    boost::system::error_code ec;
    auto value = boost::json::parse(line.substr(tab + 1), ec);
    if (ec || !value.is_object()) continue;
    events.push_back({line.substr(0, tab), value.as_object()});
  }
  std::vector<boost::json::object> messages;
  messages.reserve(events.size());
  for (const auto& e : events) messages.push_back(e.value);
  KeepKafkaSamples(messages);
  return events;
}

std::vector<TopicEvent> OfContract(const std::vector<TopicEvent>& events, const std::string& id) {
  std::vector<TopicEvent> of;
  for (const auto& e : events) {
    if (e.key == id) of.push_back(e);
  }
  return of;
}

// Reads with kcat until the contract's messages include `type` or the wait ends.
std::vector<TopicEvent> KcatWaitFor(const std::string& brokers, const std::string& contract_id,
                                    const std::string& type) {
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  std::vector<TopicEvent> events;
  while (std::chrono::steady_clock::now() < deadline) {
    events = OfContract(KcatRead(brokers), contract_id);
    for (const auto& e : events) {
      if (e.value.at("type").as_string() == type) return events;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ADD_FAILURE() << "no " << type << " for " << contract_id << " in the topic";
  return events;
}

std::vector<std::string> Types(const std::vector<TopicEvent>& events) {
  std::vector<std::string> types;
  for (const auto& e : events) types.emplace_back(e.value.at("type").as_string());
  return types;
}

class KafkaEndToEndTest : public ContractdFixture {
 protected:
  // Creates a client of org_k, a contract, and sends it; the contract id.
  std::string CreateAndSendContract() {
    token_ = TokenFor(ParseCreated(
        CreateClient("org_k", "contracts:read,contracts:create,contracts:update,contracts:send")));
    std::ifstream file(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json");
    std::stringstream body;
    body << file.rdbuf();
    HttpClient client(port_);
    const std::map<std::string, std::string> auth{{"Authorization", "Bearer " + token_}};
    auto created = client.Post("/api/v1/contracts", body.str(), auth);
    EXPECT_EQ(created.status, 201) << created.body;
    if (created.status != 201) return "";
    const std::string id(created.Json().at("id").as_string());
    auto sent = client.Post("/api/v1/contracts/" + id + "/send", "", auth);
    EXPECT_EQ(sent.status, 200) << sent.body;
    return id;
  }

  // The contract's events in order: created first, then sent, and last the session of the hosted
  // signer, whom sending mails a link; stream versions 1, 2, ...
  static void ExpectLifecycle(const std::vector<TopicEvent>& events, const std::string& id) {
    ASSERT_GE(events.size(), 3u);
    EXPECT_EQ(events.front().value.at("type").as_string(), "contract.created");
    EXPECT_EQ(events[events.size() - 2].value.at("type").as_string(), "contract.sent");
    EXPECT_EQ(events.back().value.at("type").as_string(), kLastOfSend);
    for (size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(events[i].value.at("contractId").as_string(), id);
      EXPECT_EQ(events[i].value.at("streamVersion").to_number<uint64_t>(), i + 1);
      EXPECT_EQ(events[i].value.at("schemaVersion").as_int64(), 1);
    }
  }

  // Voids the contract with the client of the last CreateAndSendContract.
  void VoidContract(const std::string& id, const std::string& reason) {
    auto voided =
        HttpClient(port_).Post("/api/v1/contracts/" + id + "/void",
                               boost::json::serialize(boost::json::object{{"reason", reason}}),
                               {{"Authorization", "Bearer " + token_}});
    EXPECT_EQ(voided.status, 200) << voided.body;
  }

  static std::string EmbeddedBrokers(const ChildProcess& server) {
    std::smatch match;
    const std::string& output = server.output();
    EXPECT_TRUE(std::regex_search(output, match,
                                  std::regex(R"(embedded Kafka cluster at (127\.0\.0\.1:\d+))")))
        << output;
    return match.empty() ? "" : match[1].str();
  }

  std::string token_;
};

TEST_F(KafkaEndToEndTest, EmbeddedClusterCarriesTheLifecycleToKcatAndKafkajs) {
  auto server = StartServer();
  const std::string brokers = EmbeddedBrokers(*server);
  ASSERT_FALSE(brokers.empty());
  const std::string id = CreateAndSendContract();
  ASSERT_FALSE(id.empty());

  const std::vector<TopicEvent> events = KcatWaitFor(brokers, id, kLastOfSend);
  ExpectLifecycle(events, id);
  // Every message carries the relay's contractd-mac header (docs/events.md); consumers that do
  // not look at headers (kafkajs below) are not affected by it.
  std::istringstream headers(Shell("timeout 60 kcat -C -b " + brokers +
                                   " -t contract-events -e -q -f '%h\\n' 2>/dev/null"));
  size_t with_mac = 0;
  for (std::string line; std::getline(headers, line);) {
    EXPECT_TRUE(line.starts_with("contractd-mac=")) << line;
    ++with_mac;
  }
  EXPECT_GE(with_mac, events.size());
  // No internal stream leaks into the topic: the client just created is not there.
  for (const auto& e : KcatRead(brokers)) {
    const std::string stream(e.value.at("streamId").as_string());
    EXPECT_FALSE(stream.starts_with("client-") || stream.starts_with("idempotency-")) << stream;
  }

  // kafkajs, a consumer group of its own, reads the same messages.
  const size_t total = KcatRead(brokers).size();
  const std::string kafkajs =
      Shell("cd " + std::string(SOURCE_DIR) + "/tests/kafka && timeout 90 " + NODE_EXECUTABLE +
            " consume.mjs " + brokers + " contract-events " + std::to_string(total) + " 60000");
  std::vector<TopicEvent> read_by_kafkajs;
  std::istringstream lines(kafkajs);
  std::string line;
  while (std::getline(lines, line)) {
    auto value = boost::json::parse(line).as_object();
    if (value.at("key").as_string() != id) continue;
    read_by_kafkajs.push_back({id, value.at("value").as_object()});
  }
  ASSERT_EQ(read_by_kafkajs.size(), events.size()) << kafkajs;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(read_by_kafkajs[i].value, events[i].value);
  }

  // A restart brings a new, empty embedded cluster: the log is published again, each event once.
  StopServer(*server);
  server = StartServer();
  const std::string brokers_after = EmbeddedBrokers(*server);
  const std::vector<TopicEvent> again = KcatWaitFor(brokers_after, id, kLastOfSend);
  EXPECT_EQ(Types(again), Types(events));
  StopServer(*server);
}

TEST_F(KafkaEndToEndTest, ExternalClusterResumesFromTheCheckpointAcrossRestarts) {
  auto kafka = webhooks::EmbeddedKafka::Start();
  ASSERT_TRUE(kafka) << kafka.error().message;
  const std::string brokers = (*kafka)->bootstraps();
  auto server = StartServer({"--kafka-brokers", brokers});
  EXPECT_EQ(server->output().find("embedded Kafka"), std::string::npos);
  const std::string id = CreateAndSendContract();
  ASSERT_FALSE(id.empty());
  const std::vector<TopicEvent> events = KcatWaitFor(brokers, id, kLastOfSend);
  ExpectLifecycle(events, id);
  const size_t total = KcatRead(brokers).size();

  // Restarted on the same cluster, the relay starts at its checkpoint: nothing is sent twice.
  StopServer(*server);
  server = StartServer({"--kafka-brokers", brokers});
  const std::string second = CreateAndSendContract();
  const std::vector<TopicEvent> second_events = KcatWaitFor(brokers, second, kLastOfSend);
  ExpectLifecycle(second_events, second);
  const std::vector<TopicEvent> all = KcatRead(brokers);
  EXPECT_EQ(OfContract(all, id).size(), events.size());
  // Only the second client's and contract's events were added (the client's are not published).
  EXPECT_EQ(all.size(), total + second_events.size());

  // A voided contract's end is relayed like every event, with its reason, after what came before.
  VoidContract(second, "Sent by mistake");
  const std::vector<TopicEvent> with_void = KcatWaitFor(brokers, second, "contract.voided");
  ASSERT_EQ(with_void.size(), second_events.size() + 1);
  const auto& voided = with_void.back().value;
  EXPECT_EQ(voided.at("type").as_string(), "contract.voided");
  EXPECT_EQ(voided.at("streamVersion").to_number<uint64_t>(), with_void.size());
  EXPECT_EQ(voided.at("contractOrganizationId").as_string(), "org_k");
  EXPECT_EQ(voided.at("data").at("reason").as_string(), "Sent by mistake");
  EXPECT_TRUE(voided.at("data").at("voidedBy").as_string().starts_with("cli_"));
  EXPECT_FALSE(voided.at("data").at("voidedAt").as_string().empty());
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
