// The relay against the embedded (mock) cluster, read back with a librdkafka consumer.
#include "webhooks/kafka_relay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <set>

#include "domain/id_generator.h"
#include "tests/support/eventually.h"
#include "tests/webhooks/relay_fixture.h"
#include "tests/webhooks/topic_reader.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {
namespace {

using esign::testing::ReadTopic;
// Named apart from webhooks::TopicMessage, what the service writes.
using ReadMessage = esign::testing::TopicMessage;

using esign::testing::kWaitLimit;

class KafkaRelayTest : public esign::testing::RelayFixture {
 protected:
  void SetUp() override {
    RelayFixture::SetUp();
    StartKafka();
  }

  void Append(const std::string& stream, int count, const std::string& data = "{}") {
    std::vector<eventstore::NewEvent> events;
    events.reserve(count);
    for (int i = 0; i < count; ++i) {
      events.push_back({"evt_" + std::to_string(next_id_++), "test.happened", 1, data, {}});
    }
    ASSERT_TRUE(store_->Append(stream, eventstore::ExpectedVersion::Any(), std::move(events)));
  }

  void AppendEvent(const std::string& stream, const std::string& type, const std::string& data) {
    ASSERT_TRUE(store_->Append(stream, eventstore::ExpectedVersion::Any(),
                               {{"evt_" + std::to_string(next_id_++), type, 1, data, {}}}));
  }

  std::vector<ReadMessage> ReadAll(size_t count, const std::string& topic = "contract-events") {
    return ReadTopic(kafka_->bootstraps(), topic, count, kWaitLimit,
                     std::chrono::milliseconds(500));
  }

  static boost::json::object Value(const ReadMessage& m) {
    return boost::json::parse(m.value).as_object();
  }

  // The embedded cluster's only broker.
  static constexpr int32_t kMockBrokerId = 1;

  // Every partition of webhook-endpoints led by `broker` (-1: none).
  void SetEndpointsLeader(int32_t broker) {
    for (int32_t partition = 0; partition < EmbeddedKafkaOptions{}.partitions; ++partition) {
      ASSERT_EQ(rd_kafka_mock_partition_set_leader(kafka_->cluster(), "webhook-endpoints",
                                                   partition, broker),
                RD_KAFKA_RESP_ERR_NO_ERROR);
    }
  }

  int next_id_ = 0;
};

TEST_F(KafkaRelayTest, PublishesEveryPublicEventInLogOrderPerContract) {
  Append("contract-ctr_a", 3);
  Append("client-cli_1", 1);
  StartRelay();
  // Appended after the start: the relay is woken by the append.
  Append("idempotency-k1", 1);
  Append("contract-ctr_b", 2);
  Append("template-tpl_1", 1);
  Append("contract-ctr_a", 2);
  ASSERT_TRUE(relay_->WaitForAcknowledged(store_->Size(), kWaitLimit));
  EXPECT_EQ(relay_->acknowledged(), 10u);

  const std::vector<ReadMessage> messages = ReadAll(8);
  ASSERT_EQ(messages.size(), 8u);
  std::map<std::string, std::vector<uint64_t>> positions_by_key;
  std::map<std::string, int32_t> partition_of_key;
  std::set<std::string> event_ids;
  for (const ReadMessage& m : messages) {
    const auto value = Value(m);
    const std::string stream(value.at("streamId").as_string());
    EXPECT_FALSE(stream.starts_with("client-") || stream.starts_with("idempotency-")) << stream;
    positions_by_key[m.key].push_back(value.at("position").to_number<uint64_t>());
    event_ids.insert(std::string(value.at("eventId").as_string()));
    // One key, one partition.
    auto [it, inserted] = partition_of_key.emplace(m.key, m.partition);
    EXPECT_EQ(it->second, m.partition) << m.key;
  }
  EXPECT_EQ(event_ids.size(), 8u);
  EXPECT_EQ(positions_by_key["ctr_a"], (std::vector<uint64_t>{0, 1, 2, 8, 9}));
  EXPECT_EQ(positions_by_key["ctr_b"], (std::vector<uint64_t>{5, 6}));
  EXPECT_EQ(positions_by_key["template-tpl_1"], (std::vector<uint64_t>{7}));
}

TEST_F(KafkaRelayTest, ABytesLimitOfOneMessagePublishesEveryEventOnceInOrder) {
  // Every message alone is over the limit: the relay hands one to the producer, waits for its
  // acknowledgement, then the next.
  for (int i = 0; i < 10; ++i) Append("contract-ctr_" + std::to_string(i % 3), 4);
  StartRelay("test-cluster", /*max_in_flight_bytes=*/1);
  ASSERT_TRUE(relay_->WaitForAcknowledged(40, kWaitLimit));
  const std::vector<ReadMessage> messages = ReadAll(40);
  ASSERT_EQ(messages.size(), 40u);
  std::map<std::string, std::vector<uint64_t>> positions_by_key;
  for (const ReadMessage& m : messages) {
    positions_by_key[m.key].push_back(Value(m).at("position").to_number<uint64_t>());
  }
  ASSERT_EQ(positions_by_key.size(), 3u);
  for (const auto& [key, positions] : positions_by_key) {
    EXPECT_TRUE(std::is_sorted(positions.begin(), positions.end())) << key;
    EXPECT_EQ(std::set<uint64_t>(positions.begin(), positions.end()).size(), positions.size());
  }
}

TEST_F(KafkaRelayTest, ResumesFromItsCheckpointAfterRestart) {
  Append("contract-ctr_a", 5);
  StartRelay();
  ASSERT_TRUE(relay_->WaitForAcknowledged(5, kWaitLimit));
  relay_->Stop();
  relay_.reset();

  Append("contract-ctr_a", 3);
  StartRelay();
  ASSERT_TRUE(relay_->WaitForAcknowledged(8, kWaitLimit));
  const std::vector<ReadMessage> messages = ReadAll(8);
  // Each event exactly once: the second relay started where the first stopped.
  ASSERT_EQ(messages.size(), 8u);
  for (size_t i = 0; i < messages.size(); ++i) {
    EXPECT_EQ(Value(messages[i]).at("position").to_number<uint64_t>(), i);
  }
}

TEST_F(KafkaRelayTest, ANewMessageKeyPublishesTheLogAgainSignedWithIt) {
  Append("contract-ctr_a", 3);
  StartRelay();
  ASSERT_TRUE(relay_->WaitForAcknowledged(3, kWaitLimit));
  relay_->Stop();
  relay_.reset();

  // What the old key signed, readers drop: the checkpoint holds for one key only.
  const MessageAuth old_auth = auth_;
  auth_ = MessageAuth::FromKey(RandomBytes(kMessageKeyBytes)).value();
  StartRelay();
  ASSERT_TRUE(relay_->WaitForAcknowledged(3, kWaitLimit));
  const std::vector<ReadMessage> messages = ReadAll(6);
  ASSERT_EQ(messages.size(), 6u);
  size_t old_signed = 0;
  std::set<uint64_t> new_signed;
  for (const ReadMessage& m : messages) {
    old_signed += old_auth.Valid("contract-events", m.key, m.value, m.mac);
    if (auth_.Valid("contract-events", m.key, m.value, m.mac)) {
      new_signed.insert(Value(m).at("position").to_number<uint64_t>());
    }
  }
  EXPECT_EQ(old_signed, 3u);
  EXPECT_EQ(new_signed, (std::set<uint64_t>{0, 1, 2}));
}

TEST_F(KafkaRelayTest, RefusesToStartWithoutAMessageKey) {
  auto checkpoint = RelayCheckpoint::Open(*store_, "contract-events");
  ASSERT_TRUE(checkpoint);
  auto relay =
      KafkaRelay::Start(*store_, std::move(*checkpoint), {.brokers = kafka_->bootstraps()});
  ASSERT_FALSE(relay);
  EXPECT_EQ(relay.error().code, ErrorCode::kValidationFailed);
}

TEST_F(KafkaRelayTest, CheckpointOfAnotherClusterCountsAsNone) {
  auto checkpoint = RelayCheckpoint::Open(*store_, "contract-events");
  ASSERT_TRUE(checkpoint);
  ASSERT_TRUE(checkpoint->Store("cluster-1", 17));
  EXPECT_EQ(checkpoint->Load("cluster-1").value(), 17u);
  EXPECT_EQ(checkpoint->Load("cluster-2").value(), 0u);
  // Not an event of the log.
  EXPECT_EQ(store_->Size(), 0u);
}

TEST_F(KafkaRelayTest, CatchesUpWhenTheBrokerComesBack) {
  StartRelay();
  Append("contract-ctr_a", 2);
  ASSERT_TRUE(relay_->WaitForAcknowledged(2, kWaitLimit));
  ASSERT_EQ(rd_kafka_mock_broker_set_down(kafka_->cluster(), 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  Append("contract-ctr_a", 3);
  Append("contract-ctr_b", 3);
  ASSERT_EQ(rd_kafka_mock_broker_set_up(kafka_->cluster(), 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  ASSERT_TRUE(relay_->WaitForAcknowledged(8, kWaitLimit));
  const std::vector<ReadMessage> messages = ReadAll(8);
  std::set<uint64_t> positions;
  for (const ReadMessage& m : messages)
    positions.insert(Value(m).at("position").to_number<uint64_t>());
  EXPECT_EQ(positions.size(), 8u);
  EXPECT_EQ(*positions.rbegin(), 7u);
}

TEST_F(KafkaRelayTest, EndpointEventsGoToTheirOwnTopicInOrderAndNeverToContractEvents) {
  AppendEvent("contract-ctr_a", "contract.created", R"({"organizationId":"org_a"})");  // 0
  AppendEvent("webhook-whe_1", "webhook_endpoint.created", R"({"n":1})");              // 1
  AppendEvent("webhook-whe_2", "webhook_endpoint.created", R"({"n":2})");              // 2
  AppendEvent("contract-ctr_a", "contract.sent", "{}");                                // 3
  AppendEvent("webhook-whe_1", "webhook_endpoint.updated", R"({"n":3})");              // 4
  AppendEvent("client-cli_1", "client.created", "{}");                                 // 5
  StartRelay();
  AppendEvent("session-ses_1", "session.started", R"({"contractId":"ctr_a"})");         // 6
  AppendEvent("webhook-whe_1", "webhook_endpoint.deleted", R"({"n":4})");               // 7
  AppendEvent("template-tpl_1", "template.imported", R"({"organizationId":"org_t"})");  // 8
  ASSERT_TRUE(relay_->WaitForAcknowledged(store_->Size(), kWaitLimit));

  const std::vector<ReadMessage> endpoints = ReadAll(4, "webhook-endpoints");
  ASSERT_EQ(endpoints.size(), 4u);
  std::map<std::string, std::vector<uint64_t>> positions_by_key;
  for (const ReadMessage& m : endpoints) {
    auto record = ParseEventMessage(m.value);
    ASSERT_TRUE(record) << m.value;
    EXPECT_EQ(m.key, record->stream_id);
    EXPECT_TRUE(Value(m).at("contractOrganizationId").is_null());
    EXPECT_TRUE(auth_.Valid("webhook-endpoints", m.key, m.value, m.mac)) << m.value;
    positions_by_key[m.key].push_back(record->position.value());
  }
  EXPECT_EQ(positions_by_key["webhook-whe_1"], (std::vector<uint64_t>{1, 4, 7}));
  EXPECT_EQ(positions_by_key["webhook-whe_2"], (std::vector<uint64_t>{2}));

  const std::vector<ReadMessage> contract_events = ReadAll(4);
  ASSERT_EQ(contract_events.size(), 4u);
  std::map<uint64_t, boost::json::value> controller_by_position;
  for (const ReadMessage& m : contract_events) {
    const auto value = Value(m);
    EXPECT_FALSE(value.at("streamId").as_string().starts_with("webhook-")) << m.value;
    EXPECT_TRUE(auth_.Valid("contract-events", m.key, m.value, m.mac)) << m.value;
    controller_by_position[value.at("position").to_number<uint64_t>()] =
        value.at("contractOrganizationId");
  }
  // Every event of the contract names its controller, also those of other streams.
  EXPECT_EQ(controller_by_position.at(0), boost::json::value("org_a"));
  EXPECT_EQ(controller_by_position.at(3), boost::json::value("org_a"));
  EXPECT_EQ(controller_by_position.at(6), boost::json::value("org_a"));
  EXPECT_TRUE(controller_by_position.at(8).is_null());
}

TEST_F(KafkaRelayTest, NoLaterEventIsPublishedBeforeAnEndpointEventIsAcknowledged) {
  StartRelay();
  AppendEvent("contract-ctr_a", "contract.created", R"({"organizationId":"org_a"})");
  ASSERT_TRUE(relay_->WaitForAcknowledged(1, kWaitLimit));
  // The endpoints topic has no leader for now: its message waits in the producer (which knows
  // the topic's metadata from its start).
  SetEndpointsLeader(-1);
  AppendEvent("webhook-whe_1", "webhook_endpoint.created", R"({"n":1})");
  AppendEvent("contract-ctr_a", "contract.sent", "{}");
  EXPECT_FALSE(relay_->WaitForAcknowledged(2, std::chrono::milliseconds(1500)));
  // The contract event behind it is held back, though its topic is available.
  const std::vector<ReadMessage> published = ReadAll(1);
  ASSERT_EQ(published.size(), 1u);
  EXPECT_EQ(Value(published[0]).at("position").to_number<uint64_t>(), 0u);
  EXPECT_EQ(relay_->acknowledged(), 1u);

  SetEndpointsLeader(kMockBrokerId);
  ASSERT_TRUE(relay_->WaitForAcknowledged(3, kWaitLimit));
  EXPECT_EQ(ReadAll(1, "webhook-endpoints").size(), 1u);
  EXPECT_EQ(ReadAll(2).size(), 2u);
}

TEST_F(KafkaRelayTest, KnowsItsTopicsFromItsStart) {
  // Its producer asks for both topics' metadata as it starts, not at its first message to each
  // (which waited for the client's next topic scan, up to a second).
  StartRelay();
  AppendEvent("webhook-whe_1", "webhook_endpoint.created", R"({"n":1})");
  ASSERT_TRUE(relay_->WaitForAcknowledged(1, kWaitLimit));  // connected, metadata received
  // From here on a producer meeting contract-events for the first time could not publish to it.
  rd_kafka_mock_topic_set_error(kafka_->cluster(), "contract-events",
                                RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE);
  AppendEvent("contract-ctr_a", "contract.created", R"({"organizationId":"org_a"})");
  EXPECT_TRUE(relay_->WaitForAcknowledged(2, kWaitLimit));
  rd_kafka_mock_topic_set_error(kafka_->cluster(), "contract-events", RD_KAFKA_RESP_ERR_NO_ERROR);
}

}  // namespace
}  // namespace esign::webhooks
