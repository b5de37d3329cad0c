// The webhook channel's mapping of HTTP answers to the delivery core's outcomes.
#include "webhooks/webhook_outcome.h"

#include <gtest/gtest.h>

namespace esign::webhooks {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Kind = delivery::AttemptOutcome::Kind;

delivery::AttemptOutcome Answered(int status, std::optional<seconds> retry_after = std::nullopt) {
  return WebhookAttemptOutcome(
      SendOutcome{.status_code = status, .latency = milliseconds(12), .retry_after = retry_after});
}

TEST(WebhookAttemptOutcomeTest, Any2xxIsDelivered) {
  for (int status : {200, 201, 202, 204, 299}) {
    const delivery::AttemptOutcome outcome = Answered(status);
    EXPECT_EQ(outcome.kind, Kind::kDelivered) << status;
    EXPECT_EQ(outcome.code, status);
    EXPECT_EQ(outcome.latency, milliseconds(12));
    EXPECT_EQ(outcome.reply, "");
  }
}

TEST(WebhookAttemptOutcomeTest, A410RefusesForGood) {
  const delivery::AttemptOutcome outcome = Answered(410);
  EXPECT_EQ(outcome.kind, Kind::kRefused);
  EXPECT_EQ(outcome.code, 410);
  EXPECT_EQ(outcome.refusal, "the endpoint answered 410 Gone");
  EXPECT_EQ(outcome.reply, "");  // recorded as the answer it was
}

TEST(WebhookAttemptOutcomeTest, Only429And503AskForTheirRetryAfter) {
  for (int status : {429, 503}) {
    const delivery::AttemptOutcome outcome = Answered(status, seconds(120));
    EXPECT_EQ(outcome.kind, Kind::kRetry) << status;
    EXPECT_EQ(outcome.retry_after, seconds(120)) << status;
  }
  for (int status : {400, 404, 500, 502}) {
    const delivery::AttemptOutcome outcome = Answered(status, seconds(120));
    EXPECT_EQ(outcome.kind, Kind::kRetry) << status;
    EXPECT_EQ(outcome.retry_after, std::nullopt) << status;
  }
  EXPECT_EQ(Answered(503).retry_after, std::nullopt);
}

TEST(WebhookAttemptOutcomeTest, ARedirectIsAFailureThatSaysWhy) {
  const delivery::AttemptOutcome outcome = Answered(302);
  EXPECT_EQ(outcome.kind, Kind::kRetry);
  EXPECT_EQ(outcome.code, 302);
  EXPECT_EQ(outcome.reply, "redirects are not followed");
}

TEST(WebhookAttemptOutcomeTest, NoAnswerIsTriedAgainWithTheSendersReason) {
  const delivery::AttemptOutcome outcome = WebhookAttemptOutcome(
      SendOutcome{.status_code = 0, .error = "connect timed out", .latency = milliseconds(5000)});
  EXPECT_EQ(outcome.kind, Kind::kRetry);
  EXPECT_EQ(outcome.code, 0);
  EXPECT_EQ(outcome.reply, "connect timed out");
  EXPECT_EQ(outcome.latency, milliseconds(5000));
}

}  // namespace
}  // namespace esign::webhooks
