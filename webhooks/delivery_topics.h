// The two topics besides contract-events that let dispatchers run outside contractd
// (docs/webhooks.md, "Dispatchers outside contractd"):
//   webhook-retries     retry requests of the retry operation, keyed by contract id, so that with
//                       the partition count of contract-events a request goes to the member that
//                       owns the contract's partition. Read by every dispatcher, in its group.
//   webhook-deliveries  what a dispatcher outside contractd records: each delivery as it changes
//                       (key: delivery id) and its requests to disable an endpoint (key: endpoint
//                       id). Read by contractd into the store behind the deliveries list.
// Values are JSON objects with a "kind": "retry", "delivery" or "disable".
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "delivery/delivery_store.h"
#include "webhooks/topic_writer.h"

namespace esign::webhooks {

inline constexpr std::string_view kRetriesTopic = "webhook-retries";
inline constexpr std::string_view kDeliveriesTopic = "webhook-deliveries";

// The delivery as it is to be retried (pending, a new round, due now).
TopicMessage RetryRequestMessage(const delivery::Delivery& delivery);
// The delivery as recorded.
TopicMessage DeliveryRecordMessage(const delivery::Delivery& delivery);
TopicMessage DisableRequestMessage(std::string_view endpoint_id, std::string_view reason);

struct DeliveryTopicRecord {
  enum class Kind { kRetry, kDelivery, kDisable };
  Kind kind = Kind::kDelivery;
  delivery::Delivery delivery;  // kRetry, kDelivery
  std::string endpoint_id;      // kDisable
  std::string reason;           // kDisable
};
// nullopt for a value that is none of the three.
std::optional<DeliveryTopicRecord> ParseDeliveryTopicRecord(std::string_view value);

// The delivery made due again now, in a new round of the retry schedule.
delivery::Delivery RetriedNow(delivery::Delivery delivery, int64_t now_us);

}  // namespace esign::webhooks
