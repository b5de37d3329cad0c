// Dispatcher: the webhook dispatcher, a member of the Kafka consumer group "webhook-dispatcher"
// on the topics contract-events and webhook-retries (delivery_topics.h). It runs inside contractd,
// or as `contractd dispatcher` processes that share the partitions (docs/webhooks.md).
//
// Intake (one thread): for each lifecycle event read (delivery_message.h) it finds the endpoints
// of the organization that controls the contract, enabled or not, created before the event, that
// want its type (RouteEvent, delivery_policy.h), and records one pending delivery per endpoint
// (DeliveryStore, synced; the ids, derived from endpoint and event, keep a message read twice from
// being recorded twice). Every delivery recorded as pending is sent, whatever Kafka still holds:
// at start the intake first queues the store's pending deliveries (DeliveryStore::Pending), so a
// delivery whose message retention removed, or whose committed offset moved past it, is not
// lost; read again from its message, the same delivery replaces the queued copy (same id), and an
// attempt first checks the store, so nothing recorded as sent is sent again. With several
// members, each sends what its own store recorded. An assignment whose committed offset lies
// below what the cluster still holds is logged and counted (offsets_out_of_range). A batch is
// routed only against a directory that has caught up with its
// last event: an endpoint created before an event but missing from the directory would silently
// get nothing, so when wait_for_directory gives up, the batch is recorded again a second later
// and no offset moves. A retry request makes its delivery pending again. A message's offset is
// committed only once every delivery it caused has its outcome (offset_tracker.h): a member that
// dies, or loses the partition in a rebalance, leaves the unsettled messages to be read again by
// the next owner.
//
// Lanes (delivery_lanes.h): each endpoint with pending deliveries has a lane that sends them one
// at a time, in log order (so per contract in order), retrying the head with the schedule of
// retry_schedule.h; a slow or failing endpoint holds back only its own lane. A fixed pool of
// sender_threads threads serves every lane, an organization's lanes with at most a quarter of
// them at once while another organization waits (delivery_lanes.h lends it idle ones otherwise),
// and a lane exists only while it has deliveries: the threads do not grow with
// the endpoints. 2xx is success (webhook_outcome.h reads an HTTP answer as the delivery core's
// outcome). 410 disables the endpoint, as does exhausting the schedule; a
// disabled endpoint keeps its pending deliveries and its lane resumes when an update enables it
// (Wake). What an attempt's outcome means is AfterAttempt's (delivery_policy.h); Attempt signs,
// sends, disables and hands the delivery to the outcome recorder (outcome_recorder.h), which
// writes the records of many attempts at once off the senders' path. Every attempt is recorded
// on the delivery, and only then settles its message; the intake waits for the records handed
// over before it records a batch of messages.
//
// Threads: the intake, sender_threads senders and the outcome recorder. Stop and Wake may be called
// from any thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "delivery/delivery_lanes.h"
#include "delivery/delivery_store.h"
#include "delivery/outcome_recorder.h"
#include "domain/clock.h"
#include "domain/stream_kinds.h"
#include "webhooks/endpoint_directory.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/first_copies.h"
#include "webhooks/kafka_config.h"
#include "webhooks/message_auth.h"
#include "webhooks/offset_tracker.h"
#include "webhooks/signing_keys.h"
#include "webhooks/webhook_sender.h"

namespace esign::webhooks {

struct DispatcherOptions {
  std::string brokers;  // required
  // Checks every message read; one without a valid contractd-mac is dropped (message_auth.h).
  // Required.
  MessageAuth auth;
  // Default: contract-events.
  std::string topic{kContractEventsTopic};
  // Retry requests (delivery_topics.h). Default: webhook-retries.
  std::string retries_topic = "webhook-retries";
  // Default: webhook-dispatcher.
  std::string group = "webhook-dispatcher";
  // Messages recorded together in one synced write. Default: 512.
  size_t intake_batch = 512;
  // Threads that send deliveries, shared by every endpoint's lane; an organization's lanes use
  // at most a quarter of them at once (at least one) while another organization waits, and
  // never the last quarter. Default: 16.
  size_t sender_threads = 16;
  // More librdkafka consumer settings (tests). Default: none.
  KafkaSettings settings;
};

struct DispatcherDeps {
  const EndpointDirectory& directory;
  EndpointSecrets& secrets;
  delivery::DeliveryStore& deliveries;
  WebhookSender& sender;
  const Clock& clock;
  // Disables an endpoint, giving the reason (it answered 410, or the schedule ran out).
  std::function<Status(std::string_view endpoint_id, std::string_view reason)> disable;
  // Blocks until the endpoint directory holds every endpoint event of the log before `position`;
  // false when it gave up first (a timeout): the batch is not routed then, but tried again.
  std::function<bool(uint64_t position)> wait_for_directory;
  // Called with deliveries once stored (admitted, attempted, retried); a delivery's outcome counts
  // as recorded only when it returns success. Empty: the store is the whole record.
  std::function<Status(const std::vector<delivery::Delivery>&)> recorded;
};

class Dispatcher {
 public:
  static Result<std::unique_ptr<Dispatcher>> Start(DispatcherDeps deps, DispatcherOptions options);
  ~Dispatcher();  // Stop
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  void Stop();
  // Re-examines every lane's endpoint (it changed).
  void Wake();
  // Assigned partitions whose committed offset was below the earliest offset the cluster still
  // held (offset_gap.h), since start.
  uint64_t offsets_out_of_range() const { return offsets_out_of_range_.load(); }

 private:
  struct Message {
    TopicPartition partition;
    int64_t offset = 0;
    std::string value;
    bool authentic = false;  // written by contractd or a dispatcher; else nothing to do
  };
  Dispatcher(DispatcherDeps deps, DispatcherOptions options);
  // Queues the deliveries the store holds as pending, once the directory knows their endpoints.
  void QueueStored(const std::stop_token& stop);
  void RunIntake(const std::stop_token& stop);
  struct Recorded {
    std::vector<std::vector<std::string>> caused;  // per message, the deliveries left pending
    std::vector<delivery::Delivery> pending;       // to queue
  };
  // Records what the messages ask for.
  Result<Recorded> Record(const std::vector<Message>& messages);
  // The retried delivery, stored; nothing when its endpoint is gone.
  Result<std::optional<delivery::Delivery>> RecordRetry(const delivery::Delivery& requested);
  void Settle(const std::string& delivery_id);
  // One attempt of a lane's head, recorded (the lanes' LaneDeps::attempt).
  delivery::LaneDeps::Attempted Attempt(const WebhookEndpoint& endpoint,
                                        delivery::Delivery& delivery);
  // Whether the endpoint is disabled now.
  bool Disable(const WebhookEndpoint& endpoint, const std::string& reason);
  // Hands the offsets that may be committed now to the consumer.
  void StoreCommittableOffsets();
  static void OnRebalance(rd_kafka_t* handle, rd_kafka_resp_err_t err,
                          rd_kafka_topic_partition_list_t* partitions, void* opaque);

  DispatcherDeps deps_;
  const DispatcherOptions options_;
  KafkaHandle consumer_;
  std::unique_ptr<delivery::OutcomeRecorder> recorder_;  // the lanes' records
  FirstCopies first_copies_;
  std::unique_ptr<delivery::DeliveryLanes> lanes_;
  SigningKeys signing_keys_;
  std::mutex offsets_mutex_;
  OffsetTracker offsets_;     // guarded by offsets_mutex_
  uint64_t revocations_ = 0;  // the intake thread's (rebalances run inside its polls)
  std::atomic<uint64_t> offsets_out_of_range_{0};
  std::jthread intake_;
};

}  // namespace esign::webhooks
