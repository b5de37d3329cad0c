#include "webhooks/delivery_follower.h"

#include <iostream>

#include "webhooks/delivery_topics.h"

namespace esign::webhooks {
namespace {

void Log(const std::string& line) {
  std::cerr << "contractd: webhook deliveries: " << line << std::endl;
}

}  // namespace

Result<std::unique_ptr<DeliveryFollower>> DeliveryFollower::Start(DeliveryFollowerDeps deps,
                                                                  DeliveryFollowerOptions options) {
  std::unique_ptr<DeliveryFollower> follower(new DeliveryFollower(std::move(deps)));
  KafkaSettings settings = {
      {"bootstrap.servers", options.brokers},
      {"group.id", options.group},
      {"client.id", "contractd-deliveries"},
      {"auto.offset.reset", "earliest"},
      {"enable.auto.offset.store", "false"},
      {"enable.auto.commit", "true"},
      {"auto.commit.interval.ms", "1000"},
      {"fetch.wait.max.ms", "10"},
      {"session.timeout.ms", "10000"},
      {"heartbeat.interval.ms", "1000"},
      // The topic may not exist yet (no dispatcher wrote): subscribing creates it.
      {"allow.auto.create.topics", "true"},
  };
  settings.insert(settings.end(), options.settings.begin(), options.settings.end());
  auto conf = MakeKafkaConf(settings);
  if (!conf) return std::unexpected(conf.error());
  auto consumer = MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!consumer) return std::unexpected(consumer.error());
  follower->consumer_ = std::move(*consumer);
  rd_kafka_poll_set_consumer(follower->consumer_.get());
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, options.topic.c_str(), RD_KAFKA_PARTITION_UA);
  const rd_kafka_resp_err_t err = rd_kafka_subscribe(follower->consumer_.get(), topics);
  rd_kafka_topic_partition_list_destroy(topics);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Fail(ErrorCode::kInternal, std::string("cannot subscribe: ") + rd_kafka_err2str(err));
  }
  follower->thread_ =
      std::jthread([f = follower.get()](const std::stop_token& stop) { f->Run(stop); });
  return follower;
}

DeliveryFollower::~DeliveryFollower() { Stop(); }

void DeliveryFollower::Stop() {
  if (thread_.joinable()) {
    thread_.request_stop();
    thread_.join();
  }
  if (consumer_) {
    rd_kafka_consumer_close(consumer_.get());
    consumer_.reset();
  }
}

void DeliveryFollower::Run(const std::stop_token& stop) {
  rd_kafka_t* rk = consumer_.get();
  while (!stop.stop_requested()) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, 500);
    if (message == nullptr) continue;
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        Log(std::string("consumer: ") + rd_kafka_message_errstr(message));
      }
      rd_kafka_message_destroy(message);
      continue;
    }
    const std::string_view value(static_cast<const char*>(message->payload), message->len);
    Status applied = Apply(value);
    while (!applied && !stop.stop_requested()) {
      Log("applying a record failed: " + applied.error().message);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      applied = Apply(value);
    }
    if (applied) rd_kafka_offset_store(message->rkt, message->partition, message->offset);
    rd_kafka_message_destroy(message);
  }
}

Status DeliveryFollower::Apply(std::string_view value) {
  const auto record = ParseDeliveryTopicRecord(value);
  if (!record) return {};  // not ours to understand: skipped
  if (record->kind == DeliveryTopicRecord::Kind::kDisable) {
    Status disabled = deps_.disable(record->endpoint_id, record->reason);
    if (!disabled && disabled.error().code == ErrorCode::kNotFound) return {};  // deleted since
    return disabled;
  }
  if (record->kind != DeliveryTopicRecord::Kind::kDelivery) return {};
  auto stored = deps_.deliveries.Get(record->delivery.id);
  if (!stored) return std::unexpected(stored.error());
  if (*stored && (*stored)->attempts.size() > record->delivery.attempts.size()) return {};
  return deps_.deliveries.Update(record->delivery);
}

}  // namespace esign::webhooks
