#include "webhooks/endpoint_feed.h"

#include <unistd.h>

#include <atomic>

#include "base/thread_name.h"
#include "delivery/log_line.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {
namespace {

// How long one poll of the consumer blocks; bounds how late Stop and new partitions are noticed.
constexpr int kPollMs = 100;
// How often the thread reads the topic's partitions: often while it has none (the topic does not
// exist yet), rarely once it has some (partitions are seldom added).
constexpr auto kTopicMissingRefresh = std::chrono::milliseconds(500);
constexpr auto kPartitionsRefresh = std::chrono::seconds(5);
constexpr auto kMetadataTimeout = std::chrono::seconds(1);
// Pause between metadata requests of CatchUp while the topic is being created.
constexpr auto kMetadataRetryPause = std::chrono::milliseconds(100);

std::string UniqueGroupId() {
  static std::atomic<uint64_t> instances{0};
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return "endpoint-feed-" + std::to_string(::getpid()) + "-" + std::to_string(now) + "-" +
         std::to_string(++instances);
}

int TimeoutMs(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::max<int64_t>(left.count(), 0));
}

// The topic's partition count; 0 when the topic does not exist. An error for no answer, or for a
// topic the cluster reports but cannot describe yet (being created, no leader).
Result<int32_t> PartitionCount(rd_kafka_t* consumer, const std::string& topic,
                               std::chrono::milliseconds timeout) {
  rd_kafka_topic_t* handle = rd_kafka_topic_new(consumer, topic.c_str(), nullptr);
  if (handle == nullptr) return Fail(ErrorCode::kInternal, "cannot name topic " + topic);
  const rd_kafka_metadata_t* metadata = nullptr;
  const rd_kafka_resp_err_t err =
      rd_kafka_metadata(consumer, 0, handle, &metadata, static_cast<int>(timeout.count()));
  rd_kafka_topic_destroy(handle);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Fail(ErrorCode::kUnavailable, std::string("metadata: ") + rd_kafka_err2str(err));
  }
  Result<int32_t> count = 0;
  for (int i = 0; i < metadata->topic_cnt; ++i) {
    const rd_kafka_metadata_topic_t& t = metadata->topics[i];
    if (topic != t.topic) continue;
    if (t.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) break;
    if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR || t.partition_cnt == 0) {
      count =
          Fail(ErrorCode::kUnavailable, "metadata of " + topic + ": " + rd_kafka_err2str(t.err));
      break;
    }
    count = t.partition_cnt;
  }
  rd_kafka_metadata_destroy(metadata);
  return count;
}

}  // namespace

Result<std::unique_ptr<EndpointFeed>> EndpointFeed::Start(EndpointFeedOptions options) {
  if (options.brokers.empty()) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka brokers", "kafka-brokers", "required");
  }
  if (!options.auth) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka message key", "message-key", "required");
  }
  KafkaSettings settings = {
      {"bootstrap.servers", options.brokers},
      {"client.id", "contractd-endpoint-feed"},
      // Partitions are assigned, never subscribed: the group is never joined and nothing is
      // committed; a unique id keeps instances apart should a tool list groups.
      {"group.id", UniqueGroupId()},
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      // Should the beginning move (retention), start at the first message there is.
      {"auto.offset.reset", "earliest"},
  };
  settings.insert(settings.end(), options.settings.begin(), options.settings.end());
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  auto handle = MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!handle) return std::unexpected(handle.error());
  std::unique_ptr<EndpointFeed> feed(new EndpointFeed(std::move(options)));
  feed->consumer_ = std::move(*handle);
  rd_kafka_poll_set_consumer(feed->consumer_.get());
  feed->thread_ = std::jthread([f = feed.get()](const std::stop_token& stop) {
    NameThisThread("esign-endpoints");
    f->Run(stop);
  });
  return feed;
}

EndpointFeed::EndpointFeed(EndpointFeedOptions options)
    : options_(std::move(options)), gate_(options_.auth, "contractd: endpoint feed") {}

EndpointFeed::~EndpointFeed() { Stop(); }

void EndpointFeed::Stop() {
  std::lock_guard stop_lock(stop_mutex_);
  {
    std::lock_guard lock(mutex_);
    stopping_.store(true);
    applied_changed_.notify_all();
  }
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
  // The handle stays, for a CatchUp racing with Stop; it is destroyed with the feed.
  CloseKafkaConsumer(consumer_.get());
}

void EndpointFeed::Run(const std::stop_token& stop) {
  int32_t assigned = 0;
  auto next_refresh = std::chrono::steady_clock::now();
  while (!stop.stop_requested()) {
    int32_t wanted = 0;
    {
      std::lock_guard lock(mutex_);
      wanted = wanted_partitions_;
    }
    if (std::chrono::steady_clock::now() >= next_refresh) {
      if (auto count = PartitionCount(consumer_.get(), options_.topic, kMetadataTimeout)) {
        wanted = std::max(wanted, *count);
      }
      next_refresh =
          std::chrono::steady_clock::now() +
          (std::max(wanted, assigned) == 0
               ? std::chrono::duration_cast<std::chrono::milliseconds>(kTopicMissingRefresh)
               : std::chrono::duration_cast<std::chrono::milliseconds>(kPartitionsRefresh));
    }
    if (wanted > assigned) {
      Assign(wanted);
      assigned = wanted;
    }
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer_.get(), kPollMs);
    if (message == nullptr) continue;
    if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      Consume(*message);
    } else if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      delivery::LogLine("endpoint feed", rd_kafka_message_errstr(message));
    }
    rd_kafka_message_destroy(message);
  }
}

void EndpointFeed::Assign(int32_t count) {
  rd_kafka_topic_partition_list_t* partitions = rd_kafka_topic_partition_list_new(count);
  {
    std::lock_guard lock(mutex_);
    if (applied_.size() < static_cast<size_t>(count)) applied_.resize(count, 0);
    for (int32_t p = 0; p < count; ++p) {
      // Assign replaces the whole assignment: partitions read already go on where they are.
      rd_kafka_topic_partition_list_add(partitions, options_.topic.c_str(), p)->offset =
          applied_[p] > 0 ? applied_[p] : RD_KAFKA_OFFSET_BEGINNING;
    }
  }
  if (const rd_kafka_resp_err_t err = rd_kafka_assign(consumer_.get(), partitions);
      err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    delivery::LogLine("endpoint feed",
                      std::string("assigning partitions failed: ") + rd_kafka_err2str(err));
  }
  rd_kafka_topic_partition_list_destroy(partitions);
}

void EndpointFeed::Consume(const rd_kafka_message_t& message) {
  // Applies only what the relay wrote; a message dropped by the gate still counts as read.
  if (gate_.Admit(message)) Apply(message);
  std::lock_guard lock(mutex_);
  if (static_cast<size_t>(message.partition) < applied_.size()) {
    applied_[message.partition] = std::max(applied_[message.partition], message.offset + 1);
  }
  applied_changed_.notify_all();
}

void EndpointFeed::Apply(const rd_kafka_message_t& message) {
  auto record =
      ParseEventMessage(std::string_view(static_cast<const char*>(message.payload), message.len));
  if (!record) {
    delivery::LogLine("endpoint feed", "skipping offset " + std::to_string(message.offset) +
                                           " of partition " + std::to_string(message.partition) +
                                           ": " + record.error().message);
    return;
  }
  uint64_t& version = versions_[record->stream_id];
  if (record->version.value() <= version) return;  // the relay's repetitions (at least once)
  version = record->version.value();
  DiscardingBatch batch;
  if (auto applied = directory_.Apply(*record, batch); !applied) {
    delivery::LogLine("endpoint feed",
                      "event " + record->event_id + ": " + applied.error().message);
  }
  directory_.Committed();
}

bool EndpointFeed::CatchUp(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Result<int32_t> count = 0;
  while (!stopping_.load()) {
    count = PartitionCount(consumer_.get(), options_.topic,
                           std::min<std::chrono::milliseconds>(
                               kMetadataTimeout, std::chrono::milliseconds(TimeoutMs(deadline))));
    if (count) break;
    if (std::chrono::steady_clock::now() + kMetadataRetryPause >= deadline) return false;
    std::this_thread::sleep_for(kMetadataRetryPause);
  }
  if (stopping_.load()) return false;
  if (*count == 0) return true;  // no topic yet: nothing in it
  std::vector<int64_t> targets(*count, 0);
  for (int32_t p = 0; p < *count; ++p) {
    int64_t low = 0;
    int64_t high = 0;
    // A second at most per call, so a Stop meanwhile is noticed soon.
    const int timeout_ms =
        std::min(TimeoutMs(deadline), static_cast<int>(kMetadataTimeout.count()));
    const rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(
        consumer_.get(), options_.topic.c_str(), p, &low, &high, timeout_ms);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR || stopping_.load()) return false;
    targets[p] = high > low ? high : 0;  // an empty partition is reached at once
  }
  std::unique_lock lock(mutex_);
  wanted_partitions_ = std::max(wanted_partitions_, *count);
  const bool reached = applied_changed_.wait_until(lock, deadline, [&] {
    if (stopping_.load()) return true;
    for (size_t p = 0; p < targets.size(); ++p) {
      if (targets[p] > 0 && (p >= applied_.size() || applied_[p] < targets[p])) return false;
    }
    return true;
  });
  return reached && !stopping_.load();
}

}  // namespace esign::webhooks
