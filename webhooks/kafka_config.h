// Small helpers around librdkafka's C configuration: a handle type that closes and destroys itself
// within a bounded time, and a configuration built from name/value pairs with every refusal turned
// into an Error. Every handle made here logs through our own log (log_line.h): librdkafka's log
// lines and error events become "contractd: kafka <client>: <level> ...", and a client being
// closed on purpose does not report the brokers it leaves as down.
// Thread safety: the functions may be called from any thread; a handle is as thread-safe as
// librdkafka's rd_kafka_t.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <librdkafka/rdkafka.h>

#include "domain/result.h"

namespace esign::webhooks {

// The longest a consumer's close waits for its cluster (commit, leave the group). Past it the
// consumer goes without: its partitions pass to the next owner after the session timeout, as a
// crashed member's would, and what was not committed is read again there.
inline constexpr std::chrono::milliseconds kKafkaCloseTimeout{2000};
// The longest DestroyKafkaHandle waits for librdkafka's threads to end; past it they end on their
// own (no callback of the application is called any more).
inline constexpr std::chrono::milliseconds kKafkaDestroyTimeout{1000};

// Closes a consumer within about `timeout`, whatever its cluster does: it gives its assignment up
// (the application's rebalance callback is not called: store what is settled before), commits the
// offsets stored (enable.auto.commit) and leaves its group while the cluster answers in time. From
// here on the handle does not log its brokers going away. Nothing when closed already.
void CloseKafkaConsumer(rd_kafka_t* handle, std::chrono::milliseconds timeout = kKafkaCloseTimeout);

// Destroys a client within kKafkaCloseTimeout + kKafkaDestroyTimeout: a consumer is closed first
// (CloseKafkaConsumer) unless it was; a producer's messages not yet acknowledged are dropped (flush
// first, with a bound of your own). Its brokers going away is not logged.
void DestroyKafkaHandle(rd_kafka_t* handle);

struct KafkaHandleDeleter {
  void operator()(rd_kafka_t* handle) const { DestroyKafkaHandle(handle); }
};
using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaHandleDeleter>;

struct KafkaConfDeleter {
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
};
using KafkaConf = std::unique_ptr<rd_kafka_conf_t, KafkaConfDeleter>;

using KafkaSettings = std::vector<std::pair<std::string, std::string>>;

struct KafkaTopicDeleter {
  void operator()(rd_kafka_topic_t* topic) const { rd_kafka_topic_destroy(topic); }
};
// Destroy it before the client it belongs to.
using KafkaTopic = std::unique_ptr<rd_kafka_topic_t, KafkaTopicDeleter>;

// A handle of `topic` on the producer `handle`, made before its first message: librdkafka asks
// for a topic's metadata when its handle is made (or once connected), while a topic first named
// by a produce call waits for the client's next topic scan, up to a second.
Result<KafkaTopic> MakeKafkaTopic(rd_kafka_t* handle, const std::string& topic);

// A configuration with every setting applied; kValidationFailed naming the refused one.
Result<KafkaConf> MakeKafkaConf(const KafkaSettings& settings);

// Creates a client of `type` from `conf` (which it takes over, also on failure), logging through
// LogLine (log and error callbacks set here: do not set them on `conf`).
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
