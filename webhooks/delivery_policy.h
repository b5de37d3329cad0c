// What the dispatcher decides about deliveries, pure: which endpoints a lifecycle event goes to,
// and what one attempt's outcome means for its delivery and its endpoint. The dispatcher
// (dispatcher.h) does the I/O around these (reads the directory, signs, sends, disables, stores,
// records); the rules live here, beside the retry schedule they use (retry_schedule.h), so they
// are tested without Kafka, a clock or a receiver.
//   routing  an endpoint of the organization that controls the contract, enabled or not, created
//            before the event (at a lower log position), that wants the event's type, gets one
//            pending delivery, due now; ids derived from endpoint and event (delivery_message.h).
//   attempt  channel-neutral (attempt_outcome.h): delivered succeeds; failed fails the delivery
//            alone; refused disables the
//            destination; a retry waits for the next attempt of the schedule (or as long as the
//            receiver asked, within the schedule's bounds), and disables the destination once
//            the schedule has none. What an HTTP answer means is the webhook channel's
//            (webhook_outcome.h: 2xx, 410, 429/503 with Retry-After).
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "webhooks/attempt_outcome.h"
#include "webhooks/delivery_message.h"
#include "webhooks/delivery_store.h"
#include "webhooks/endpoint.h"

namespace esign::webhooks {

// The deliveries the event causes among `endpoints_of_its_organization` (the endpoints of the
// organization that controls its contract), pending and due at `now_us`, in endpoint order; the
// body is made once and shared by all of them.
std::vector<Delivery> RouteEvent(const LifecycleEvent& event,
                                 const std::vector<WebhookEndpoint>& endpoints_of_its_organization,
                                 int64_t now_us);

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

}  // namespace esign::webhooks
