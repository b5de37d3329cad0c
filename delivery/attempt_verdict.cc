#include "delivery/attempt_verdict.h"

#include <chrono>
#include <optional>

#include "delivery/retry_schedule.h"

namespace esign::delivery {

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

}  // namespace esign::delivery
