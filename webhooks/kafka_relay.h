// KafkaRelay: publishes every published event of the log (event_message.h), in log order, with
// librdkafka's idempotent producer (acks=all, no local timeout: while the brokers are unreachable
// messages wait, and the relay catches up when they return): the events of webhook endpoints
// ("webhook-*") to the endpoints topic keyed by stream id, every other published event to the
// contract topic. Each message names the organization controlling its contract
// (contractOrganizationId), looked up in the store and cached (owning_organizations.h).
//
// Ordering barrier: after producing an endpoint event the relay produces no later event of the
// log until that message's delivery report arrived. So a consumer that reads a contract event at
// position P finds every endpoint event before P in the endpoints topic by reading it up to its
// high watermarks (endpoint_feed.h). Endpoint events are rare; the pause costs nothing measurable.
//
// It starts at its durable checkpoint (relay_checkpoint.h) and advances it only over a prefix of
// the log whose every message has a successful delivery report, so a restart publishes again at
// most the messages that were in flight: at least once, in order per key (the idempotent
// producer keeps each partition's order across its retries). A failed delivery report (a fatal
// producer error, a refused message) makes it drop the producer and publish again from the
// checkpoint with a new one.
//
// Each message carries its contractd-mac header (message_auth.h), which its readers check. The
// checkpoint holds for one cluster and one message key: a new key publishes the log again, signed
// with it, so that readers, which drop what the old key signed, still get every event.
//
// Two threads: the producer thread is a catch-up subscription (eventstore/subscription.h) that
// reads the log, woken by appends when caught up, and idles once the store is closed; a failed
// read of the log ends publishing (said in the log). The poller thread serves delivery reports
// as librdkafka queues them.
// Thread safety: every public method may be called from any thread; Stop before the store closes.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

#include "domain/stream_kinds.h"
#include "eventstore/event_store.h"
#include "eventstore/subscription.h"
#include "webhooks/kafka_config.h"
#include "webhooks/message_auth.h"
#include "webhooks/owning_organizations.h"
#include "webhooks/relay_checkpoint.h"

namespace esign::webhooks {

struct KafkaRelayOptions {
  // bootstrap.servers of the cluster. Required.
  std::string brokers;
  // The checkpoint belongs to this cluster (and to the message key); another name means publish
  // from the start. Default: the broker list.
  std::string cluster;
  // Signs every message (message_auth.h). Required.
  MessageAuth auth;
  // Default: contract-events.
  std::string topic{kContractEventsTopic};
  // The events of the "webhook-*" streams. Default: webhook-endpoints.
  std::string endpoints_topic{kEndpointsTopic};
  // Contracts whose controller the relay remembers. Default: 100,000.
  size_t controller_cache = 100000;
  // Messages handed to the producer and not yet acknowledged; the relay waits beyond. Default:
  // 100,000.
  size_t max_in_flight = 100000;
  // The same in bytes (each event's data and ids, plus KafkaRelay::kMessageOverheadBytes): what the
  // producer's queue may hold, which matters most when a new cluster is published the whole log at
  // start. Default: 64 MiB.
  size_t max_in_flight_bytes = size_t{64} << 20;
  // Events read from the log per ReadAll. Default: 512.
  size_t read_batch = 512;
  // How long Stop waits for in-flight messages to be acknowledged (the rest is published again
  // from the checkpoint at the next start). Default: 3 s.
  std::chrono::milliseconds stop_flush{3000};
  // More librdkafka producer settings, applied last (tests). Default: none.
  KafkaSettings settings;
};

class KafkaRelay {
 public:
  // What a message holds besides its event's data and ids, for max_in_flight_bytes: the envelope,
  // the key and MAC header, the producer's own bookkeeping.
  static constexpr size_t kMessageOverheadBytes = 512;

  // Loads the checkpoint and starts both threads. kValidationFailed for refused settings.
  static Result<std::unique_ptr<KafkaRelay>> Start(const eventstore::EventStore& store,
                                                   RelayCheckpoint checkpoint,
                                                   KafkaRelayOptions options);
  ~KafkaRelay();  // Stop
  KafkaRelay(const KafkaRelay&) = delete;
  KafkaRelay& operator=(const KafkaRelay&) = delete;

  // Stops reading the log, waits up to stop_flush for the messages in flight, stores the
  // checkpoint and ends both threads. Idempotent.
  void Stop();

  // Every event before this position is acknowledged by the cluster (or not published).
  uint64_t acknowledged() const;
  // Blocks until acknowledged() >= position or the timeout passes; true in the first case.
  bool WaitForAcknowledged(uint64_t position, std::chrono::milliseconds timeout) const;

 private:
  KafkaRelay(const eventstore::EventStore& store, RelayCheckpoint checkpoint,
             KafkaRelayOptions options);
  Status CreateProducer();
  void StartPoller();
  void StopPoller();
  void DropProducer();
  // The subscription's handler: produces what it may of the batch; the position to read next
  // (after a failure, the first one not acknowledged).
  Result<GlobalPosition> Publish(const std::vector<eventstore::EventRecord>& batch,
                                 const std::stop_token& stop);
  // Drops the producer and, after a pause, makes a new one; false when it could not (or stopping).
  bool Restart(const std::stop_token& stop);
  // Says once, in the log, why publishing stopped (the log could not be read).
  void ReportFailedRead();
  static void OnDelivery(rd_kafka_t* handle, const rd_kafka_message_t* message, void* opaque);
  // Produces one event to `topic`; false when the produce call failed.
  bool Produce(const eventstore::EventRecord& record, rd_kafka_topic_t* topic);
  // Waits until the message of `position` is acknowledged; false on a failed delivery or stop.
  bool WaitForBarrier(const std::stop_token& stop, uint64_t position);
  // Marks `position` acknowledged and moves acked_ over the acknowledged prefix; mutex_ held.
  void MarkDone(uint64_t position);
  // Whether another message may go to the producer; mutex_ held.
  bool HasRoom() const;
  // What one event's message holds in the producer's queue, about (max_in_flight_bytes).
  static size_t MessageBytes(const eventstore::EventRecord& record);
  void SaveCheckpoint();

  RelayCheckpoint checkpoint_;
  const KafkaRelayOptions options_;

  KafkaHandle producer_;  // replaced only by the producer thread, while the poller is stopped
  // options_.topic and options_.endpoints_topic on producer_, made and dropped with it.
  KafkaTopic events_topic_;
  KafkaTopic endpoints_topic_;
  std::jthread poller_;
  std::unique_ptr<eventstore::CatchUpSubscription> subscription_;  // the producer thread
  std::mutex stop_mutex_;
  bool stopped_ = false;  // guarded by stop_mutex_
  std::atomic<bool> read_failure_reported_{false};

  mutable std::mutex mutex_;
  mutable std::condition_variable_any changed_;
  uint64_t acked_ = 0;  // guarded by mutex_: first position not yet acknowledged
  struct InFlight {
    bool acknowledged = false;
    size_t bytes = 0;
  };
  std::deque<InFlight> pending_;  // guarded by mutex_: positions acked_..
  size_t pending_bytes_ = 0;      // guarded by mutex_: of pending_
  bool failed_ = false;           // guarded by mutex_: a delivery failed; publish again from acked_
  // guarded by mutex_: the endpoint event the producer thread waits for (UINT64_MAX: none)
  uint64_t barrier_ = UINT64_MAX;
  OwningOrganizations owners_;  // the producer thread's

  std::mutex save_mutex_;
  uint64_t saved_ = 0;         // guarded by save_mutex_
  bool save_failing_ = false;  // guarded by save_mutex_: the last save failed
};

}  // namespace esign::webhooks
