// The webhook channel's reading of an HTTP answer (webhook_sender.h) as the delivery core's
// AttemptOutcome (attempt_outcome.h): 2xx is delivered; 410 Gone refuses for good (the endpoint
// is disabled); a 429 or 503 asks for its Retry-After; anything else, or no answer, is tried
// again by the schedule, a 3xx with "redirects are not followed" (redirects are never followed).
// Thread safety: a pure function.
#pragma once

#include "delivery/attempt_outcome.h"
#include "webhooks/webhook_sender.h"

namespace esign::webhooks {

delivery::AttemptOutcome WebhookAttemptOutcome(const SendOutcome& sent);

}  // namespace esign::webhooks
