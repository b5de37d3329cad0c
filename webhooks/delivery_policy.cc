#include "webhooks/delivery_policy.h"

#include <chrono>
#include <optional>

#include "webhooks/retry_schedule.h"

namespace esign::webhooks {

std::vector<Delivery> RouteEvent(const LifecycleEvent& event,
                                 const std::vector<WebhookEndpoint>& endpoints_of_its_organization,
                                 int64_t now_us) {
  std::vector<Delivery> deliveries;
  std::string body;  // made once, for the first endpoint that wants the event
  for (const WebhookEndpoint& endpoint : endpoints_of_its_organization) {
    if (endpoint.created_position >= event.position || !endpoint.Wants(event.type)) continue;
    if (body.empty()) body = DeliveryBody(event);
    DeliveryIds ids = DeliveryIdsOf(endpoint.id, event.event_id);
    deliveries.push_back(Delivery{.id = std::move(ids.delivery_id),
                                  .endpoint_id = endpoint.id,
                                  .webhook_id = std::move(ids.webhook_id),
                                  .event_id = event.event_id,
                                  .event_type = event.type,
                                  .contract_id = event.contract_id,
                                  .position = event.position,
                                  .body = body,
                                  .next_attempt_us = now_us,
                                  .created_us = now_us});
  }
  return deliveries;
}

AttemptVerdict AfterAttempt(Delivery& delivery, const AttemptOutcome& outcome, int64_t now_us,
                            double jitter) {
  delivery.attempts.push_back(DeliveryAttempt{.at_us = now_us,
                                              .code = outcome.code,
                                              .latency_ms = outcome.latency.count(),
                                              .error = outcome.reply});
  switch (outcome.kind) {
    case AttemptOutcome::Kind::kDelivered:
      delivery.state = DeliveryState::kSucceeded;
      delivery.next_attempt_us = 0;
      return {.next = AttemptVerdict::Next::kSucceeded};
    case AttemptOutcome::Kind::kRefused:
      return {.next = AttemptVerdict::Next::kDisableEndpoint, .disable_reason = outcome.refusal};
    case AttemptOutcome::Kind::kFailed:
      delivery.state = DeliveryState::kFailed;
      delivery.next_attempt_us = 0;
      return {.next = AttemptVerdict::Next::kFailed};
    case AttemptOutcome::Kind::kRetry:
      break;
  }
  const size_t failures = delivery.attempts.size() - delivery.round_start;
  const auto delay = NextRetryDelay(failures, jitter, outcome.retry_after);
  if (!delay) {
    return {.next = AttemptVerdict::Next::kDisableEndpoint,
            .disable_reason = "every attempt of the retry schedule failed"};
  }
  delivery.next_attempt_us =
      now_us + std::chrono::duration_cast<std::chrono::microseconds>(*delay).count();
  return {.next = AttemptVerdict::Next::kRetry};
}

}  // namespace esign::webhooks
