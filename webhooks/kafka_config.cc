#include "webhooks/kafka_config.h"

#include <algorithm>
#include <array>
#include <future>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "delivery/log_line.h"

namespace esign::webhooks {
namespace {

// The handles being closed on purpose: their brokers going away is the close itself, not news.
class ClosingHandles {
 public:
  static ClosingHandles& Instance() {
    // Never destroyed: a client abandoned at a stop may still log while the process exits.
    static auto* handles = new ClosingHandles();
    return *handles;
  }
  void Add(const rd_kafka_t* handle) {
    std::lock_guard lock(mutex_);
    handles_.insert(handle);
  }
  void Remove(const rd_kafka_t* handle) {
    std::lock_guard lock(mutex_);
    handles_.erase(handle);
  }
  bool Contains(const rd_kafka_t* handle) const {
    std::lock_guard lock(mutex_);
    return handles_.contains(handle);
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_set<const rd_kafka_t*> handles_;  // guarded by mutex_
};

// Syslog's levels, which librdkafka uses.
std::string_view LevelName(int level) {
  constexpr std::array<std::string_view, 8> kNames = {"emergency", "alert",  "critical", "error",
                                                      "warning",   "notice", "info",     "debug"};
  return kNames.at(static_cast<size_t>(std::clamp(level, 0, 7)));
}

std::string PartOf(const rd_kafka_t* handle) {
  return "kafka " + std::string(rd_kafka_name(handle));
}

// Called on librdkafka's own threads: it only writes a line.
void OnLog(const rd_kafka_t* handle, int level, const char* facility, const char* line) {
  // "FAIL" is a broker connection that went down (or could not be made).
  if (std::string_view(facility) == "FAIL" && ClosingHandles::Instance().Contains(handle)) return;
  delivery::LogLine(PartOf(handle), std::string(LevelName(level)) + " [" + facility + "] " + line);
}

// Served by the application's polls (rd_kafka_poll, rd_kafka_consumer_poll, flush).
void OnError(rd_kafka_t* handle, int error, const char* reason, void* /*opaque*/) {
  const auto code = static_cast<rd_kafka_resp_err_t>(error);
  const bool connection = code == RD_KAFKA_RESP_ERR__TRANSPORT ||
                          code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
                          code == RD_KAFKA_RESP_ERR__DESTROY;
  if (connection && ClosingHandles::Instance().Contains(handle)) return;
  delivery::LogLine(PartOf(handle),
                    std::string("error [") + rd_kafka_err2name(code) + "] " + reason);
}

int MillisecondsUntil(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::max<int64_t>(left.count(), 0));
}

}  // namespace

// What consumer_close does, with a deadline: rebalance events are answered here by giving the
// partitions up (eager or cooperative), which commits their stored offsets.
void CloseKafkaConsumer(rd_kafka_t* handle, std::chrono::milliseconds timeout) {
  ClosingHandles::Instance().Add(handle);
  if (rd_kafka_consumer_closed(handle) != 0) return;
  rd_kafka_queue_t* queue = rd_kafka_queue_new(handle);
  if (rd_kafka_error_t* error = rd_kafka_consumer_close_queue(handle, queue)) {
    delivery::LogLine(PartOf(handle),
                      std::string("warning: closing failed: ") + rd_kafka_error_string(error));
    rd_kafka_error_destroy(error);
    rd_kafka_queue_destroy(queue);
    return;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (rd_kafka_consumer_closed(handle) == 0) {
    const int left = MillisecondsUntil(deadline);
    if (left == 0) {
      delivery::LogLine(PartOf(handle),
                        "warning: the cluster did not answer within " +
                            std::to_string(timeout.count()) +
                            " ms of closing: offsets not committed are read again by the "
                            "partitions' next owner");
      break;
    }
    rd_kafka_event_t* event = rd_kafka_queue_poll(queue, std::min(left, 100));
    if (event == nullptr) continue;
    if (rd_kafka_event_type(event) == RD_KAFKA_EVENT_REBALANCE) {
      if (std::string_view(rd_kafka_rebalance_protocol(handle)) == "COOPERATIVE") {
        if (rd_kafka_error_t* error =
                rd_kafka_incremental_unassign(handle, rd_kafka_event_topic_partition_list(event))) {
          rd_kafka_error_destroy(error);
        }
      } else {
        rd_kafka_assign(handle, nullptr);
      }
    }
    rd_kafka_event_destroy(event);
  }
  rd_kafka_queue_destroy(queue);
}

void DestroyKafkaHandle(rd_kafka_t* handle) {
  if (handle == nullptr) return;
  ClosingHandles::Instance().Add(handle);
  if (rd_kafka_type(handle) == RD_KAFKA_CONSUMER) CloseKafkaConsumer(handle);
  // Closed above, or given up on: destroying must not close again. Even so, a consumer whose
  // commit or leave is still waiting for a cluster that is gone blocks in destroy until that
  // request times out (measured: 10 s); such a client is left to finish on a thread of its own.
  auto destroyed = std::make_shared<std::promise<void>>();
  std::future<void> done = destroyed->get_future();
  std::thread([handle, destroyed] {
    rd_kafka_destroy_flags(handle, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    ClosingHandles::Instance().Remove(handle);
    destroyed->set_value();
  }).detach();
  if (done.wait_for(kKafkaDestroyTimeout) == std::future_status::timeout) {
    delivery::LogLine("kafka",
                      "warning: a client still waiting for its cluster is left to end with the "
                      "process");
  }
}

Result<KafkaConf> MakeKafkaConf(const KafkaSettings& settings) {
  KafkaConf conf(rd_kafka_conf_new());
  std::array<char, 512> error{};
  for (const auto& [name, value] : settings) {
    if (rd_kafka_conf_set(conf.get(), name.c_str(), value.c_str(), error.data(), error.size()) !=
        RD_KAFKA_CONF_OK) {
      std::string message = "Kafka setting ";
      message.append(name).append("=").append(value).append(" refused: ").append(error.data());
      return Fail(ErrorCode::kValidationFailed, message, name, error.data());
    }
  }
  return conf;
}

Result<KafkaHandle> MakeKafkaHandle(rd_kafka_type_t type, KafkaConf conf) {
  rd_kafka_conf_set_log_cb(conf.get(), &OnLog);
  rd_kafka_conf_set_error_cb(conf.get(), &OnError);
  std::array<char, 512> error{};
  rd_kafka_t* handle = rd_kafka_new(type, conf.get(), error.data(), error.size());
  if (handle == nullptr) {
    return Fail(ErrorCode::kInternal, std::string("cannot create a Kafka client: ") + error.data());
  }
  (void)conf.release();  // rd_kafka_new owns it now
  return KafkaHandle(handle);
}

Result<KafkaTopic> MakeKafkaTopic(rd_kafka_t* handle, const std::string& topic) {
  KafkaTopic made(rd_kafka_topic_new(handle, topic.c_str(), nullptr));
  if (!made) {
    return Fail(ErrorCode::kInternal, "cannot make a handle of topic " + topic + ": " +
                                          rd_kafka_err2str(rd_kafka_last_error()));
  }
  return made;
}

KafkaSettings GroupMemberSettings(const std::string& brokers, const std::string& group,
                                  const std::string& client_id, const KafkaSettings& more) {
  KafkaSettings settings = {
      {"bootstrap.servers", brokers},
      {"group.id", group},
      {"client.id", client_id},
      {"auto.offset.reset", "earliest"},
      {"enable.auto.offset.store", "false"},
      {"enable.auto.commit", "true"},
      {"auto.commit.interval.ms", "1000"},
      {"fetch.wait.max.ms", "10"},
      {"session.timeout.ms", "10000"},
      {"heartbeat.interval.ms", "1000"},
      {"allow.auto.create.topics", "true"},
  };
  settings.insert(settings.end(), more.begin(), more.end());
  return settings;
}

Result<KafkaHandle> SubscribeConsumer(const KafkaSettings& settings,
                                      const std::vector<std::string>& topics,
                                      const std::function<void(rd_kafka_conf_t*)>& prepare) {
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  if (prepare) prepare(conf->get());
  auto consumer = MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!consumer) return std::unexpected(consumer.error());
  rd_kafka_poll_set_consumer(consumer->get());
  rd_kafka_topic_partition_list_t* list =
      rd_kafka_topic_partition_list_new(static_cast<int>(topics.size()));
  for (const std::string& topic : topics) {
    rd_kafka_topic_partition_list_add(list, topic.c_str(), RD_KAFKA_PARTITION_UA);
  }
  const rd_kafka_resp_err_t err = rd_kafka_subscribe(consumer->get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Fail(ErrorCode::kInternal, std::string("cannot subscribe: ") + rd_kafka_err2str(err));
  }
  return consumer;
}

}  // namespace esign::webhooks
