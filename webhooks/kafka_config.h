// Small helpers around librdkafka's C configuration: a handle type that destroys itself, and a
// configuration built from name/value pairs with every refusal turned into an Error.
// Thread safety: the functions are pure; a handle is as thread-safe as librdkafka's rd_kafka_t.
#pragma once

#include <functional>
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

// What the service's consumer group members share: offsets stored by hand once a message's work
// is recorded (the consumer commits stored offsets only, every second), fetches that return as
// soon as there is data (or after 10 ms), a 10 s session (a member that died keeps its partitions
// that long, so its successor waits that long), and topics created by subscribing (a topic made
// later would be noticed only at the next metadata refresh, minutes later). `more` is applied
// last.
KafkaSettings GroupMemberSettings(const std::string& brokers, const std::string& group,
                                  const std::string& client_id, const KafkaSettings& more);

// A consumer with `settings`, subscribed to `topics`, serving its events through
// rd_kafka_consumer_poll; `prepare` may set callbacks on the configuration first.
Result<KafkaHandle> SubscribeConsumer(const KafkaSettings& settings,
                                      const std::vector<std::string>& topics,
                                      const std::function<void(rd_kafka_conf_t*)>& prepare = {});

}  // namespace esign::webhooks
