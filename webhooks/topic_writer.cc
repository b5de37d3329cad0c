#include "webhooks/topic_writer.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "base/thread_name.h"

namespace esign::webhooks {
namespace {

// How often a waiting Write looks whether a stop has cut its wait short.
constexpr auto kStopCheck = std::chrono::milliseconds(100);

// One Write call's messages, told apart from other calls' by the message opaque.
struct PendingBatch {
  std::mutex mutex;
  std::condition_variable done;
  size_t remaining = 0;     // guarded by mutex
  std::string first_error;  // guarded by mutex
};

}  // namespace

Result<std::unique_ptr<TopicWriter>> TopicWriter::Start(TopicWriterOptions options) {
  if (!options.auth) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka message key", "message-key", "required");
  }
  KafkaSettings settings = {
      {"bootstrap.servers", options.brokers},
      {"client.id", options.client_id},
      {"enable.idempotence", "true"},
      {"acks", "all"},
      {"message.timeout.ms", std::to_string(options.timeout.count())},
      {"linger.ms", "1"},
      {"partitioner", "murmur2_random"},
  };
  settings.insert(settings.end(), options.settings.begin(), options.settings.end());
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  rd_kafka_conf_set_dr_msg_cb(conf->get(), &TopicWriter::OnDelivery);
  auto producer = MakeKafkaHandle(RD_KAFKA_PRODUCER, std::move(*conf));
  if (!producer) return std::unexpected(producer.error());
  std::vector<KafkaTopic> topics;
  for (const std::string& name : options.topics) {
    auto topic = MakeKafkaTopic(producer->get(), name);
    if (!topic) return std::unexpected(topic.error());
    topics.push_back(std::move(*topic));
  }
  return std::unique_ptr<TopicWriter>(
      new TopicWriter(std::move(*producer), std::move(topics), std::move(options.auth)));
}

TopicWriter::TopicWriter(KafkaHandle producer, std::vector<KafkaTopic> topics, MessageAuth auth)
    : producer_(std::move(producer)), topics_(std::move(topics)), auth_(std::move(auth)) {
  poller_ = std::jthread([this](const std::stop_token& stop) {
    NameThisThread("esign-topic-ack");
    while (!stop.stop_requested()) rd_kafka_poll(producer_.get(), 100);
  });
}

TopicWriter::~TopicWriter() {
  poller_.request_stop();
  poller_.join();
  // Every Write has returned: nothing is left unless a report is still on its way.
  rd_kafka_flush(producer_.get(), 2000);
}

void TopicWriter::StopWithin(std::chrono::milliseconds grace) {
  const auto give_up = std::chrono::steady_clock::now() + grace;
  give_up_at_.store(std::min(give_up_at_.load(), give_up.time_since_epoch().count()));
}

void TopicWriter::OnDelivery(rd_kafka_t* /*handle*/, const rd_kafka_message_t* message,
                             void* /*opaque*/) {
  auto* batch = static_cast<PendingBatch*>(message->_private);
  std::lock_guard lock(batch->mutex);
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR && batch->first_error.empty()) {
    batch->first_error = rd_kafka_err2str(message->err);
  }
  if (--batch->remaining == 0) batch->done.notify_all();
}

Status TopicWriter::Write(const std::vector<TopicMessage>& messages) {
  PendingBatch batch;
  std::unique_lock lock(batch.mutex);
  for (const TopicMessage& m : messages) {
    ++batch.remaining;  // before producing: its report may come at once, after the unlock
    const std::string mac = auth_.Mac(m.topic, m.key, m.value);
    const rd_kafka_resp_err_t err = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(m.topic.c_str()),
        RD_KAFKA_V_KEY(m.key.data(), m.key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(m.value.data()), m.value.size()),
        RD_KAFKA_V_HEADER(kMacHeader, mac.data(), static_cast<ssize_t>(mac.size())),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(&batch), RD_KAFKA_V_END);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      --batch.remaining;
      if (batch.first_error.empty()) batch.first_error = rd_kafka_err2str(err);
      break;
    }
  }
  // Every produced message reports, at the latest when message.timeout.ms passes or once purged;
  // the batch must outlive those reports, so this waits for all of them.
  bool purged = false;
  while (!batch.done.wait_for(lock, kStopCheck, [&batch] { return batch.remaining == 0; })) {
    const std::chrono::steady_clock::time_point give_up{
        std::chrono::steady_clock::duration(give_up_at_.load())};
    if (!purged && std::chrono::steady_clock::now() >= give_up) {
      // Reports of purged messages follow at once, through the poller.
      rd_kafka_purge(producer_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
      purged = true;
    }
  }
  if (!batch.first_error.empty()) {
    return Fail(ErrorCode::kUnavailable, "Kafka did not take the message: " + batch.first_error);
  }
  return {};
}

}  // namespace esign::webhooks
