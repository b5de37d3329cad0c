#include "replication/kafka_log_topic.h"

#include <librdkafka/rdkafka.h>

namespace esign::replication {
namespace {

// A message's outcome, filled in by the delivery report on the producer's poll.
struct Delivery {
  bool done = false;
  rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
  int64_t offset = -1;
};

void OnDelivery(rd_kafka_t* /*handle*/, const rd_kafka_message_t* message, void* /*opaque*/) {
  auto* delivery = static_cast<Delivery*>(message->_private);
  delivery->error = message->err;
  delivery->offset = message->offset;
  delivery->done = true;
}

int Milliseconds(std::chrono::milliseconds duration) { return static_cast<int>(duration.count()); }

std::unexpected<Error> Unavailable(const std::string& what) {
  return Fail(ErrorCode::kUnavailable, "the replicated log " + what);
}

}  // namespace

KafkaLogTopic::~KafkaLogTopic() {
  producer_topic_.reset();
  producer_.reset();
  consumer_.reset();
}

Result<std::unique_ptr<KafkaLogTopic>> KafkaLogTopic::Open(const KafkaLogTopicOptions& options) {
  std::unique_ptr<KafkaLogTopic> topic(new KafkaLogTopic(options));
  if (Status made = topic->MakeProducer(); !made) return Fail(made.error());
  webhooks::KafkaSettings settings{{"bootstrap.servers", options.brokers},
                                   {"client.id", options.client_id + "-reader"},
                                   // Only assign() is used: no group is joined, nothing committed.
                                   {"group.id", options.client_id + "-reader"},
                                   {"enable.auto.commit", "false"},
                                   {"enable.partition.eof", "true"},
                                   // A log that lost its start is reported, not skipped.
                                   {"auto.offset.reset", "error"},
                                   {"fetch.wait.max.ms", "10"},
                                   {"max.partition.fetch.bytes", "16777216"},
                                   {"fetch.max.bytes", "67108864"},
                                   {"receive.message.max.bytes", "68157440"}};
  settings.insert(settings.end(), options.settings.begin(), options.settings.end());
  auto conf = webhooks::MakeKafkaConf(settings);
  if (!conf) return Fail(conf.error());
  auto consumer = webhooks::MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!consumer) return Fail(consumer.error());
  topic->consumer_ = std::move(*consumer);

  const rd_kafka_metadata_t* metadata = nullptr;
  const rd_kafka_resp_err_t err =
      rd_kafka_metadata(topic->producer_.get(), 0, topic->producer_topic_.get(), &metadata,
                        Milliseconds(options.timeout));
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("topic " + options.topic + " could not be looked up at " + options.brokers +
                       ": " + rd_kafka_err2str(err));
  }
  const bool one_partition = metadata->topic_cnt == 1 && metadata->topics[0].err == 0 &&
                             metadata->topics[0].partition_cnt == 1;
  const int partitions = metadata->topic_cnt == 1 ? metadata->topics[0].partition_cnt : 0;
  rd_kafka_metadata_destroy(metadata);
  if (!one_partition) {
    return Fail(ErrorCode::kValidationFailed,
                "the log topic " + options.topic +
                    " must exist with exactly one partition (it has " + std::to_string(partitions) +
                    "); see docs/operations.md");
  }
  return topic;
}

Status KafkaLogTopic::MakeProducer() {
  producer_topic_.reset();
  producer_.reset();
  webhooks::KafkaSettings settings{
      {"bootstrap.servers", options_.brokers},
      {"client.id", options_.client_id},
      {"enable.idempotence", "true"},
      {"acks", "all"},
      {"linger.ms", "0"},
      {"message.max.bytes", "9437184"},
      {"message.timeout.ms", std::to_string(options_.timeout.count())},
      // No topic is created by producing to it: the log topic is made with its settings.
      {"allow.auto.create.topics", "false"}};
  settings.insert(settings.end(), options_.settings.begin(), options_.settings.end());
  auto conf = webhooks::MakeKafkaConf(settings);
  if (!conf) return Fail(conf.error());
  rd_kafka_conf_set_dr_msg_cb(conf->get(), &OnDelivery);
  auto producer = webhooks::MakeKafkaHandle(RD_KAFKA_PRODUCER, std::move(*conf));
  if (!producer) return Fail(producer.error());
  producer_ = std::move(*producer);
  auto topic = webhooks::MakeKafkaTopic(producer_.get(), options_.topic);
  if (!topic) return Fail(topic.error());
  producer_topic_ = std::move(*topic);
  return {};
}

Result<int64_t> KafkaLogTopic::Produce(std::string_view bytes) {
  // An idempotent producer that met a fatal error (its sequence broken) refuses every message:
  // a new one starts a new sequence.
  char reason[256];
  if (rd_kafka_fatal_error(producer_.get(), reason, sizeof reason) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    if (Status made = MakeProducer(); !made) return Fail(made.error());
  }
  Delivery delivery;
  const rd_kafka_resp_err_t err = rd_kafka_producev(
      producer_.get(), RD_KAFKA_V_RKT(producer_topic_.get()), RD_KAFKA_V_PARTITION(0),
      RD_KAFKA_V_VALUE(const_cast<char*>(bytes.data()), bytes.size()),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(&delivery), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable(std::string("refused the entry: ") + rd_kafka_err2str(err));
  }
  // message.timeout.ms bounds the wait; past it (and a margin), what is left is purged, which
  // reports it failed.
  const auto give_up = std::chrono::steady_clock::now() + options_.timeout * 2;
  while (!delivery.done) {
    rd_kafka_poll(producer_.get(), 10);
    if (!delivery.done && std::chrono::steady_clock::now() > give_up) {
      rd_kafka_purge(producer_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
      rd_kafka_poll(producer_.get(), 100);
      if (!delivery.done) {
        // The report must come before `delivery` goes out of scope: a new producer drops the old
        // one's messages (their reports are served by its destruction).
        producer_topic_.reset();
        producer_.reset();
        if (Status made = MakeProducer(); !made) return Fail(made.error());
        return Unavailable("did not acknowledge the entry in time");
      }
    }
  }
  if (delivery.error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable(std::string("did not acknowledge the entry: ") +
                       rd_kafka_err2str(delivery.error));
  }
  return delivery.offset;
}

Status KafkaLogTopic::Read(int64_t from, int64_t until, const Each& each,
                           const std::stop_token& stop) {
  if (until >= 0 && from >= until) return {};
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, options_.topic.c_str(), 0)->offset = from;
  const rd_kafka_resp_err_t assigned = rd_kafka_assign(consumer_.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (assigned != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable(std::string("could not be read: ") + rd_kafka_err2str(assigned));
  }
  Status result;
  const bool bounded = until != kFollow;
  const auto quiet_limit = options_.timeout * 2;
  auto last_progress = std::chrono::steady_clock::now();
  int64_t next = from;
  while (!stop.stop_requested() && (until < 0 || next < until)) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer_.get(), 100);
    if (message == nullptr) {
      if (bounded && std::chrono::steady_clock::now() - last_progress > quiet_limit) {
        result = Unavailable("could not be read from offset " + std::to_string(next));
        break;
      }
      continue;
    }
    if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      // The end as the cluster reported it with this fetch (every message before it delivered).
      const bool at_end = until == kToEnd && message->offset <= next;
      rd_kafka_message_destroy(message);
      if (at_end) break;
      continue;
    }
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      const std::string why = rd_kafka_message_errstr(message);
      // An offset the topic no longer holds (auto.offset.reset=error reports it so): what a
      // retention or a mock cluster's size limit dropped can never be read again.
      const bool fatal = message->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE ||
                         message->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET;
      rd_kafka_message_destroy(message);
      if (fatal) {
        result = Fail(ErrorCode::kCorruption,
                      "the log topic no longer holds offset " + std::to_string(next) + ": " + why);
        break;
      }
      continue;
    }
    const int64_t offset = message->offset;
    Status applied;
    if (offset >= next) {
      applied =
          each(offset, std::string_view(static_cast<const char*>(message->payload), message->len));
      next = offset + 1;
      last_progress = std::chrono::steady_clock::now();
    }
    rd_kafka_message_destroy(message);
    if (!applied) {
      result = applied;
      break;
    }
  }
  rd_kafka_assign(consumer_.get(), nullptr);
  return result;
}

}  // namespace esign::replication
