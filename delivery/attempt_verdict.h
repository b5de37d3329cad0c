// What one attempt's outcome means for its delivery, pure and channel-neutral (attempt_outcome.h):
// delivered succeeds; failed fails the delivery alone; refused disables the destination; a retry
// waits for the next attempt of the schedule (retry_schedule.h; or as long as the receiver asked,
// within the schedule's bounds), and disables the destination once the schedule has none. What a
// channel's answer means is the channel's (webhooks/webhook_outcome.h: 2xx, 410, 429/503 with
// Retry-After; mail/smtp_transport.h). A channel without destinations to disable (an outbox)
// fails the delivery instead (log_outbox.h).
// Thread safety: a pure function.
#pragma once

#include <cstdint>
#include <string>

#include "delivery/attempt_outcome.h"
#include "delivery/delivery_store.h"

namespace esign::delivery {

struct AttemptVerdict {
  enum class Next {
    kSucceeded,        // state kSucceeded, nothing due
    kRetry,            // next_attempt_us set
    kDisableEndpoint,  // the delivery stays pending, as it was due; see disable_reason
    kFailed,           // state kFailed, nothing due: the destination refused this message
  };
  Next next = Next::kRetry;
  // kDisableEndpoint: why, as the endpoint records it ("the endpoint answered 410 Gone", "every
  // attempt of the retry schedule failed").
  std::string disable_reason;
};

// Records the attempt made at `now_us` on `delivery` (code, latency, reply) and applies its
// outcome: succeeded, or the next attempt scheduled, or nothing more for the disabled endpoint.
// Failures count from the delivery's round_start. `jitter` in [-1, 1] spreads the schedule's wait
// (retry_schedule.h).
AttemptVerdict AfterAttempt(Delivery& delivery, const AttemptOutcome& outcome, int64_t now_us,
                            double jitter);

}  // namespace esign::delivery
