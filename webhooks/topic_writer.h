// TopicWriter: writes small batches of messages to Kafka and waits until the cluster has them
// (idempotent producer, acks=all), for the dispatcher's records and requests that must not be lost
// once acknowledged to their sender: delivery outcomes of a dispatcher outside contractd, disable
// requests, and retry requests (delivery_topics.h). Keys go through the same partitioner as the
// relay's (murmur2, like Java clients), so a key lands in the same partition number in every topic
// of the same partition count. Every message carries its contractd-mac header (message_auth.h).
// Thread safety: Write may be called from any thread; a poller thread serves delivery reports.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "domain/result.h"
#include "webhooks/kafka_config.h"
#include "webhooks/message_auth.h"

namespace esign::webhooks {

struct TopicMessage {
  std::string topic;
  std::string key;
  std::string value;
};

struct TopicWriterOptions {
  std::string brokers;  // required
  MessageAuth auth;     // signs every message; required
  std::string client_id = "contractd-writer";
  // How long a message may wait for the cluster before Write fails. Default: 30 s.
  std::chrono::milliseconds timeout{30000};
  KafkaSettings settings;  // more producer settings, applied last (tests)
  // The topics it writes to, known at start so that the first message to each does not wait for
  // the topic's metadata (up to a second). Others may be written too. Default: none.
  std::vector<std::string> topics;
};

class TopicWriter {
 public:
  static Result<std::unique_ptr<TopicWriter>> Start(TopicWriterOptions options);
  ~TopicWriter();
  TopicWriter(const TopicWriter&) = delete;
  TopicWriter& operator=(const TopicWriter&) = delete;

  // Produces the messages and returns once every one is acknowledged; kUnavailable when one is
  // refused or not acknowledged within the timeout (some may have been written: writers of this
  // class only write what may be written twice), or once StopWithin's grace has passed.
  Status Write(const std::vector<TopicMessage>& messages);

  // Stopping: Writes under way (and later ones) get `grace` from now to be acknowledged; then
  // what the cluster has not acknowledged is dropped and they fail, so a stop does not wait
  // for the timeout of a cluster that is gone. Any thread.
  void StopWithin(std::chrono::milliseconds grace);

 private:
  TopicWriter(KafkaHandle producer, std::vector<KafkaTopic> topics, MessageAuth auth);
  static void OnDelivery(rd_kafka_t* handle, const rd_kafka_message_t* message, void* opaque);

  KafkaHandle producer_;
  std::vector<KafkaTopic> topics_;  // options.topics, on producer_; kept for their metadata
  const MessageAuth auth_;
  // Steady-clock ticks after which Writes give up; max while not stopping.
  std::atomic<std::chrono::steady_clock::rep> give_up_at_{
      std::chrono::steady_clock::time_point::max().time_since_epoch().count()};
  std::jthread poller_;
};

}  // namespace esign::webhooks
