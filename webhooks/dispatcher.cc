#include "webhooks/dispatcher.h"

#include <algorithm>
#include <iostream>

#include "webhooks/delivery_message.h"
#include "webhooks/retry_schedule.h"

namespace esign::webhooks {
namespace {

// Bounds how long a stopping intake goes unnoticed; messages wake it at once.
constexpr int kPollMs = 500;

void Log(const std::string& line) {
  std::cerr << "contractd: webhook dispatcher: " << line << std::endl;
}

bool Success(int status) { return status >= 200 && status < 300; }

}  // namespace

// One endpoint's deliveries, sent one at a time in log order by a thread of its own.
class Dispatcher::Lane {
 public:
  Lane(Dispatcher& dispatcher, std::string endpoint_id, std::vector<Delivery> pending)
      : dispatcher_(dispatcher),
        endpoint_id_(std::move(endpoint_id)),
        queue_(pending.begin(), pending.end()),
        random_(std::random_device()()) {
    thread_ = std::jthread([this](const std::stop_token& stop) { Run(stop); });
  }
  ~Lane() { Stop(); }

  void Stop() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    thread_.join();
  }

  void Push(Delivery delivery) {
    std::lock_guard lock(mutex_);
    // Keeps log order when a retried delivery comes back among newer ones.
    auto it = queue_.begin();
    while (it != queue_.end() && it->position < delivery.position) ++it;
    if (it != queue_.end() && it->id == delivery.id) {
      *it = std::move(delivery);
    } else {
      queue_.insert(it, std::move(delivery));
    }
    woken_ = true;
    changed_.notify_all();
  }

  void Wake() {
    std::lock_guard lock(mutex_);
    woken_ = true;
    changed_.notify_all();
  }

 private:
  void Run(const std::stop_token& stop) {
    const DispatcherDeps& deps = dispatcher_.deps_;
    std::unique_lock lock(mutex_);
    while (!stop.stop_requested()) {
      if (queue_.empty()) {
        changed_.wait(lock, stop, [this] { return !queue_.empty(); });
        continue;
      }
      const std::optional<WebhookEndpoint> endpoint = deps.directory.Find(endpoint_id_);
      if (!endpoint) {  // deleted: nothing more goes there
        queue_.clear();
        continue;
      }
      if (!endpoint->enabled || endpoint->version < awaiting_version_) {
        paused_ = true;
        woken_ = false;
        changed_.wait(lock, stop, [this] { return woken_; });
        continue;
      }
      const int64_t now = deps.clock.NowMicros();
      Delivery& head = queue_.front();
      if (paused_) {  // enabled again: a new round of the schedule, starting now
        paused_ = false;
        head.round_start = head.attempts.size();
        head.next_attempt_us = now;
      }
      if (head.next_attempt_us > now) {
        woken_ = false;
        changed_.wait_for(lock, stop, std::chrono::microseconds(head.next_attempt_us - now),
                          [this] { return woken_; });
        continue;
      }
      Delivery delivery = head;
      lock.unlock();
      Attempt(*endpoint, delivery);
      lock.lock();
      // Deliveries of other partitions may have been queued ahead of it meanwhile.
      auto it = std::find_if(queue_.begin(), queue_.end(),
                             [&delivery](const Delivery& d) { return d.id == delivery.id; });
      if (it == queue_.end()) continue;
      if (delivery.state == DeliveryState::kPending) {
        *it = std::move(delivery);
      } else {
        queue_.erase(it);
      }
    }
  }

  void Attempt(const WebhookEndpoint& endpoint, Delivery& delivery) {
    const DispatcherDeps& deps = dispatcher_.deps_;
    const int64_t now = deps.clock.NowMicros();
    DeliveryAttempt attempt{.at_us = now};
    auto secrets = deps.secrets.Signing(endpoint.id, now);
    SendOutcome outcome;
    if (!secrets || secrets->empty()) {
      outcome.error = "the endpoint has no signing secret";
    } else {
      const int64_t timestamp = now / 1'000'000;
      outcome =
          deps.sender.Send({endpoint.url,
                            {{"webhook-id", delivery.webhook_id},
                             {"webhook-timestamp", std::to_string(timestamp)},
                             {"webhook-signature", SignatureHeader(*secrets, delivery.webhook_id,
                                                                   timestamp, delivery.body)}},
                            delivery.body});
    }
    attempt.status_code = outcome.status_code;
    attempt.latency_ms = outcome.latency.count();
    attempt.error = outcome.error;
    if (outcome.status_code >= 300 && outcome.status_code < 400) {
      attempt.error = "redirects are not followed";
    }
    delivery.attempts.push_back(attempt);
    if (Success(outcome.status_code)) {
      delivery.state = DeliveryState::kSucceeded;
      delivery.next_attempt_us = 0;
    } else if (outcome.status_code == 410) {
      Disable(endpoint, "the endpoint answered 410 Gone");
    } else {
      const bool asks_later = outcome.status_code == 429 || outcome.status_code == 503;
      const size_t failures = delivery.attempts.size() - delivery.round_start;
      std::uniform_real_distribution<double> jitter(-1.0, 1.0);
      const auto delay = NextRetryDelay(failures, jitter(random_),
                                        asks_later ? outcome.retry_after : std::nullopt);
      if (delay) {
        delivery.next_attempt_us =
            now + std::chrono::duration_cast<std::chrono::microseconds>(*delay).count();
      } else {
        Disable(endpoint, "every attempt of the retry schedule failed");
      }
    }
    if (auto stored = deps.deliveries.Update(delivery); !stored) {
      Log("recording delivery " + delivery.id + " failed: " + stored.error().message);
    }
  }

  void Disable(const WebhookEndpoint& endpoint, const std::string& reason) {
    Log("disabling endpoint " + endpoint.id + ": " + reason);
    if (auto disabled = dispatcher_.deps_.commands.Disable(endpoint.id, reason); !disabled) {
      Log("disabling endpoint " + endpoint.id + " failed: " + disabled.error().message);
      return;
    }
    std::lock_guard lock(mutex_);
    awaiting_version_ = endpoint.version + 1;  // until the directory shows the disable
  }

  Dispatcher& dispatcher_;
  const std::string endpoint_id_;
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<Delivery> queue_;     // guarded by mutex_: pending, by position
  bool woken_ = false;             // guarded by mutex_
  bool paused_ = false;            // guarded by mutex_: the endpoint was seen disabled
  uint64_t awaiting_version_ = 0;  // guarded by mutex_
  std::mt19937_64 random_;         // the lane thread's
  std::jthread thread_;
};

Result<std::unique_ptr<Dispatcher>> Dispatcher::Start(DispatcherDeps deps,
                                                      DispatcherOptions options) {
  std::unique_ptr<Dispatcher> dispatcher(new Dispatcher(std::move(deps), std::move(options)));
  KafkaSettings settings = {
      {"bootstrap.servers", dispatcher->options_.brokers},
      {"group.id", dispatcher->options_.group},
      {"client.id", "contractd-dispatcher"},
      {"auto.offset.reset", "earliest"},
      // Offsets are stored by hand once a message's deliveries are recorded; the consumer commits
      // only stored offsets.
      {"enable.auto.offset.store", "false"},
      {"enable.auto.commit", "true"},
      {"auto.commit.interval.ms", "1000"},
      // A fetch returns as soon as there is data, or after this: deliveries wait for it.
      {"fetch.wait.max.ms", "10"},
      // A member that died (SIGKILL) keeps its partitions until its session times out: its
      // successor waits that long, so it is kept short.
      {"session.timeout.ms", "10000"},
      {"heartbeat.interval.ms", "1000"},
  };
  settings.insert(settings.end(), dispatcher->options_.settings.begin(),
                  dispatcher->options_.settings.end());
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  auto consumer = MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!consumer) return std::unexpected(consumer.error());
  dispatcher->consumer_ = std::move(*consumer);
  rd_kafka_poll_set_consumer(dispatcher->consumer_.get());
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, dispatcher->options_.topic.c_str(),
                                    RD_KAFKA_PARTITION_UA);
  const rd_kafka_resp_err_t err = rd_kafka_subscribe(dispatcher->consumer_.get(), topics);
  rd_kafka_topic_partition_list_destroy(topics);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Fail(ErrorCode::kInternal, std::string("cannot subscribe: ") + rd_kafka_err2str(err));
  }
  // Deliveries left pending by an earlier run resume.
  auto endpoints = dispatcher->deps_.deliveries.EndpointsWithPending();
  if (!endpoints) return std::unexpected(endpoints.error());
  // Only here are lanes filled from the store: a lane created later starts empty and receives
  // its deliveries by Push, so none is queued twice.
  for (const std::string& endpoint : *endpoints) {
    auto pending = dispatcher->deps_.deliveries.Pending(endpoint);
    if (!pending) return std::unexpected(pending.error());
    dispatcher->LaneOf(endpoint, std::move(*pending));
  }
  dispatcher->intake_ =
      std::jthread([d = dispatcher.get()](const std::stop_token& stop) { d->RunIntake(stop); });
  return dispatcher;
}

Dispatcher::Dispatcher(DispatcherDeps deps, DispatcherOptions options)
    : deps_(std::move(deps)), options_(std::move(options)) {}

Dispatcher::~Dispatcher() { Stop(); }

void Dispatcher::Stop() {
  if (intake_.joinable()) {
    intake_.request_stop();
    intake_.join();
  }
  if (consumer_) {
    rd_kafka_consumer_close(consumer_.get());  // commits the offsets stored so far
    consumer_.reset();
  }
  std::lock_guard lock(lanes_mutex_);
  for (auto& [id, lane] : lanes_) lane->Stop();
  lanes_.clear();
}

void Dispatcher::Wake() {
  std::lock_guard lock(lanes_mutex_);
  for (auto& [id, lane] : lanes_) lane->Wake();
}

Dispatcher::Lane& Dispatcher::LaneOf(const std::string& endpoint_id,
                                     std::vector<Delivery> pending) {
  std::lock_guard lock(lanes_mutex_);
  auto it = lanes_.find(endpoint_id);
  if (it != lanes_.end()) return *it->second;
  auto lane = std::make_unique<Lane>(*this, endpoint_id, std::move(pending));
  return *lanes_.emplace(endpoint_id, std::move(lane)).first->second;
}

void Dispatcher::RunIntake(const std::stop_token& stop) {
  rd_kafka_t* rk = consumer_.get();
  while (!stop.stop_requested()) {
    std::vector<rd_kafka_message_t*> batch;
    // Waits for the first message, then takes what is already there.
    for (int timeout = kPollMs; batch.size() < options_.intake_batch; timeout = 0) {
      rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, timeout);
      if (message == nullptr) break;
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          Log(std::string("consumer: ") + rd_kafka_message_errstr(message));
        }
        rd_kafka_message_destroy(message);
        continue;
      }
      batch.push_back(message);
    }
    if (batch.empty()) continue;
    std::vector<std::string> values;
    values.reserve(batch.size());
    for (auto* m : batch) values.emplace_back(static_cast<const char*>(m->payload), m->len);
    // Not one offset is stored before the batch's deliveries are: on failure, try again.
    Status recorded = Record(values);
    while (!recorded && !stop.stop_requested()) {
      Log("recording deliveries failed: " + recorded.error().message);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      recorded = Record(values);
    }
    if (recorded) {
      rd_kafka_topic_partition_list_t* offsets =
          rd_kafka_topic_partition_list_new(static_cast<int>(batch.size()));
      for (auto* m : batch) {
        rd_kafka_topic_partition_list_add(offsets, rd_kafka_topic_name(m->rkt), m->partition)
            ->offset = m->offset + 1;
      }
      rd_kafka_offsets_store(rk, offsets);
      rd_kafka_topic_partition_list_destroy(offsets);
    }
    for (auto* m : batch) rd_kafka_message_destroy(m);
  }
}

Status Dispatcher::Record(const std::vector<std::string>& values) {
  std::vector<Delivery> deliveries;
  const int64_t now = deps_.clock.NowMicros();
  for (const std::string& value : values) {
    const std::optional<LifecycleEvent> event = ParseLifecycleEvent(value);
    if (!event) continue;
    // Endpoints created before the event must be in the directory.
    deps_.wait_for_directory(event->position + 1);
    std::optional<std::string> organization =
        event->organization_id.empty() ? deps_.controller_of(event->contract_id)
                                       : std::optional<std::string>(event->organization_id);
    if (!organization) continue;
    const std::string body = DeliveryBody(*event);
    for (const WebhookEndpoint& endpoint : deps_.directory.OfOrganization(*organization)) {
      if (endpoint.created_position >= event->position || !endpoint.Wants(event->type)) continue;
      deliveries.push_back(Delivery{.id = DeliveryId(endpoint.id, event->event_id),
                                    .endpoint_id = endpoint.id,
                                    .webhook_id = WebhookMessageId(endpoint.id, event->event_id),
                                    .event_id = event->event_id,
                                    .event_type = event->type,
                                    .contract_id = event->contract_id,
                                    .position = event->position,
                                    .body = body,
                                    .next_attempt_us = now,
                                    .created_us = now});
    }
  }
  if (deliveries.empty()) return {};
  auto added = deps_.deliveries.AddNew(std::move(deliveries));
  if (!added) return std::unexpected(added.error());
  for (Delivery& delivery : *added) {
    const std::string endpoint_id = delivery.endpoint_id;
    LaneOf(endpoint_id).Push(std::move(delivery));
  }
  return {};
}

Result<Delivery> Dispatcher::Retry(std::string_view delivery_id, std::string_view organization_id) {
  auto stored = deps_.deliveries.Get(delivery_id);
  if (!stored) return std::unexpected(stored.error());
  const auto endpoint = *stored ? deps_.directory.Find((*stored)->endpoint_id) : std::nullopt;
  if (!endpoint || endpoint->organization_id != organization_id) {
    return Fail(ErrorCode::kNotFound, "no delivery " + std::string(delivery_id), "deliveryId",
                std::string(delivery_id));
  }
  Delivery delivery = std::move(**stored);
  delivery.state = DeliveryState::kPending;
  delivery.round_start = delivery.attempts.size();
  delivery.next_attempt_us = deps_.clock.NowMicros();
  if (auto updated = deps_.deliveries.Update(delivery); !updated) {
    return std::unexpected(updated.error());
  }
  LaneOf(delivery.endpoint_id).Push(delivery);
  return delivery;
}

}  // namespace esign::webhooks
