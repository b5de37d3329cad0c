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

}  // namespace esign::webhooks
