// The hourly limits on e-mail: counting per organization and per address across organizations,
// the owner's address exempt from the second, decisions kept across a restart within the hour and
// forgotten at the next, and deliveries over a limit recorded failed, never queued.
#include "mail/mail_rate_limits.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "mail/outgoing_mail.h"
#include "tests/support/temp_dir.h"

namespace esign::mail {
namespace {

using R = MailLimitReason;

constexpr int64_t kHour = int64_t{3600} * 1000 * 1000;

MailToLimit To(const std::string& id, const std::string& organization, const std::string& address,
               bool owner = false) {
  return MailToLimit{
      .delivery_id = id, .organization_id = organization, .address = address, .owner = owner};
}

class MailRateLimitsTest : public ::testing::Test {
 protected:
  std::unique_ptr<MailRateLimiter> Open(MailLimits limits) {
    auto limiter = MailRateLimiter::Open(path_, limits, clock_);
    EXPECT_TRUE(limiter.has_value()) << limiter.error().message;
    return limiter ? std::move(*limiter) : nullptr;
  }
  std::vector<R> Decide(MailRateLimiter& limiter, const std::vector<MailToLimit>& mails) {
    auto reasons = limiter.Decide(mails);
    EXPECT_TRUE(reasons.has_value()) << reasons.error().message;
    return reasons ? *reasons : std::vector<R>{};
  }

  esign::testing::TempDir temp_;
  const std::string path_ = temp_.path() + "/mail-limits";
  ManualClock clock_{100 * kHour + 5};
};

TEST_F(MailRateLimitsTest, EachAddressIsCountedAcrossOrganizationsAndEachOrganizationAlone) {
  auto limiter = Open(MailLimits{.per_organization = 3, .per_recipient = 2});
  EXPECT_EQ(
      Decide(*limiter, {To("d1", "org_a", "x@example.com"), To("d2", "org_b", "x@example.com"),
                        To("d3", "org_c", "x@example.com")}),
      (std::vector<R>{R::kNone, R::kNone, R::kRecipient}));
  // org_a has 1; the owner's own address does not count against the address limit.
  EXPECT_EQ(Decide(*limiter,
                   {To("d4", "org_a", "y@example.com"), To("d5", "org_a", "owner@a.example", true),
                    To("d6", "org_a", "z@example.com")}),
            (std::vector<R>{R::kNone, R::kNone, R::kOrganization}));
  EXPECT_EQ(Decide(*limiter, {To("d7", "org_a", "owner@a.example", true)}),
            (std::vector<R>{R::kOrganization}));
  EXPECT_EQ(limiter->Suppressed(R::kRecipient), 1u);
  EXPECT_EQ(limiter->Suppressed(R::kOrganization), 2u);
  // A message decided before keeps its decision and is not counted again.
  EXPECT_EQ(
      Decide(*limiter, {To("d1", "org_a", "x@example.com"), To("d3", "org_c", "x@example.com")}),
      (std::vector<R>{R::kNone, R::kRecipient}));
  EXPECT_EQ(limiter->Suppressed(R::kRecipient), 1u);
}

TEST_F(MailRateLimitsTest, ARestartWithinTheHourGoesOnCountingAndTheNextHourStartsAfresh) {
  const MailLimits limits{.per_organization = 0, .per_recipient = 1};
  {
    auto limiter = Open(limits);
    EXPECT_EQ(
        Decide(*limiter, {To("d1", "org_a", "x@example.com"), To("d2", "org_a", "x@example.com")}),
        (std::vector<R>{R::kNone, R::kRecipient}));
  }
  auto again = Open(limits);
  EXPECT_EQ(again->Decided("d2"), R::kRecipient);
  EXPECT_EQ(again->Decided("d1"), R::kNone);
  EXPECT_EQ(Decide(*again, {To("d3", "org_b", "x@example.com")}), (std::vector<R>{R::kRecipient}));

  clock_.Advance(std::chrono::hours(1));
  EXPECT_FALSE(again->Decided("d2"));
  EXPECT_EQ(Decide(*again, {To("d4", "org_b", "x@example.com")}), (std::vector<R>{R::kNone}));
  auto next_hour = Open(limits);
  EXPECT_FALSE(next_hour->Decided("d1"));
  EXPECT_EQ(next_hour->Decided("d4"), R::kNone);
}

TEST_F(MailRateLimitsTest, NoLimitIsZero) {
  auto limiter = Open(MailLimits{.per_organization = 0, .per_recipient = 0});
  std::vector<MailToLimit> many;
  for (int i = 0; i < 500; ++i)
    many.push_back(To("d" + std::to_string(i), "org_a", "x@example.com"));
  EXPECT_EQ(Decide(*limiter, many), std::vector<R>(500, R::kNone));
}

TEST_F(MailRateLimitsTest, DeliveriesOverALimitAreRecordedFailedAndNotReturned) {
  auto records = delivery::DeliveryStore::Open(temp_.path(), "mail", /*outbox=*/true);
  ASSERT_TRUE(records.has_value()) << records.error().message;
  auto limiter = Open(MailLimits{.per_organization = 0, .per_recipient = 1});
  std::vector<delivery::Delivery> deliveries;
  for (const std::string event : {"evt_1", "evt_2"}) {
    deliveries.push_back(delivery::Delivery{
        .id = MailDeliveryId(event, "x@example.com"),
        .destination_id = MailLane("org_a", "X@example.com"),
        .event_id = event,
        .contract_id = "ctr_1",
        .position = event == "evt_1" ? 1u : 2u,
        .body =
            OutgoingMailToJson(OutgoingMail{.to = "X@example.com", .participant_id = "prt_1"})});
  }
  const std::string limited_id = deliveries[1].id;
  auto to_send = AdmitWithinLimits(**records, limiter.get(), deliveries, 77);
  ASSERT_TRUE(to_send.has_value()) << to_send.error().message;
  ASSERT_EQ(to_send->size(), 1u);
  EXPECT_EQ((*to_send)[0].id, deliveries[0].id);
  auto stored = (*records)->Get(limited_id);
  ASSERT_TRUE(stored.has_value() && stored->has_value());
  EXPECT_EQ((*stored)->state, delivery::DeliveryState::kFailed);
  ASSERT_EQ((*stored)->attempts.size(), 1u);
  EXPECT_EQ((*stored)->attempts[0].at_us, 77);
  EXPECT_TRUE((*stored)->attempts[0].error.starts_with("rate limited: "))
      << (*stored)->attempts[0].error;
  auto pending = (*records)->Pending();
  ASSERT_TRUE(pending.has_value());
  ASSERT_EQ(pending->size(), 1u);

  // Read again after a crash: the same decisions, nothing queued twice for the limited one.
  auto again = AdmitWithinLimits(**records, limiter.get(), deliveries, 78);
  ASSERT_TRUE(again.has_value());
  ASSERT_EQ(again->size(), 1u);
  EXPECT_EQ((*again)[0].id, deliveries[0].id);
  // A pending delivery whose decision was a limit (the crash came before its record) fails at
  // start instead of being sent.
  stored->value().state = delivery::DeliveryState::kPending;
  std::vector<delivery::Delivery> at_start{**stored};
  EXPECT_TRUE(WithinLimits(**records, limiter.get(), at_start, 79).empty());
}

}  // namespace
}  // namespace esign::mail
