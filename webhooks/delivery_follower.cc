#include "webhooks/delivery_follower.h"

#include "base/thread_name.h"
#include "delivery/log_line.h"
#include "webhooks/delivery_topics.h"

namespace esign::webhooks {
namespace {}  // namespace

Result<std::unique_ptr<DeliveryFollower>> DeliveryFollower::Start(
    DeliveryFollowerDeps deps, const DeliveryFollowerOptions& options) {
  if (!options.auth) {
    return Fail(ErrorCode::kValidationFailed, "no Kafka message key", "message-key", "required");
  }
  std::unique_ptr<DeliveryFollower> follower(new DeliveryFollower(std::move(deps), options.auth));
  auto consumer = SubscribeConsumer(
      GroupMemberSettings(options.brokers, options.group, "contractd-deliveries", options.settings),
      {options.topic});
  if (!consumer) return std::unexpected(consumer.error());
  follower->consumer_ = std::move(*consumer);
  follower->thread_ = std::jthread([f = follower.get()](const std::stop_token& stop) {
    NameThisThread("esign-dlvfollow");
    f->Run(stop);
  });
  return follower;
}

DeliveryFollower::~DeliveryFollower() { Stop(); }

void DeliveryFollower::Stop() {
  if (thread_.joinable()) {
    thread_.request_stop();
    thread_.join();
  }
  if (consumer_) {
    CloseKafkaConsumer(consumer_.get());  // commits the offsets of the records applied
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
        delivery::LogLine("webhook deliveries",
                          std::string("consumer: ") + rd_kafka_message_errstr(message));
      }
      rd_kafka_message_destroy(message);
      continue;
    }
    const std::string_view value(static_cast<const char*>(message->payload), message->len);
    // A message no dispatcher wrote is dropped; its offset is stored like any other's.
    Status applied = gate_.Admit(*message) ? Apply(value) : Status();
    while (!applied && !stop.stop_requested()) {
      delivery::LogLine("webhook deliveries",
                        "applying a record failed: " + applied.error().message);
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
