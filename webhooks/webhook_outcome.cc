#include "webhooks/webhook_outcome.h"

namespace esign::webhooks {

delivery::AttemptOutcome WebhookAttemptOutcome(const SendOutcome& sent) {
  delivery::AttemptOutcome outcome{
      .code = sent.status_code, .reply = sent.error, .latency = sent.latency};
  const int status = sent.status_code;
  if (status >= 200 && status < 300) {
    outcome.kind = delivery::AttemptOutcome::Kind::kDelivered;
  } else if (status == 410) {
    outcome.kind = delivery::AttemptOutcome::Kind::kRefused;
    outcome.refusal = "the endpoint answered 410 Gone";
  } else {
    outcome.kind = delivery::AttemptOutcome::Kind::kRetry;
    if (status >= 300 && status < 400) outcome.reply = "redirects are not followed";
    if (status == 429 || status == 503) outcome.retry_after = sent.retry_after;
  }
  return outcome;
}

}  // namespace esign::webhooks
