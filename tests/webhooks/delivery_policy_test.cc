// The dispatcher's rules without Kafka or a receiver: which endpoints an event is routed to, and
// what an attempt's outcome does to its delivery (recorded, succeeded, retried when, or the
// endpoint disabled).
#include "webhooks/delivery_policy.h"

#include <gtest/gtest.h>

#include "delivery/retry_schedule.h"
#include "webhooks/webhook_outcome.h"

namespace esign::webhooks {
namespace {

using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr int64_t kNow = 1'800'000'000'000'000;

LifecycleEvent Sent(uint64_t position) {
  return LifecycleEvent{.event_id = "evt_9",
                        .type = "contract.sent",
                        .position = position,
                        .stream_version = 2,
                        .contract_id = "ctr_1",
                        .time = "2026-11-21T08:00:00.000000Z",
                        .organization_id = "org_a"};
}

WebhookEndpoint Endpoint(const std::string& id, uint64_t created_position,
                         std::vector<std::string> event_types = {"contract.sent"}) {
  return WebhookEndpoint{.id = id,
                         .organization_id = "org_a",
                         .url = "https://h.example/" + id,
                         .event_types = std::move(event_types),
                         .created_position = created_position,
                         .version = 1};
}

TEST(RouteEventTest, EndpointsCreatedBeforeTheEventThatWantItsTypeGetOneDeliveryEach) {
  WebhookEndpoint disabled = Endpoint("whe_disabled", 3);
  disabled.enabled = false;
  const std::vector<WebhookEndpoint> endpoints = {
      Endpoint("whe_a", 1),
      Endpoint("whe_other_type", 2, {"contract.completed"}),
      disabled,
      Endpoint("whe_at", 41),     // created by the event's own position: not before it
      Endpoint("whe_after", 50),  // created after the event
      Endpoint("whe_b", 40, {"contract.created", "contract.sent"}),
  };
  const LifecycleEvent event = Sent(41);
  const std::vector<delivery::Delivery> deliveries = RouteEvent(event, endpoints, kNow);

  ASSERT_EQ(deliveries.size(), 3u);
  EXPECT_EQ(deliveries[0].destination_id, "whe_a");
  EXPECT_EQ(deliveries[1].destination_id, "whe_disabled");  // keeps it for when it is enabled
  EXPECT_EQ(deliveries[2].destination_id, "whe_b");
  for (const delivery::Delivery& d : deliveries) {
    EXPECT_EQ(d.id, DeliveryId(d.destination_id, "evt_9"));
    EXPECT_EQ(d.webhook_id, WebhookMessageId(d.destination_id, "evt_9"));
    EXPECT_EQ(d.event_id, "evt_9");
    EXPECT_EQ(d.event_type, "contract.sent");
    EXPECT_EQ(d.contract_id, "ctr_1");
    EXPECT_EQ(d.position, 41u);
    EXPECT_EQ(d.state, delivery::DeliveryState::kPending);
    EXPECT_TRUE(d.attempts.empty());
    EXPECT_EQ(d.next_attempt_us, kNow);  // due at once
    EXPECT_EQ(d.created_us, kNow);
    EXPECT_EQ(d.body, DeliveryBody(event));  // one body for every endpoint
  }
}

TEST(RouteEventTest, NoEndpointThatWantsTheEventNoDelivery) {
  EXPECT_TRUE(RouteEvent(Sent(41), {}, kNow).empty());
  EXPECT_TRUE(RouteEvent(Sent(41), {Endpoint("whe_a", 1, {"signer.declined"})}, kNow).empty());
  EXPECT_TRUE(RouteEvent(Sent(1), {Endpoint("whe_a", 1)}, kNow).empty());
}

delivery::Delivery Pending() {
  return RouteEvent(Sent(41), {Endpoint("whe_a", 1)}, kNow - 1'000'000).front();
}

// An HTTP answer, as the webhook channel hands it to the core (webhook_outcome.h).
delivery::AttemptOutcome Answered(int status, std::optional<seconds> retry_after = std::nullopt) {
  return WebhookAttemptOutcome(
      SendOutcome{.status_code = status, .latency = milliseconds(12), .retry_after = retry_after});
}

int64_t After(std::chrono::milliseconds delay) {
  return kNow + std::chrono::duration_cast<microseconds>(delay).count();
}

TEST(AfterAttemptTest, A2xxSucceedsAndIsRecorded) {
  delivery::Delivery delivery = Pending();
  const delivery::AttemptVerdict verdict =
      delivery::AfterAttempt(delivery, Answered(204), kNow, 0.0);
  EXPECT_EQ(verdict.next, delivery::AttemptVerdict::Next::kSucceeded);
  EXPECT_EQ(delivery.state, delivery::DeliveryState::kSucceeded);
  EXPECT_EQ(delivery.next_attempt_us, 0);
  ASSERT_EQ(delivery.attempts.size(), 1u);
  EXPECT_EQ(delivery.attempts[0],
            (delivery::DeliveryAttempt{.at_us = kNow, .code = 204, .latency_ms = 12, .error = ""}));
}

TEST(AfterAttemptTest, A410DisablesTheEndpointAndLeavesTheDeliveryPending) {
  delivery::Delivery delivery = Pending();
  const delivery::AttemptVerdict verdict =
      delivery::AfterAttempt(delivery, Answered(410), kNow, 0.0);
  EXPECT_EQ(verdict.next, delivery::AttemptVerdict::Next::kDisableEndpoint);
  EXPECT_EQ(verdict.disable_reason, "the endpoint answered 410 Gone");
  EXPECT_EQ(delivery.state, delivery::DeliveryState::kPending);
  EXPECT_EQ(delivery.next_attempt_us, kNow - 1'000'000);  // as it was: due when enabled again
  ASSERT_EQ(delivery.attempts.size(), 1u);
  EXPECT_EQ(delivery.attempts[0].code, 410);
}

TEST(AfterAttemptTest, A500FollowsTheScheduleWithItsJitter) {
  delivery::Delivery delivery = Pending();
  EXPECT_EQ(delivery::AfterAttempt(delivery, Answered(500), kNow, 0.0).next,
            delivery::AttemptVerdict::Next::kRetry);
  EXPECT_EQ(delivery.next_attempt_us, After(seconds(5)));
  EXPECT_EQ(delivery::AfterAttempt(delivery, Answered(500), kNow, 1.0).next,
            delivery::AttemptVerdict::Next::kRetry);
  EXPECT_EQ(delivery.next_attempt_us, After(milliseconds(minutes(5)) * 11 / 10));
  EXPECT_EQ(delivery.state, delivery::DeliveryState::kPending);
  // A Retry-After is only the receiver's to give with a 429 or 503.
  EXPECT_EQ(delivery::AfterAttempt(delivery, Answered(500, hours(20)), kNow, 0.0).next,
            delivery::AttemptVerdict::Next::kRetry);
  EXPECT_EQ(delivery.next_attempt_us, After(minutes(30)));
}

TEST(AfterAttemptTest, A429Or503WaitsAsAskedButNeverShorterThanTheSchedulesStepBefore) {
  for (const int status : {429, 503}) {
    SCOPED_TRACE(status);
    delivery::Delivery delivery = Pending();
    // First failure: the receiver's wait, longer than the schedule's 5 s.
    EXPECT_EQ(delivery::AfterAttempt(delivery, Answered(status, seconds(120)), kNow, 0.5).next,
              delivery::AttemptVerdict::Next::kRetry);
    EXPECT_EQ(delivery.next_attempt_us, After(seconds(120)));
    // Second failure: 1 s asked, the step before (5 s) given.
    delivery::AfterAttempt(delivery, Answered(status, seconds(1)), kNow, 0.0);
    EXPECT_EQ(delivery.next_attempt_us, After(seconds(5)));
    // Third failure: 10 min asked, shorter than the schedule's 30 min but above its 5 min step.
    delivery::AfterAttempt(delivery, Answered(status, minutes(10)), kNow, 0.0);
    EXPECT_EQ(delivery.next_attempt_us, After(minutes(10)));
    // Without Retry-After: the schedule (fourth failure: 2 h).
    delivery::AfterAttempt(delivery, Answered(status), kNow, 0.0);
    EXPECT_EQ(delivery.next_attempt_us, After(hours(2)));
    EXPECT_EQ(delivery.attempts.size(), 4u);
    EXPECT_EQ(delivery.attempts.back().code, status);
  }
}

TEST(AfterAttemptTest, TheScheduleRunningOutDisablesTheEndpoint) {
  delivery::Delivery delivery = Pending();
  for (size_t failure = 1; failure <= delivery::kRetryDelays.size(); ++failure) {
    ASSERT_EQ(delivery::AfterAttempt(delivery, Answered(500), kNow, 0.0).next,
              delivery::AttemptVerdict::Next::kRetry)
        << failure;
  }
  const int64_t due = delivery.next_attempt_us;
  const delivery::AttemptVerdict last =
      delivery::AfterAttempt(delivery, Answered(503, seconds(1)), kNow, 0.0);
  EXPECT_EQ(last.next, delivery::AttemptVerdict::Next::kDisableEndpoint);
  EXPECT_EQ(last.disable_reason, "every attempt of the retry schedule failed");
  EXPECT_EQ(delivery.next_attempt_us, due);
  EXPECT_EQ(delivery.state, delivery::DeliveryState::kPending);
  EXPECT_EQ(delivery.attempts.size(), delivery::kRetryDelays.size() + 1);

  // A new round (re-enabled, or retried by hand) starts the schedule again.
  delivery.round_start = delivery.attempts.size();
  EXPECT_EQ(delivery::AfterAttempt(delivery, Answered(500), kNow, 0.0).next,
            delivery::AttemptVerdict::Next::kRetry);
  EXPECT_EQ(delivery.next_attempt_us, After(seconds(5)));
}

TEST(AfterAttemptTest, EveryAttemptIsRecordedWithItsStatusLatencyAndError) {
  delivery::Delivery delivery = Pending();
  delivery::AfterAttempt(delivery,
                         WebhookAttemptOutcome(SendOutcome{
                             .status_code = 302, .error = "", .latency = milliseconds(7)}),
                         kNow, 0.0);
  delivery::AfterAttempt(
      delivery,
      WebhookAttemptOutcome(SendOutcome{
          .status_code = 0, .error = "connect timed out", .latency = milliseconds(5000)}),
      kNow + 1, 0.0);
  delivery::AfterAttempt(delivery, Answered(500), kNow + 2, 0.0);
  ASSERT_EQ(delivery.attempts.size(), 3u);
  EXPECT_EQ(
      delivery.attempts[0],
      (delivery::DeliveryAttempt{
          .at_us = kNow, .code = 302, .latency_ms = 7, .error = "redirects are not followed"}));
  EXPECT_EQ(delivery.attempts[1],
            (delivery::DeliveryAttempt{
                .at_us = kNow + 1, .code = 0, .latency_ms = 5000, .error = "connect timed out"}));
  EXPECT_EQ(delivery.attempts[2],
            (delivery::DeliveryAttempt{.at_us = kNow + 2, .code = 500, .latency_ms = 12}));
  EXPECT_EQ(delivery.state, delivery::DeliveryState::kPending);
}

}  // namespace
}  // namespace esign::webhooks
