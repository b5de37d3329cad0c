// EndpointFeed: the endpoint directory of a process outside contractd (a dispatcher of its own).
// Inside contractd the directory is a projection of the log; here it is rebuilt from the endpoints
// topic the relay publishes the "webhook-*" streams to (docs/events.md, "The endpoints topic").
//
// A thread of its own consumes every partition of the topic from its beginning (rd_kafka_assign,
// no consumer group: no join, no committed offsets; group.id is unique per instance), turns each
// message back into its event record (ParseEventMessage), applies it to the directory and
// commits it there, so the directory's SetOnChange listener fires. The relay is at least once: a
// message of a version already applied to its endpoint is skipped, and so is a message without a
// valid contractd-mac (message_auth.h): only endpoints the relay published can receive
// deliveries. Partitions are discovered from the topic's metadata, also while the topic does not
// exist yet and when partitions are added.
//
// Because the relay publishes no later event before an endpoint event is acknowledged, a reader of
// contract-events that has seen position P and then calls CatchUp finds in the directory every
// endpoint change before P.
// Thread safety: every public method may be called from any thread; the directory's readers see
// what is committed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "domain/stream_kinds.h"
#include "webhooks/endpoint_directory.h"
#include "webhooks/kafka_config.h"
#include "webhooks/message_auth.h"

namespace esign::webhooks {

struct EndpointFeedOptions {
  // bootstrap.servers of the cluster. Required.
  std::string brokers;
  // Checks every message. Required.
  MessageAuth auth;
  // Default: webhook-endpoints.
  std::string topic{kEndpointsTopic};
  // More librdkafka consumer settings, applied last (tests). Default: none.
  KafkaSettings settings;
};

class EndpointFeed {
 public:
  // Creates the consumer and starts its thread. kValidationFailed for refused settings.
  static Result<std::unique_ptr<EndpointFeed>> Start(EndpointFeedOptions options);
  ~EndpointFeed();  // Stop
  EndpointFeed(const EndpointFeed&) = delete;
  EndpointFeed& operator=(const EndpointFeed&) = delete;

  const EndpointDirectory& directory() const { return directory_; }
  // For SetOnChange; Apply, Committed and Load are the feed's own.
  EndpointDirectory& directory() { return directory_; }

  // Blocks until every message that was in the topic when called has been applied: reads the high
  // watermark of every partition, then waits for the thread to reach them. A topic that does not
  // exist counts as empty. False when the timeout passed first (or the cluster did not answer).
  bool CatchUp(std::chrono::milliseconds timeout);

  // Ends the thread and closes the consumer (within kKafkaCloseTimeout and a poll); the directory
  // keeps what was applied. A CatchUp under way, or called later, returns false at once.
  // Idempotent.
  void Stop();

 private:
  explicit EndpointFeed(EndpointFeedOptions options);
  void Run(const std::stop_token& stop);
  // Assigns partitions [0, count): the new ones from their beginning, the others where they are.
  void Assign(int32_t count);
  // Applies what the relay wrote, and marks the message read.
  void Consume(const rd_kafka_message_t& message);
  // Applies the message's event to the directory, unless it is a repetition.
  void Apply(const rd_kafka_message_t& message);

  const EndpointFeedOptions options_;
  EndpointDirectory directory_;
  KafkaHandle consumer_;
  std::jthread thread_;
  std::mutex stop_mutex_;
  std::atomic<bool> stopping_{false};

  std::mutex mutex_;
  std::condition_variable applied_changed_;
  std::vector<int64_t> applied_;   // guarded by mutex_: per partition, the offset after the last
                                   // message applied (0: none yet)
  int32_t wanted_partitions_ = 0;  // guarded by mutex_: partitions CatchUp found in the topic

  // The thread's: the last version applied per endpoint stream, deleted ones included.
  std::unordered_map<std::string, uint64_t> versions_;
  MessageGate gate_;  // the thread's
};

}  // namespace esign::webhooks
