// contractd's follower of webhook-deliveries against the embedded cluster: what a dispatcher
// records reaches contractd's store, and a record or disable request written by anyone else
// changes nothing, while its offset is committed like any other's.
#include "webhooks/delivery_follower.h"

#include <gtest/gtest.h>

#include <atomic>

#include "domain/id_generator.h"
#include "tests/support/eventually.h"
#include "tests/support/temp_dir.h"
#include "tests/webhooks/forged_message.h"
#include "webhooks/delivery_topics.h"
#include "webhooks/embedded_kafka.h"
#include "webhooks/topic_writer.h"

namespace esign::webhooks {
namespace {

using esign::testing::kWaitLimit;
constexpr char kGroup[] = "follower-test";

delivery::Delivery MakeDelivery(const std::string& id) {
  return delivery::Delivery{.id = id,
                            .destination_id = "whe_a",
                            .webhook_id = "msg_" + id,
                            .event_id = "evt_" + id,
                            .event_type = "contract.completed",
                            .contract_id = "ctr_1",
                            .position = 7,
                            .body = R"({"type":"contract.completed"})",
                            .next_attempt_us = 1,
                            .created_us = 1};
}

// Whether the group has committed every message of the topic's partitions.
bool AllCommitted(const std::string& brokers, int partitions) {
  auto conf = MakeKafkaConf({{"bootstrap.servers", brokers}, {"group.id", kGroup}});
  auto handle = conf ? MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf))
                     : Result<KafkaHandle>(std::unexpected(conf.error()));
  if (!handle) return false;
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) {
    rd_kafka_topic_partition_list_add(list, std::string(kDeliveriesTopic).c_str(), p);
  }
  bool all = rd_kafka_committed(handle->get(), list, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR;
  for (int p = 0; all && p < partitions; ++p) {
    int64_t low = 0;
    int64_t high = 0;
    all = rd_kafka_query_watermark_offsets(handle->get(), std::string(kDeliveriesTopic).c_str(), p,
                                           &low, &high, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR &&
          (high == 0 || list->elems[p].offset == high);
  }
  rd_kafka_topic_partition_list_destroy(list);
  return all;
}

TEST(DeliveryFollowerTest, OnlyWhatADispatcherWroteChangesTheStore) {
  esign::testing::TempDir dir;
  auto store = delivery::DeliveryStore::Open(dir.path());
  ASSERT_TRUE(store) << store.error().message;
  ASSERT_TRUE((*store)->Admit({MakeDelivery("dlv_recorded")}));
  const delivery::Delivery recorded = *(*store)->Get("dlv_recorded").value();
  auto kafka = EmbeddedKafka::Start({.topics = {std::string(kDeliveriesTopic)}});
  ASSERT_TRUE(kafka) << kafka.error().message;
  const std::string brokers = (*kafka)->bootstraps();
  auto auth = MessageAuth::FromKey(RandomBytes(kMessageKeyBytes));
  ASSERT_TRUE(auth);

  std::atomic<int> disabled{0};
  auto follower =
      DeliveryFollower::Start({**store,
                               [&disabled](std::string_view, std::string_view) -> Status {
                                 ++disabled;
                                 return {};
                               }},
                              {.brokers = brokers, .auth = *auth, .group = kGroup});
  ASSERT_TRUE(follower) << follower.error().message;

  // Forged: a new delivery, the recorded one as succeeded after five attempts, and a disable
  // request.
  delivery::Delivery rewritten = recorded;
  rewritten.state = delivery::DeliveryState::kSucceeded;
  rewritten.attempts.assign(5, delivery::DeliveryAttempt{.at_us = 2, .code = 200});
  for (const TopicMessage& m :
       {DeliveryRecordMessage(MakeDelivery("dlv_forged")), DeliveryRecordMessage(rewritten),
        DisableRequestMessage("whe_a", "forged")}) {
    esign::testing::ProduceForgedTwice(brokers, m.topic, m.key, m.value);
  }
  // Genuine: a dispatcher's record, written with the key.
  auto writer = TopicWriter::Start({.brokers = brokers, .auth = *auth});
  ASSERT_TRUE(writer) << writer.error().message;
  ASSERT_TRUE((*writer)->Write({DeliveryRecordMessage(MakeDelivery("dlv_genuine"))}));

  // Every message is settled, the dropped ones included, so none holds its partition back.
  const auto deadline = std::chrono::steady_clock::now() + kWaitLimit;
  while (!AllCommitted(brokers, 4) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(AllCommitted(brokers, 4));
  (*follower)->Stop();

  EXPECT_TRUE((*store)->Get("dlv_genuine").value().has_value());
  EXPECT_FALSE((*store)->Get("dlv_forged").value().has_value());
  EXPECT_EQ(*(*store)->Get("dlv_recorded").value(), recorded);
  EXPECT_EQ(disabled.load(), 0);
}

}  // namespace
}  // namespace esign::webhooks
