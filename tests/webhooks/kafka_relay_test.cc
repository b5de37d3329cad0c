// The relay against the embedded (mock) cluster, read back with a librdkafka consumer.
#include "webhooks/kafka_relay.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <set>

#include "eventstore/rocksdb_event_store.h"
#include "tests/support/temp_dir.h"
#include "tests/webhooks/topic_reader.h"
#include "webhooks/embedded_kafka.h"

namespace esign::webhooks {
namespace {

using esign::testing::ReadTopic;
using esign::testing::TopicMessage;

constexpr auto kWait = std::chrono::seconds(30);

class KafkaRelayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    eventstore::RocksStoreOptions options;
    options.data_dir = dir_.path();
    auto store = eventstore::RocksEventStore::Open(options);
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
    auto kafka = EmbeddedKafka::Start();
    ASSERT_TRUE(kafka) << kafka.error().message;
    kafka_ = std::move(*kafka);
  }
  void TearDown() override {
    relay_.reset();
    store_->Close();
  }

  void Append(const std::string& stream, int count, const std::string& data = "{}") {
    std::vector<eventstore::NewEvent> events;
    for (int i = 0; i < count; ++i) {
      events.push_back({"evt_" + std::to_string(next_id_++), "test.happened", 1, data, {}});
    }
    ASSERT_TRUE(store_->Append(stream, eventstore::ExpectedVersion::Any(), std::move(events)));
  }

  void StartRelay(const std::string& cluster = "test-cluster") {
    auto checkpoint = RelayCheckpoint::Open(*store_, "contract-events");
    ASSERT_TRUE(checkpoint);
    KafkaRelayOptions options;
    options.brokers = kafka_->bootstraps();
    options.cluster = cluster;
    auto relay = KafkaRelay::Start(*store_, std::move(*checkpoint), options);
    ASSERT_TRUE(relay) << relay.error().message;
    relay_ = std::move(*relay);
  }

  std::vector<TopicMessage> ReadAll(size_t count) {
    return ReadTopic(kafka_->bootstraps(), "contract-events", count, kWait,
                     std::chrono::milliseconds(500));
  }

  static boost::json::object Value(const TopicMessage& m) {
    return boost::json::parse(m.value).as_object();
  }

  esign::testing::TempDir dir_;
  std::unique_ptr<eventstore::RocksEventStore> store_;
  std::unique_ptr<EmbeddedKafka> kafka_;
  std::unique_ptr<KafkaRelay> relay_;
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
  ASSERT_TRUE(relay_->WaitForAcknowledged(store_->Size(), kWait));
  EXPECT_EQ(relay_->acknowledged(), 10u);

  const std::vector<TopicMessage> messages = ReadAll(8);
  ASSERT_EQ(messages.size(), 8u);
  std::map<std::string, std::vector<uint64_t>> positions_by_key;
  std::map<std::string, int32_t> partition_of_key;
  std::set<std::string> event_ids;
  for (const TopicMessage& m : messages) {
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

TEST_F(KafkaRelayTest, ResumesFromItsCheckpointAfterRestart) {
  Append("contract-ctr_a", 5);
  StartRelay();
  ASSERT_TRUE(relay_->WaitForAcknowledged(5, kWait));
  relay_->Stop();
  relay_.reset();

  Append("contract-ctr_a", 3);
  StartRelay();
  ASSERT_TRUE(relay_->WaitForAcknowledged(8, kWait));
  const std::vector<TopicMessage> messages = ReadAll(8);
  // Each event exactly once: the second relay started where the first stopped.
  ASSERT_EQ(messages.size(), 8u);
  for (size_t i = 0; i < messages.size(); ++i) {
    EXPECT_EQ(Value(messages[i]).at("position").to_number<uint64_t>(), i);
  }
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
  ASSERT_TRUE(relay_->WaitForAcknowledged(2, kWait));
  ASSERT_EQ(rd_kafka_mock_broker_set_down(kafka_->cluster(), 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  Append("contract-ctr_a", 3);
  Append("contract-ctr_b", 3);
  ASSERT_EQ(rd_kafka_mock_broker_set_up(kafka_->cluster(), 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  ASSERT_TRUE(relay_->WaitForAcknowledged(8, kWait));
  const std::vector<TopicMessage> messages = ReadAll(8);
  std::set<uint64_t> positions;
  for (const TopicMessage& m : messages)
    positions.insert(Value(m).at("position").to_number<uint64_t>());
  EXPECT_EQ(positions.size(), 8u);
  EXPECT_EQ(*positions.rbegin(), 7u);
}

}  // namespace
}  // namespace esign::webhooks
