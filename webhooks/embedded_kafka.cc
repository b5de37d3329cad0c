#include "webhooks/embedded_kafka.h"

#include <algorithm>

namespace esign::webhooks {

Result<std::unique_ptr<EmbeddedKafka>> EmbeddedKafka::Start(const EmbeddedKafkaOptions& options) {
  // The host client never connects anywhere: it only lends its threads to the mock brokers.
  auto conf = MakeKafkaConf({{"client.id", "contractd-embedded-kafka"}, {"log_level", "3"}});
  if (!conf) return std::unexpected(conf.error());
  auto host = MakeKafkaHandle(RD_KAFKA_PRODUCER, std::move(*conf));
  if (!host) return std::unexpected(host.error());
  std::unique_ptr<EmbeddedKafka> kafka(new EmbeddedKafka());
  kafka->host_ = std::move(*host);
  kafka->cluster_ = rd_kafka_mock_cluster_new(kafka->host_.get(), options.brokers);
  if (kafka->cluster_ == nullptr) {
    return Fail(ErrorCode::kInternal, "cannot start the embedded Kafka cluster");
  }
  for (const std::string& topic : options.topics) {
    const rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(
        kafka->cluster_, topic.c_str(), options.partitions, std::min(options.brokers, 3));
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Fail(ErrorCode::kInternal,
                  "cannot create topic " + topic + ": " + rd_kafka_err2str(err));
    }
  }
  kafka->bootstraps_ = rd_kafka_mock_cluster_bootstraps(kafka->cluster_);
  return kafka;
}

EmbeddedKafka::~EmbeddedKafka() {
  if (cluster_ != nullptr) rd_kafka_mock_cluster_destroy(cluster_);
}

}  // namespace esign::webhooks
