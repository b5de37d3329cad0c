#include "webhooks/kafka_relay.h"

#include <iostream>

#include "domain/stream_kinds.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {
namespace {

// Bounds how long a stopping poller goes unnoticed should rd_kafka_yield miss it.
constexpr int kPollMs = 1000;
// Pause before publishing again after a failed delivery, so a persistent refusal does not spin.
constexpr auto kRetryPause = std::chrono::seconds(1);
// Longest sleep in WaitForSizeAbove; appends and Stop wake it earlier.
constexpr auto kIdleWait = std::chrono::seconds(60);

void Log(const std::string& line) { std::cerr << "contractd: kafka relay: " << line << std::endl; }

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
  relay->StartPoller();
  relay->producer_thread_ =
      std::jthread([r = relay.get()](const std::stop_token& stop) { r->RunProducer(stop); });
  return relay;
}

KafkaRelay::KafkaRelay(const eventstore::EventStore& store, RelayCheckpoint checkpoint,
                       KafkaRelayOptions options)
    : store_(store),
      checkpoint_(std::move(checkpoint)),
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
      {"linger.ms", "2"},
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
  producer_ = std::move(*handle);
  return {};
}

void KafkaRelay::StartPoller() {
  poller_ = std::jthread([this](const std::stop_token& stop) {
    while (!stop.stop_requested()) {
      rd_kafka_poll(producer_.get(), kPollMs);  // serves delivery reports as they arrive
      SaveCheckpoint();
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
  producer_.reset();
  std::lock_guard lock(mutex_);
  pending_.clear();  // reports of a dropped producer never arrive: publish those again
  failed_ = false;
}

void KafkaRelay::Stop() {
  std::lock_guard stop_lock(stop_mutex_);
  if (!producer_thread_.joinable()) return;
  producer_thread_.request_stop();
  producer_thread_.join();
  if (!producer_) return;  // a failed restart left none
  StopPoller();
  // Serves the last delivery reports on this thread.
  rd_kafka_flush(producer_.get(), static_cast<int>(options_.stop_flush.count()));
  SaveCheckpoint();
  DropProducer();
}

void KafkaRelay::RunProducer(const std::stop_token& stop) {
  uint64_t next = acknowledged();
  while (!stop.stop_requested()) {
    bool failed = false;
    {
      std::unique_lock lock(mutex_);
      // Waits for room, or for a failure to deal with.
      changed_.wait(lock, stop,
                    [this] { return failed_ || pending_.size() < options_.max_in_flight; });
      if (stop.stop_requested()) break;
      failed = failed_;
    }
    if (failed) {
      DropProducer();
      std::mutex pause_mutex;
      std::unique_lock pause(pause_mutex);
      std::condition_variable_any().wait_for(pause, stop, kRetryPause, [] { return false; });
      if (stop.stop_requested()) break;
      if (auto created = CreateProducer(); !created) {
        Log("cannot create a producer: " + created.error().message);
        continue;
      }
      StartPoller();
      next = acknowledged();
      Log("publishing again from position " + std::to_string(next));
      continue;
    }
    if (next >= store_.Size()) {
      store_.WaitForSizeAbove(next, kIdleWait, stop);
      continue;
    }
    if (!PublishBatch(stop, next)) {
      std::lock_guard lock(mutex_);
      failed_ = true;
    }
  }
}

bool KafkaRelay::PublishBatch(const std::stop_token& stop, uint64_t& next) {
  size_t room = 0;
  {
    std::lock_guard lock(mutex_);
    room = options_.max_in_flight - pending_.size();
  }
  auto batch = store_.ReadAll(GlobalPosition(next), std::min(options_.read_batch, room));
  if (!batch) {
    Log("reading the log failed: " + batch.error().message);
    return false;
  }
  for (const eventstore::EventRecord& record : *batch) {
    if (stop.stop_requested()) return true;
    const uint64_t position = record.position.value();
    const PublishedTopic topic = TopicOfStream(record.stream_id);
    {
      std::lock_guard lock(mutex_);
      pending_.push_back(false);  // before producing: its report may come at once
      if (topic == PublishedTopic::kNone) MarkDone(position);
    }
    next = position + 1;
    if (topic == PublishedTopic::kNone) continue;
    if (topic == PublishedTopic::kContractEvents) {
      if (!Produce(record, options_.topic)) return false;
      continue;
    }
    if (!Produce(record, options_.endpoints_topic)) return false;
    if (!WaitForBarrier(stop, position)) return stop.stop_requested();
  }
  return true;
}

bool KafkaRelay::Produce(const eventstore::EventRecord& record, const std::string& topic) {
  const uint64_t position = record.position.value();
  auto controller = owners_.Of(record);
  if (!controller) {
    Log("reading the controller of position " + std::to_string(position) +
        " failed: " + controller.error().message);
    return false;
  }
  const EventMessage message = MakeEventMessage(record, *controller);
  const std::string mac = options_.auth.Mac(topic, message.key, message.value);
  const rd_kafka_resp_err_t err = rd_kafka_producev(
      producer_.get(), RD_KAFKA_V_TOPIC(topic.c_str()),
      RD_KAFKA_V_KEY(message.key.data(), message.key.size()),
      RD_KAFKA_V_VALUE(const_cast<char*>(message.value.data()), message.value.size()),
      RD_KAFKA_V_HEADER(kMacHeader, mac.data(), static_cast<ssize_t>(mac.size())),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
      // NOLINTNEXTLINE(performance-no-int-to-ptr): the position travels as the opaque
      RD_KAFKA_V_OPAQUE(reinterpret_cast<void*>(static_cast<uintptr_t>(position))), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    Log("producing position " + std::to_string(position) + " failed: " + rd_kafka_err2str(err));
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
           (position - acked_ < pending_.size() && pending_[position - acked_]);
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
      Log("delivery of position " + std::to_string(position) +
          " failed: " + rd_kafka_err2str(message->err));
    }
    relay->failed_ = true;
    relay->changed_.notify_all();
    return;
  }
  relay->MarkDone(position);
}

void KafkaRelay::MarkDone(uint64_t position) {
  if (position < acked_ || position - acked_ >= pending_.size()) return;  // of a dropped producer
  pending_[position - acked_] = true;
  bool moved = false;
  while (!pending_.empty() && pending_.front()) {
    pending_.pop_front();
    ++acked_;
    moved = true;
  }
  if (moved || position == barrier_) changed_.notify_all();
}

void KafkaRelay::SaveCheckpoint() {
  const uint64_t position = acknowledged();
  std::lock_guard lock(save_mutex_);
  if (position == saved_) return;
  if (auto stored = checkpoint_.Store(options_.cluster, position); !stored) {
    Log(stored.error().message);
    return;
  }
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
