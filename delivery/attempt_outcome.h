// AttemptOutcome: what one attempt to deliver a message came to, in the terms of the delivery
// core (lanes, retry schedule, records), whatever the channel: a webhook's HTTP answer
// (webhook_outcome.h) or a mail server's reply (mail/smtp_transport.h). The core decides from
// `kind` alone; the code and the reply are recorded with the attempt for whoever reads the
// deliveries. Thread safety: a value.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace esign::delivery {

struct AttemptOutcome {
  enum class Kind {
    kDelivered,  // the receiver took it: the delivery succeeded
    kRetry,      // try again, by the retry schedule or after retry_after
    kRefused,    // the destination refuses for good: it is disabled, the delivery stays pending
    kFailed,     // the destination refuses this message for good (an SMTP 5xx): the delivery
                 // fails, the destination stays as it is
  };
  Kind kind = Kind::kRetry;
  // The channel's numeric answer (an HTTP status, an SMTP reply code); 0 when none came.
  int code = 0;
  // Why the attempt failed, short; empty when the code says it all.
  std::string reply;
  std::chrono::milliseconds latency{0};
  // kRetry: the wait the receiver asked for, which replaces the schedule's (retry_schedule.h).
  std::optional<std::chrono::seconds> retry_after;
  // kRefused: why, as the disabled destination records it.
  std::string refusal;
};

}  // namespace esign::delivery
