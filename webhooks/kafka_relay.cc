#include "webhooks/kafka_relay.h"

#include "base/thread_name.h"
#include "delivery/log_line.h"
#include "domain/stream_kinds.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {
namespace {

// Bounds how long a stopping poller goes unnoticed should rd_kafka_yield miss it.
constexpr int kRelayPollMs = 1000;
// Pause before publishing again after a failed delivery, so a persistent refusal does not spin.
constexpr auto kRetryPause = std::chrono::seconds(1);
// Longest sleep in WaitForSizeAbove; appends and Stop wake it earlier.
constexpr auto kIdleWait = std::chrono::seconds(60);

}  // namespace

Result<std::unique_ptr<KafkaRelay>> KafkaRelay::Start(const eventstore::EventStore& store,
                                                      RelayCheckpoint checkpoint,
                                                      KafkaRelayOptions options) {
  if (options.brokers.empty()) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka brokers", "kafka-brokers", "required");
  }
  if (!options.auth) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka message key", "message-key", "required");
  }
  if (options.cluster.empty()) options.cluster = options.brokers;
  options.cluster += " key " + options.auth.Id();
  std::unique_ptr<KafkaRelay> relay(
      new KafkaRelay(store, std::move(checkpoint), std::move(options)));
  auto start = relay->checkpoint_.Load(relay->options_.cluster);
  if (!start) return std::unexpected(start.error());
  relay->acked_ = *start;
  relay->saved_ = *start;
  if (auto created = relay->CreateProducer(); !created) return std::unexpected(created.error());
  KafkaRelay* r = relay.get();
  relay->subscription_ = std::make_unique<eventstore::CatchUpSubscription>(
      store, GlobalPosition(*start),
      eventstore::CatchUpSubscription::BatchHandler(
          [r](const std::vector<eventstore::EventRecord>& batch, const std::stop_token& stop) {
            return r->Publish(batch, stop);
          }),
      eventstore::SubscriptionOptions{.batch_size = relay->options_.read_batch,
                                      .idle_wait = kIdleWait,
                                      .thread_name = "esign-relay"});
  relay->StartPoller();
  relay->subscription_->Start();
  return relay;
}

KafkaRelay::KafkaRelay(const eventstore::EventStore& store, RelayCheckpoint checkpoint,
                       KafkaRelayOptions options)
    : checkpoint_(std::move(checkpoint)),
      options_(std::move(options)),
      owners_(store, options_.controller_cache) {}

KafkaRelay::~KafkaRelay() { Stop(); }

Status KafkaRelay::CreateProducer() {
  KafkaSettings settings = {
      {"bootstrap.servers", options_.brokers},
      {"client.id", "contractd-relay"},
      // Idempotence implies acks=all and ordered retries; both are spelt out for the reader.
      {"enable.idempotence", "true"},
      {"acks", "all"},
      // No local timeout: a message waits for the cluster however long it is away.
      {"message.timeout.ms", "0"},
      {"queue.buffering.max.messages", std::to_string(options_.max_in_flight + 1000)},
      // Messages wait up to 5 ms to share a produce request: at a few thousand events a second
      // that is several per partition, and fewer requests for the producer and the broker.
      {"linger.ms", "5"},
      // The Java client's partitioner, so other producers keyed by contract id agree.
      {"partitioner", "murmur2_random"},
  };
  settings.insert(settings.end(), options_.settings.begin(), options_.settings.end());
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  rd_kafka_conf_set_dr_msg_cb(conf->get(), &KafkaRelay::OnDelivery);
  rd_kafka_conf_set_opaque(conf->get(), this);
  auto handle = MakeKafkaHandle(RD_KAFKA_PRODUCER, std::move(*conf));
  if (!handle) return std::unexpected(handle.error());
  // Made now, so the first events do not wait for the topics' metadata.
  auto events = MakeKafkaTopic(handle->get(), options_.topic);
  if (!events) return std::unexpected(events.error());
  auto endpoints = MakeKafkaTopic(handle->get(), options_.endpoints_topic);
  if (!endpoints) return std::unexpected(endpoints.error());
  producer_ = std::move(*handle);
  events_topic_ = std::move(*events);
  endpoints_topic_ = std::move(*endpoints);
  return {};
}

void KafkaRelay::StartPoller() {
  poller_ = std::jthread([this](const std::stop_token& stop) {
    NameThisThread("esign-relay-ack");
    while (!stop.stop_requested()) {
      rd_kafka_poll(producer_.get(), kRelayPollMs);  // serves delivery reports as they arrive
      SaveCheckpoint();
      ReportFailedRead();
    }
  });
}

void KafkaRelay::StopPoller() {
  if (!poller_.joinable() || !producer_) return;
  poller_.request_stop();
  rd_kafka_yield(producer_.get());
  poller_.join();
}

void KafkaRelay::DropProducer() {
  if (!producer_) return;
  StopPoller();
  rd_kafka_purge(producer_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  events_topic_.reset();
  endpoints_topic_.reset();
  producer_.reset();
  std::lock_guard lock(mutex_);
  pending_.clear();  // reports of a dropped producer never arrive: publish those again
  pending_bytes_ = 0;
  failed_ = false;
}

void KafkaRelay::Stop() {
  std::lock_guard stop_lock(stop_mutex_);
  if (!subscription_ || stopped_) return;
  stopped_ = true;
  subscription_->Stop();
  if (!producer_) return;  // a failed restart left none
  StopPoller();
  // Serves the last delivery reports on this thread.
  rd_kafka_flush(producer_.get(), static_cast<int>(options_.stop_flush.count()));
  SaveCheckpoint();
  DropProducer();
}

bool KafkaRelay::Restart(const std::stop_token& stop) {
  DropProducer();
  std::mutex pause_mutex;
  std::unique_lock pause(pause_mutex);
  std::condition_variable_any().wait_for(pause, stop, kRetryPause, [] { return false; });
  if (stop.stop_requested()) return false;
  if (auto created = CreateProducer(); !created) {
    delivery::LogLine("kafka relay", "cannot create a producer: " + created.error().message);
    return false;
  }
  StartPoller();
  delivery::LogLine("kafka relay",
                    "publishing again from position " + std::to_string(acknowledged()));
  return true;
}

Result<GlobalPosition> KafkaRelay::Publish(const std::vector<eventstore::EventRecord>& batch,
                                           const std::stop_token& stop) {
  uint64_t next = batch.front().position.value();
  size_t room = 0;
  bool failed = false;
  {
    std::unique_lock lock(mutex_);
    // Waits for room, or for a failure to deal with.
    changed_.wait(lock, stop, [this] { return failed_ || HasRoom(); });
    if (stop.stop_requested()) return GlobalPosition(next);
    failed = failed_ || !producer_;
    room = options_.max_in_flight - pending_.size();
  }
  // After a failure, everything not acknowledged is published again by a new producer.
  if (failed) return GlobalPosition(Restart(stop) ? acknowledged() : next);
  for (size_t i = 0; i < batch.size() && i < room; ++i) {
    const eventstore::EventRecord& record = batch[i];
    if (stop.stop_requested()) break;
    const uint64_t position = record.position.value();
    const PublishedTopic topic = TopicOfStream(record.stream_id);
    {
      std::lock_guard lock(mutex_);
      // Before producing: its report may come at once.
      pending_.push_back({.acknowledged = false, .bytes = MessageBytes(record)});
      pending_bytes_ += pending_.back().bytes;
      if (topic == PublishedTopic::kNone) MarkDone(position);
      if (!HasRoom()) room = i + 1;  // the rest waits for acknowledgements
    }
    next = position + 1;
    if (topic == PublishedTopic::kNone) continue;
    const bool produced =
        Produce(record, topic == PublishedTopic::kContractEvents ? events_topic_.get()
                                                                 : endpoints_topic_.get()) &&
        (topic == PublishedTopic::kContractEvents || WaitForBarrier(stop, position) ||
         stop.stop_requested());
    if (!produced) {
      {
        std::lock_guard lock(mutex_);
        failed_ = true;
      }
      return GlobalPosition(Restart(stop) ? acknowledged() : next);
    }
  }
  return GlobalPosition(next);
}

bool KafkaRelay::Produce(const eventstore::EventRecord& record, rd_kafka_topic_t* topic) {
  const uint64_t position = record.position.value();
  auto controller = owners_.Of(record);
  if (!controller) {
    delivery::LogLine("kafka relay", "reading the controller of position " +
                                         std::to_string(position) +
                                         " failed: " + controller.error().message);
    return false;
  }
  const EventMessage message = MakeEventMessage(record, *controller);
  const std::string mac = options_.auth.Mac(rd_kafka_topic_name(topic), message.key, message.value);
  const rd_kafka_resp_err_t err = rd_kafka_producev(
      producer_.get(), RD_KAFKA_V_RKT(topic),
      RD_KAFKA_V_KEY(message.key.data(), message.key.size()),
      RD_KAFKA_V_VALUE(const_cast<char*>(message.value.data()), message.value.size()),
      RD_KAFKA_V_HEADER(kMacHeader, mac.data(), static_cast<ssize_t>(mac.size())),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
      // NOLINTNEXTLINE(performance-no-int-to-ptr): the position travels as the opaque
      RD_KAFKA_V_OPAQUE(reinterpret_cast<void*>(static_cast<uintptr_t>(position))), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    delivery::LogLine("kafka relay", "producing position " + std::to_string(position) +
                                         " failed: " + rd_kafka_err2str(err));
    return false;
  }
  return true;
}

bool KafkaRelay::WaitForBarrier(const std::stop_token& stop, uint64_t position) {
  std::unique_lock lock(mutex_);
  // A report that came before this point is in pending_ already; later ones notify.
  barrier_ = position;
  const bool passed = changed_.wait(lock, stop, [&] {
    return failed_ || position < acked_ ||
           (position - acked_ < pending_.size() && pending_[position - acked_].acknowledged);
  });
  barrier_ = UINT64_MAX;
  return passed && !failed_;
}

void KafkaRelay::OnDelivery(rd_kafka_t* /*handle*/, const rd_kafka_message_t* message,
                            void* opaque) {
  auto* relay = static_cast<KafkaRelay*>(opaque);
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the opaque set in Produce
  const auto position = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(message->_private));
  std::lock_guard lock(relay->mutex_);
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    if (!relay->failed_) {
      delivery::LogLine("kafka relay", "delivery of position " + std::to_string(position) +
                                           " failed: " + rd_kafka_err2str(message->err));
    }
    relay->failed_ = true;
    relay->changed_.notify_all();
    // An idle relay wakes to publish again from what is acknowledged.
    if (relay->subscription_) relay->subscription_->Rewind(GlobalPosition(relay->acked_));
    return;
  }
  relay->MarkDone(position);
}

void KafkaRelay::MarkDone(uint64_t position) {
  if (position < acked_ || position - acked_ >= pending_.size()) return;  // of a dropped producer
  pending_[position - acked_].acknowledged = true;
  bool moved = false;
  while (!pending_.empty() && pending_.front().acknowledged) {
    pending_bytes_ -= pending_.front().bytes;
    pending_.pop_front();
    ++acked_;
    moved = true;
  }
  if (moved || position == barrier_) changed_.notify_all();
}

bool KafkaRelay::HasRoom() const {
  return pending_.size() < options_.max_in_flight && pending_bytes_ < options_.max_in_flight_bytes;
}

size_t KafkaRelay::MessageBytes(const eventstore::EventRecord& record) {
  return kMessageOverheadBytes + record.data.size() + record.stream_id.size() +
         record.event_id.size() + record.type.size();
}

void KafkaRelay::ReportFailedRead() {
  if (read_failure_reported_.load() || subscription_ == nullptr || subscription_->running()) return;
  if (Status status = subscription_->status(); !status && !read_failure_reported_.exchange(true)) {
    delivery::LogLine("kafka relay", "publishing stopped: " + status.error().message);
  }
}

void KafkaRelay::SaveCheckpoint() {
  const uint64_t position = acknowledged();
  std::lock_guard lock(save_mutex_);
  if (position == saved_) return;
  if (auto stored = checkpoint_.Store(options_.cluster, position); !stored) {
    // Once per run of failures: a full disk fails every save until space returns.
    if (!save_failing_) delivery::LogLine("kafka relay", stored.error().message);
    save_failing_ = true;
    return;
  }
  save_failing_ = false;
  saved_ = position;
}

uint64_t KafkaRelay::acknowledged() const {
  std::lock_guard lock(mutex_);
  return acked_;
}

bool KafkaRelay::WaitForAcknowledged(uint64_t position, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return acked_ >= position; });
}

}  // namespace esign::webhooks
