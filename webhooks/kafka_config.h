// Small helpers around librdkafka's C configuration: a handle type that destroys itself, and a
// configuration built from name/value pairs with every refusal turned into an Error.
// Thread safety: the functions are pure; a handle is as thread-safe as librdkafka's rd_kafka_t.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <librdkafka/rdkafka.h>

#include "domain/result.h"

namespace esign::webhooks {

struct KafkaHandleDeleter {
  void operator()(rd_kafka_t* handle) const { rd_kafka_destroy(handle); }
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaHandleDeleter>;

struct KafkaConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
using KafkaConf = std::unique_ptr<rd_kafka_conf_t, KafkaConfDeleter>;

using KafkaSettings = std::vector<std::pair<std::string, std::string>>;

// A configuration with every setting applied; kValidationFailed naming the refused one.
Result<KafkaConf> MakeKafkaConf(const KafkaSettings& settings);

// Creates a client of `type` from `conf` (which it takes over, also on failure).
Result<KafkaHandle> MakeKafkaHandle(rd_kafka_type_t type, KafkaConf conf);

}  // namespace esign::webhooks
