#include "webhooks/dispatcher.h"

#include <algorithm>
#include <random>
#include <set>

#include "base/thread_name.h"
#include "delivery/log_line.h"
#include "delivery/outcome_recorder.h"
#include "webhooks/delivery_message.h"
#include "webhooks/delivery_policy.h"
#include "webhooks/delivery_topics.h"
#include "webhooks/offset_gap.h"
#include "webhooks/webhook_outcome.h"

namespace esign::webhooks {
namespace {

// Bounds how long a stopping intake goes unnoticed; messages wake it at once.
constexpr int kPollMs = 500;
// Bounds each of the two look-ups of an assignment's offsets (offset_gap.h).
constexpr std::chrono::milliseconds kOffsetQueryTimeout{2000};

std::vector<TopicPartition> PartitionsOf(const rd_kafka_topic_partition_list_t* list) {
  std::vector<TopicPartition> partitions;
  partitions.reserve(static_cast<size_t>(list->cnt));
  for (int i = 0; i < list->cnt; ++i) {
    partitions.push_back({list->elems[i].topic, list->elems[i].partition});
  }
  return partitions;
}

std::string Describe(const std::vector<TopicPartition>& partitions) {
  std::string text;
  for (const TopicPartition& p : partitions) {
    text += (text.empty() ? "" : " ") + p.topic + "[" + std::to_string(p.partition) + "]";
  }
  return text.empty() ? "none" : text;
}

}  // namespace

Result<std::unique_ptr<Dispatcher>> Dispatcher::Start(DispatcherDeps deps,
                                                      DispatcherOptions options) {
  if (!options.auth) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka message key", "message-key", "required");
  }
  std::unique_ptr<Dispatcher> dispatcher(new Dispatcher(std::move(deps), std::move(options)));
  // Both topics by partition number, so a contract's retries go to the owner of its events.
  KafkaSettings more = {{"partition.assignment.strategy", "range"}};
  more.insert(more.end(), dispatcher->options_.settings.begin(),
              dispatcher->options_.settings.end());
  auto consumer = SubscribeConsumer(
      GroupMemberSettings(dispatcher->options_.brokers, dispatcher->options_.group,
                          "contractd-dispatcher", more),
      {dispatcher->options_.topic, dispatcher->options_.retries_topic},
      [&dispatcher](rd_kafka_conf_t* conf) {
        rd_kafka_conf_set_rebalance_cb(conf, &Dispatcher::OnRebalance);
        rd_kafka_conf_set_opaque(conf, dispatcher.get());
      });
  if (!consumer) return std::unexpected(consumer.error());
  dispatcher->consumer_ = std::move(*consumer);
  // Deliveries left pending by an earlier run are queued from the store by the intake thread
  // (QueueStored): their messages may no longer be in Kafka.
  dispatcher->intake_ = std::jthread([d = dispatcher.get()](const std::stop_token& stop) {
    NameThisThread("esign-intake");
    d->RunIntake(stop);
  });
  return dispatcher;
}

Dispatcher::Dispatcher(DispatcherDeps deps, DispatcherOptions options)
    : deps_(std::move(deps)), options_(std::move(options)) {
  recorder_ = std::make_unique<delivery::OutcomeRecorder>(
      [this](const std::vector<delivery::Delivery>& records) -> Status {
        // Admitted or retried through this store before they reached a lane: only their records
        // change. A failed store write is logged; the external record must hold.
        if (auto stored = deps_.deliveries.UpdateAdmitted(records); !stored) {
          delivery::LogLine("webhook dispatcher",
                            "recording deliveries failed: " + stored.error().message);
        }
        return deps_.recorded ? deps_.recorded(records) : Status();
      });
  lanes_ = std::make_unique<delivery::DeliveryLanes>(
      delivery::LaneDeps{
          .find = [this](std::string_view id) -> std::optional<delivery::LaneDestination> {
            auto endpoint = deps_.directory.Find(id);
            if (!endpoint) return std::nullopt;
            return delivery::LaneDestination{.id = endpoint->id,
                                             .organization_id = endpoint->organization_id,
                                             .enabled = endpoint->enabled,
                                             .version = endpoint->version};
          },
          .attempt =
              [this](const std::stop_token&, const delivery::LaneDestination& destination,
                     delivery::Delivery& delivery) {
                // Deleted since the lane looked: the lane settles it when it looks again.
                auto endpoint = deps_.directory.Find(destination.id);
                if (!endpoint) return delivery::LaneDeps::Attempted::kDone;
                return Attempt(*endpoint, delivery);
              },
          .settle = [this](const std::string& id) { Settle(id); },
          .clock = deps_.clock},
      options_.sender_threads);
}

Dispatcher::~Dispatcher() { Stop(); }

void Dispatcher::Stop() {
  if (intake_.joinable()) {
    intake_.request_stop();
    intake_.join();
  }
  lanes_->Stop();
  recorder_->Stop();  // what the lanes handed over is written, and its messages settled
  if (consumer_) {
    // What is settled is committed as the partitions are given up; the rest is the next owner's.
    StoreCommittableOffsets();
    CloseKafkaConsumer(consumer_.get());
    consumer_.reset();
  }
}

void Dispatcher::Wake() { lanes_->Wake(); }

void Dispatcher::Settle(const std::string& delivery_id) {
  first_copies_.Forget(delivery_id);
  // Behind the delivery's last record: a message is settled only once its outcome is recorded.
  recorder_->After([this, delivery_id] {
    std::lock_guard lock(offsets_mutex_);
    offsets_.Settled(delivery_id);
  });
}

delivery::LaneDeps::Attempted Dispatcher::Attempt(const WebhookEndpoint& endpoint,
                                                  delivery::Delivery& delivery) {
  thread_local std::mt19937_64 random(std::random_device{}());
  // Queued from the store at start and again from its message read again, it may have been sent
  // and recorded already while this copy waited: its record says whether it is still due, in the
  // recorder's queue if it waits there, else in the store. A first copy has no earlier one.
  if (first_copies_.Take(delivery.id)) {
    // Due.
  } else if (const std::optional<delivery::DeliveryState> queued =
                 recorder_->QueuedState(delivery.id)) {
    if (*queued != delivery::DeliveryState::kPending) {
      delivery.state = *queued;
      return delivery::LaneDeps::Attempted::kDone;
    }
  } else if (auto stored = deps_.deliveries.Get(delivery.id);
             stored && *stored && (*stored)->state != delivery::DeliveryState::kPending) {
    delivery = std::move(**stored);
    return delivery::LaneDeps::Attempted::kDone;
  }
  const int64_t now = deps_.clock.NowMicros();
  auto secrets = deps_.secrets.Signing(endpoint.id, now);
  delivery::AttemptOutcome outcome;
  if (!secrets || secrets->empty()) {
    outcome.reply = "the endpoint has no signing secret";
  } else {
    const int64_t timestamp = now / 1'000'000;
    outcome = WebhookAttemptOutcome(deps_.sender.Send(
        {endpoint.url,
         {{"webhook-id", delivery.webhook_id},
          {"webhook-timestamp", std::to_string(timestamp)},
          {"webhook-signature", SignatureHeader(signing_keys_.Of(*secrets), delivery.webhook_id,
                                                timestamp, delivery.body)}},
         delivery.body}));
  }
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const delivery::AttemptVerdict verdict =
      delivery::AfterAttempt(delivery, outcome, now, jitter(random));
  const bool disabled = verdict.next == delivery::AttemptVerdict::Next::kDisableEndpoint &&
                        Disable(endpoint, verdict.disable_reason);
  // Written with others off this thread; the message is settled behind it (Settle).
  recorder_->Record(delivery);
  return disabled ? delivery::LaneDeps::Attempted::kEndpointDisabled
                  : delivery::LaneDeps::Attempted::kDone;
}

bool Dispatcher::Disable(const WebhookEndpoint& endpoint, const std::string& reason) {
  delivery::LogLine("webhook dispatcher", "disabling endpoint " + endpoint.id + ": " + reason);
  if (auto disabled = deps_.disable(endpoint.id, reason); !disabled) {
    delivery::LogLine("webhook dispatcher",
                      "disabling endpoint " + endpoint.id + " failed: " + disabled.error().message);
    return false;
  }
  return true;
}

void Dispatcher::StoreCommittableOffsets() {
  std::vector<std::pair<TopicPartition, int64_t>> committable;
  {
    std::lock_guard lock(offsets_mutex_);
    committable = offsets_.TakeCommittable();
  }
  if (committable.empty()) return;
  rd_kafka_topic_partition_list_t* offsets =
      rd_kafka_topic_partition_list_new(static_cast<int>(committable.size()));
  for (const auto& [partition, offset] : committable) {
    rd_kafka_topic_partition_list_add(offsets, partition.topic.c_str(), partition.partition)
        ->offset = offset;
  }
  rd_kafka_offsets_store(consumer_.get(), offsets);  // a partition no longer assigned is skipped
  rd_kafka_topic_partition_list_destroy(offsets);
}

void Dispatcher::OnRebalance(rd_kafka_t* handle, rd_kafka_resp_err_t err,
                             rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  auto* dispatcher = static_cast<Dispatcher*>(opaque);
  const std::vector<TopicPartition> changed = PartitionsOf(partitions);
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    delivery::LogLine("webhook dispatcher", "partitions assigned: " + Describe(changed));
    // Before fetching starts, while the committed offsets are still the group's last word.
    for (const OffsetGap& gap : CommittedBelowEarliest(handle, *partitions, kOffsetQueryTimeout)) {
      delivery::LogLine(
          "webhook dispatcher",
          DescribeGap(gap) +
              "; deliveries recorded as pending are sent from this member's store, events "
              "never read get none");
      dispatcher->offsets_out_of_range_.fetch_add(1);
    }
    rd_kafka_assign(handle, partitions);
    return;
  }
  // Revoked (or lost): what is settled is committed now, and the rest is the next owner's.
  delivery::LogLine("webhook dispatcher", "partitions revoked: " + Describe(changed));
  ++dispatcher->revocations_;
  dispatcher->StoreCommittableOffsets();
  rd_kafka_commit(handle, nullptr, 0);
  std::vector<std::string> released;
  {
    std::lock_guard lock(dispatcher->offsets_mutex_);
    released = dispatcher->offsets_.Revoke(changed);
  }
  const std::set<std::string> dropped(released.begin(), released.end());
  dispatcher->lanes_->Drop(dropped);
  dispatcher->first_copies_.Forget(dropped);
  rd_kafka_assign(handle, nullptr);
}

void Dispatcher::QueueStored(const std::stop_token& stop) {
  auto pending = deps_.deliveries.Pending();
  while (!pending && !stop.stop_requested()) {
    delivery::LogLine("webhook dispatcher",
                      "reading pending deliveries failed: " + pending.error().message);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    pending = deps_.deliveries.Pending();
  }
  if (!pending || pending->empty()) return;
  // A lane takes a delivery whose endpoint the directory does not know for one whose endpoint
  // was deleted: the directory must first know every endpoint created before the last of them.
  while (!deps_.wait_for_directory(pending->back().position)) {
    if (stop.stop_requested()) return;
  }
  delivery::LogLine(
      "webhook dispatcher",
      std::to_string(pending->size()) + " deliveries recorded as pending queued from the store");
  lanes_->PushAll(std::move(*pending));  // in log order (Pending)
}

void Dispatcher::RunIntake(const std::stop_token& stop) {
  QueueStored(stop);
  rd_kafka_t* rk = consumer_.get();
  MessageGate gate(options_.auth, "contractd: webhook dispatcher");
  while (!stop.stop_requested()) {
    StoreCommittableOffsets();
    const uint64_t revocations = revocations_;
    std::vector<Message> batch;
    // Waits for the first message, then takes what is already there.
    for (int timeout = kPollMs; batch.size() < options_.intake_batch; timeout = 0) {
      rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, timeout);
      if (message == nullptr) break;
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          delivery::LogLine("webhook dispatcher",
                            std::string("consumer: ") + rd_kafka_message_errstr(message));
        }
      } else if (!gate.Admit(*message)) {
        // Not written by contractd: nothing to do, yet its offset is committed like any other's.
        batch.push_back({{rd_kafka_topic_name(message->rkt), message->partition}, message->offset});
      } else {
        batch.push_back({{rd_kafka_topic_name(message->rkt), message->partition},
                         message->offset,
                         std::string(static_cast<const char*>(message->payload), message->len),
                         true});
      }
      rd_kafka_message_destroy(message);
    }
    // Messages taken before a rebalance may belong to another member now; the partitions kept
    // are read again from their committed offsets anyway.
    if (batch.empty() || revocations != revocations_) continue;
    // The outcomes handed over so far are in the store first: a delivery sent meanwhile is seen
    // as sent when its message is read again, and a retry request is not overwritten by an older
    // outcome.
    if (!recorder_->Flush(stop)) continue;
    // Not one offset moves before the batch's deliveries are recorded: on failure, try again.
    auto recorded = Record(batch);
    while (!recorded && !stop.stop_requested()) {
      delivery::LogLine("webhook dispatcher",
                        "recording deliveries failed: " + recorded.error().message);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      recorded = Record(batch);
    }
    if (!recorded) continue;
    {
      // Held before a lane can settle them.
      std::lock_guard lock(offsets_mutex_);
      for (size_t i = 0; i < batch.size(); ++i) {
        offsets_.Consumed(batch[i].partition, batch[i].offset, recorded->caused[i]);
      }
    }
    // In log order, so each lane mostly appends (partitions interleave within a batch).
    std::ranges::stable_sort(recorded->pending, {}, &delivery::Delivery::position);
    lanes_->PushAll(std::move(recorded->pending));
  }
}

Result<Dispatcher::Recorded> Dispatcher::Record(const std::vector<Message>& messages) {
  std::vector<std::vector<std::string>> caused(messages.size());  // delivery ids, per message
  std::vector<delivery::Delivery> deliveries;
  std::vector<delivery::Delivery> retried;
  const int64_t now = deps_.clock.NowMicros();
  std::vector<std::optional<LifecycleEvent>> events;
  uint64_t last_position = 0;
  for (const Message& message : messages) {
    events.push_back(!message.authentic || message.partition.topic == options_.retries_topic
                         ? std::nullopt
                         : ParseLifecycleEvent(message.value));
    if (events.back()) last_position = std::max(last_position, events.back()->position);
  }
  // Endpoints created before the events must be in the directory, or they would miss them: the
  // batch is not routed until it is (the intake tries again; no offset moves meanwhile).
  if (last_position > 0 && !deps_.wait_for_directory(last_position)) {
    return Fail(ErrorCode::kUnavailable, "the endpoint directory has not caught up with position " +
                                             std::to_string(last_position));
  }
  for (size_t i = 0; i < messages.size(); ++i) {
    if (!messages[i].authentic) continue;
    if (messages[i].partition.topic == options_.retries_topic) {
      const auto request = ParseDeliveryTopicRecord(messages[i].value);
      if (!request || request->kind != DeliveryTopicRecord::Kind::kRetry) continue;
      auto delivery = RecordRetry(request->delivery);
      if (!delivery) return std::unexpected(delivery.error());
      if (!*delivery) continue;
      caused[i].push_back((*delivery)->id);
      retried.push_back(std::move(**delivery));
      continue;
    }
    const std::optional<LifecycleEvent>& event = events[i];
    if (!event) continue;
    // The message names the contract's controlling organization (docs/events.md).
    if (event->organization_id.empty()) continue;
    for (delivery::Delivery& delivery :
         RouteEvent(*event, deps_.directory.OfOrganization(event->organization_id), now)) {
      caused[i].push_back(delivery.id);
      deliveries.push_back(std::move(delivery));
    }
  }
  std::vector<std::string> stored_now;
  auto admitted = deliveries.empty() ? Result<std::vector<delivery::Delivery>>()
                                     : deps_.deliveries.Admit(std::move(deliveries), &stored_now);
  if (!admitted) return std::unexpected(admitted.error());
  std::vector<delivery::Delivery> pending = std::move(*admitted);
  pending.insert(pending.end(), retried.begin(), retried.end());
  if (deps_.recorded && !pending.empty()) {
    if (auto recorded = deps_.recorded(pending); !recorded)
      return std::unexpected(recorded.error());
  }
  first_copies_.Add(std::move(stored_now));
  // Only the pending deliveries hold their messages.
  std::set<std::string> pending_ids;
  for (const delivery::Delivery& d : pending) pending_ids.insert(d.id);
  for (auto& ids : caused) {
    std::erase_if(ids, [&](const std::string& id) { return !pending_ids.contains(id); });
  }
  return Recorded{std::move(caused), std::move(pending)};
}

Result<std::optional<delivery::Delivery>> Dispatcher::RecordRetry(
    const delivery::Delivery& requested) {
  if (!deps_.directory.Find(requested.destination_id)) return std::optional<delivery::Delivery>();
  auto stored = deps_.deliveries.Get(requested.id);
  if (!stored) return std::unexpected(stored.error());
  // The store of this member may not know it (another member recorded it): the request carries
  // the delivery as contractd recorded it (the request is authenticated: only contractd writes
  // to the retries topic).
  delivery::Delivery delivery = RetriedNow(*stored ? **stored : requested, deps_.clock.NowMicros());
  if (auto updated = deps_.deliveries.Update(delivery); !updated) {
    return std::unexpected(updated.error());
  }
  return std::optional<delivery::Delivery>(std::move(delivery));
}

}  // namespace esign::webhooks
