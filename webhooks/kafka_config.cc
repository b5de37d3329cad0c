#include "webhooks/kafka_config.h"

#include <array>

namespace esign::webhooks {

Result<KafkaConf> MakeKafkaConf(const KafkaSettings& settings) {
  KafkaConf conf(rd_kafka_conf_new());
  std::array<char, 512> error{};
  for (const auto& [name, value] : settings) {
    if (rd_kafka_conf_set(conf.get(), name.c_str(), value.c_str(), error.data(), error.size()) !=
        RD_KAFKA_CONF_OK) {
      std::string message = "Kafka setting ";
      message.append(name).append("=").append(value).append(" refused: ").append(error.data());
      return Fail(ErrorCode::kValidationFailed, message, name, error.data());
    }
  }
  return conf;
}

Result<KafkaHandle> MakeKafkaHandle(rd_kafka_type_t type, KafkaConf conf) {
  std::array<char, 512> error{};
  rd_kafka_t* handle = rd_kafka_new(type, conf.get(), error.data(), error.size());
  if (handle == nullptr) {
    return Fail(ErrorCode::kInternal, std::string("cannot create a Kafka client: ") + error.data());
  }
  (void)conf.release();  // rd_kafka_new owns it now
  return KafkaHandle(handle);
}

KafkaSettings GroupMemberSettings(const std::string& brokers, const std::string& group,
                                  const std::string& client_id, const KafkaSettings& more) {
  KafkaSettings settings = {
      {"bootstrap.servers", brokers},
      {"group.id", group},
      {"client.id", client_id},
      {"auto.offset.reset", "earliest"},
      {"enable.auto.offset.store", "false"},
      {"enable.auto.commit", "true"},
      {"auto.commit.interval.ms", "1000"},
      {"fetch.wait.max.ms", "10"},
      {"session.timeout.ms", "10000"},
      {"heartbeat.interval.ms", "1000"},
      {"allow.auto.create.topics", "true"},
  };
  settings.insert(settings.end(), more.begin(), more.end());
  return settings;
}

Result<KafkaHandle> SubscribeConsumer(const KafkaSettings& settings,
                                      const std::vector<std::string>& topics,
                                      const std::function<void(rd_kafka_conf_t*)>& prepare) {
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  if (prepare) prepare(conf->get());
  auto consumer = MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!consumer) return std::unexpected(consumer.error());
  rd_kafka_poll_set_consumer(consumer->get());
  rd_kafka_topic_partition_list_t* list =
      rd_kafka_topic_partition_list_new(static_cast<int>(topics.size()));
  for (const std::string& topic : topics) {
    rd_kafka_topic_partition_list_add(list, topic.c_str(), RD_KAFKA_PARTITION_UA);
  }
  const rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer->get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Fail(ErrorCode::kInternal, std::string("cannot subscribe: ") + rd_kafka_err2str(err));
  }
  return consumer;
}

}  // namespace esign::webhooks
