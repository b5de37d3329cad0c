#include "webhooks/delivery_topics.h"

#include <boost/json.hpp>

namespace esign::webhooks {
namespace {

std::string WithDelivery(std::string_view kind, const delivery::Delivery& delivery) {
  return R"({"kind":")" + std::string(kind) + R"(","delivery":)" +
         delivery::DeliveryToJson(delivery) + "}";
}

}  // namespace

TopicMessage RetryRequestMessage(const delivery::Delivery& delivery) {
  // Keyed by the contract, so its deliveries stay in order; a bulk send's by the delivery.
  return {std::string(kRetriesTopic),
          delivery.contract_id.empty() ? delivery.id : delivery.contract_id,
          WithDelivery("retry", delivery)};
}

TopicMessage DeliveryRecordMessage(const delivery::Delivery& delivery) {
  return {std::string(kDeliveriesTopic), delivery.id, WithDelivery("delivery", delivery)};
}

TopicMessage DisableRequestMessage(std::string_view endpoint_id, std::string_view reason) {
  return {std::string(kDeliveriesTopic), std::string(endpoint_id),
          boost::json::serialize(boost::json::object{
              {"kind", "disable"}, {"endpointId", endpoint_id}, {"reason", reason}})};
}

std::optional<DeliveryTopicRecord> ParseDeliveryTopicRecord(std::string_view value) {
  boost::system::error_code ec;
  const boost::json::value json = boost::json::parse(value, ec);
  if (ec || !json.is_object()) return std::nullopt;
  const boost::json::object& o = json.as_object();
  const auto* kind = o.if_contains("kind");
  if (kind == nullptr || !kind->is_string()) return std::nullopt;
  DeliveryTopicRecord record;
  if (kind->as_string() == "disable") {
    const auto* endpoint = o.if_contains("endpointId");
    const auto* reason = o.if_contains("reason");
    if (endpoint == nullptr || !endpoint->is_string() || reason == nullptr ||
        !reason->is_string()) {
      return std::nullopt;
    }
    record.kind = DeliveryTopicRecord::Kind::kDisable;
    record.endpoint_id = endpoint->as_string();
    record.reason = reason->as_string();
    return record;
  }
  if (kind->as_string() == "retry") {
    record.kind = DeliveryTopicRecord::Kind::kRetry;
  } else if (kind->as_string() != "delivery") {
    return std::nullopt;
  }
  const auto* delivery = o.if_contains("delivery");
  if (delivery == nullptr) return std::nullopt;
  auto parsed = delivery::ParseDelivery(boost::json::serialize(*delivery));
  if (!parsed) return std::nullopt;
  record.delivery = std::move(*parsed);
  return record;
}

delivery::Delivery RetriedNow(delivery::Delivery delivery, int64_t now_us) {
  delivery.state = delivery::DeliveryState::kPending;
  delivery.round_start = delivery.attempts.size();
  delivery.next_attempt_us = now_us;
  return delivery;
}

}  // namespace esign::webhooks
