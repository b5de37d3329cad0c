// The log topic of one shard (DESIGN 22), as the replicated log uses it: one partition, written by
// one idempotent producer with acks=all, one message at a time, and read from any offset. A
// message is acknowledged only once every in-sync replica has it (min.insync.replicas on a real
// cluster), and readers see messages only up to the high watermark, so what a reader applies is
// what the cluster has acknowledged.
// Thread safety: Produce from one thread at a time; Read from one thread at a time,
// which may be another than the producer's.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "webhooks/kafka_config.h"

namespace esign::replication {

struct KafkaLogTopicOptions {
  std::string brokers;  // required
  std::string topic;    // required; must exist with one partition
  std::string client_id = "contractd-log";
  // How long a message may wait for the cluster before Produce fails. Default: 5 s.
  std::chrono::milliseconds timeout{5000};
  webhooks::KafkaSettings settings;  // more settings for both clients, applied last
};

class KafkaLogTopic {
 public:
  // kUnavailable when the cluster does not answer within the timeout; kValidationFailed when the
  // topic does not exist or has more than one partition.
  static Result<std::unique_ptr<KafkaLogTopic>> Open(const KafkaLogTopicOptions& options);
  ~KafkaLogTopic();
  KafkaLogTopic(const KafkaLogTopic&) = delete;
  KafkaLogTopic& operator=(const KafkaLogTopic&) = delete;

  // Produces one message and waits for the cluster's acknowledgement: its offset. kUnavailable
  // when it was not acknowledged (it may still have been written).
  Result<int64_t> Produce(std::string_view bytes);
  // Calls `each(offset, bytes)` for the messages from `from` on, in order: until the one before
  // `until`; with kToEnd, until the end of the topic as the cluster reports it while reading (the
  // high watermark: every message it acknowledged); with kFollow, until `stop`, waiting for new
  // messages meanwhile. A bounded read that makes no progress for twice the timeout fails with
  // kUnavailable (the cluster is away), and an error from `each` ends the read with it. (Not
  // librdkafka's watermark query: with every broker down, it waits past its timeout.)
  static constexpr int64_t kToEnd = -1;
  static constexpr int64_t kFollow = -2;
  using Each = std::function<Status(int64_t offset, std::string_view bytes)>;
  Status Read(int64_t from, int64_t until, const Each& each, const std::stop_token& stop = {});

 private:
  explicit KafkaLogTopic(KafkaLogTopicOptions options) : options_(std::move(options)) {}
  Status MakeProducer();

  const KafkaLogTopicOptions options_;
  webhooks::KafkaHandle producer_;
  webhooks::KafkaTopic producer_topic_;
  webhooks::KafkaHandle consumer_;
};

}  // namespace esign::replication
