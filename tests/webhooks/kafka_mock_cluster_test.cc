// kafka-mock-cluster, the Kafka cluster of tests that need one outside the service's process:
// three brokers, a topic replicated on all of them, an idempotent producer's acks=all write
// acknowledged, and a clean stop on SIGTERM.
#include <signal.h>

#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include "tests/support/child_process.h"
#include "webhooks/kafka_config.h"

namespace esign::webhooks {
namespace {

TEST(KafkaMockClusterTest, ThreeBrokersReplicateATopicAndAcknowledgeAnAcksAllWrite) {
  testing::ChildProcess cluster({KAFKA_MOCK_CLUSTER_BINARY, "--brokers", "3", "log-0"});
  auto line = cluster.WaitForLine("bootstrap ", std::chrono::seconds(30));
  ASSERT_TRUE(line.has_value()) << cluster.output();
  std::smatch match;
  ASSERT_TRUE(std::regex_search(*line, match, std::regex(R"(bootstrap (\S+))")));
  const std::string bootstraps = match[1];

  auto conf = MakeKafkaConf({{"bootstrap.servers", bootstraps},
                             {"enable.idempotence", "true"},
                             {"acks", "all"},
                             {"log_level", "3"}});
  ASSERT_TRUE(conf.has_value());
  auto producer = MakeKafkaHandle(RD_KAFKA_PRODUCER, std::move(*conf));
  ASSERT_TRUE(producer.has_value()) << producer.error().message;

  const rd_kafka_metadata_t* metadata = nullptr;
  ASSERT_EQ(rd_kafka_metadata(producer->get(), 1, nullptr, &metadata, 10000),
            RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(metadata->broker_cnt, 3);
  bool found = false;
  for (int i = 0; i < metadata->topic_cnt; ++i) {
    const rd_kafka_metadata_topic_t& topic = metadata->topics[i];
    if (std::string(topic.topic) != "log-0") continue;
    found = true;
    ASSERT_EQ(topic.partition_cnt, 1);
    EXPECT_EQ(topic.partitions[0].replica_cnt, 3);
  }
  rd_kafka_metadata_destroy(metadata);
  EXPECT_TRUE(found);

  const std::string value = "batch 1";
  ASSERT_EQ(rd_kafka_producev(producer->get(), RD_KAFKA_V_TOPIC("log-0"), RD_KAFKA_V_PARTITION(0),
                              RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()),
                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
            RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(rd_kafka_flush(producer->get(), 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
  EXPECT_EQ(rd_kafka_outq_len(producer->get()), 0);
  producer->reset();

  cluster.Signal(SIGTERM);
  EXPECT_EQ(cluster.Wait(std::chrono::seconds(30)), std::optional<int>(0)) << cluster.output();
}

}  // namespace
}  // namespace esign::webhooks
