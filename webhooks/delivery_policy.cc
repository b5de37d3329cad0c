#include "webhooks/delivery_policy.h"

#include <chrono>
#include <optional>

#include "webhooks/retry_schedule.h"

namespace esign::webhooks {
namespace {

bool Success(int status) { return status >= 200 && status < 300; }
bool Redirect(int status) { return status >= 300 && status < 400; }

}  // namespace

std::vector<Delivery> RouteEvent(const LifecycleEvent& event,
                                 const std::vector<WebhookEndpoint>& endpoints_of_its_organization,
                                 int64_t now_us) {
  std::vector<Delivery> deliveries;
  std::string body;  // made once, for the first endpoint that wants the event
  for (const WebhookEndpoint& endpoint : endpoints_of_its_organization) {
    if (endpoint.created_position >= event.position || !endpoint.Wants(event.type)) continue;
    if (body.empty()) body = DeliveryBody(event);
    deliveries.push_back(Delivery{.id = DeliveryId(endpoint.id, event.event_id),
                                  .endpoint_id = endpoint.id,
                                  .webhook_id = WebhookMessageId(endpoint.id, event.event_id),
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

AttemptVerdict AfterAttempt(Delivery& delivery, const SendOutcome& outcome, int64_t now_us,
                            double jitter) {
  delivery.attempts.push_back(DeliveryAttempt{
      .at_us = now_us,
      .status_code = outcome.status_code,
      .latency_ms = outcome.latency.count(),
      .error = Redirect(outcome.status_code) ? "redirects are not followed" : outcome.error});
  if (Success(outcome.status_code)) {
    delivery.state = DeliveryState::kSucceeded;
    delivery.next_attempt_us = 0;
    return {.next = AttemptVerdict::Next::kSucceeded};
  }
  if (outcome.status_code == 410) {
    return {.next = AttemptVerdict::Next::kDisableEndpoint,
            .disable_reason = "the endpoint answered 410 Gone"};
  }
  const bool asks_later = outcome.status_code == 429 || outcome.status_code == 503;
  const size_t failures = delivery.attempts.size() - delivery.round_start;
  const auto delay =
      NextRetryDelay(failures, jitter, asks_later ? outcome.retry_after : std::nullopt);
  if (!delay) {
    return {.next = AttemptVerdict::Next::kDisableEndpoint,
            .disable_reason = "every attempt of the retry schedule failed"};
  }
  delivery.next_attempt_us =
      now_us + std::chrono::duration_cast<std::chrono::microseconds>(*delay).count();
  return {.next = AttemptVerdict::Next::kRetry};
}

}  // namespace esign::webhooks
