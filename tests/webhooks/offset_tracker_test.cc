#include "webhooks/offset_tracker.h"

#include <gtest/gtest.h>

namespace esign::webhooks {
namespace {

using Committable = std::vector<std::pair<TopicPartition, int64_t>>;

const TopicPartition kEvents0{"contract-events", 0};
const TopicPartition kEvents1{"contract-events", 1};
const TopicPartition kRetries0{"webhook-retries", 0};

TEST(OffsetTrackerTest, APartitionCommitsUpToItsOldestUnsettledMessage) {
  OffsetTracker tracker;
  tracker.Consumed(kEvents0, 10, {});
  tracker.Consumed(kEvents0, 11, {"dlv_a", "dlv_b"});
  tracker.Consumed(kEvents0, 12, {"dlv_c"});
  tracker.Consumed(kEvents0, 13, {});
  EXPECT_EQ(tracker.TakeCommittable(), (Committable{{kEvents0, 11}}));
  EXPECT_TRUE(tracker.TakeCommittable().empty());  // nothing moved

  tracker.Settled("dlv_c");  // a later message settles first: 11 still holds
  EXPECT_TRUE(tracker.TakeCommittable().empty());
  tracker.Settled("dlv_a");
  EXPECT_TRUE(tracker.TakeCommittable().empty());  // dlv_b still pending
  tracker.Settled("dlv_b");
  EXPECT_EQ(tracker.TakeCommittable(), (Committable{{kEvents0, 14}}));
  tracker.Settled("dlv_b");  // twice is harmless
  EXPECT_TRUE(tracker.TakeCommittable().empty());
}

TEST(OffsetTrackerTest, ADeliveryHeldByTwoMessagesReleasesBoth) {
  OffsetTracker tracker;
  tracker.Consumed(kEvents0, 4, {"dlv_a"});
  tracker.Consumed(kRetries0, 7, {"dlv_a"});  // a retry request of the same delivery
  EXPECT_EQ(tracker.TakeCommittable(), (Committable{{kEvents0, 4}, {kRetries0, 7}}));
  tracker.Settled("dlv_a");
  EXPECT_EQ(tracker.TakeCommittable(), (Committable{{kEvents0, 5}, {kRetries0, 8}}));
}

TEST(OffsetTrackerTest, RevokingForgetsThePartitionsAndReleasesTheirDeliveries) {
  OffsetTracker tracker;
  tracker.Consumed(kEvents0, 1, {"dlv_a"});
  tracker.Consumed(kEvents1, 1, {"dlv_b"});
  tracker.Consumed(kEvents0, 2, {"dlv_c"});
  tracker.Consumed(kRetries0, 3, {"dlv_c"});
  (void)tracker.TakeCommittable();
  // dlv_c is still held by its retry request in a partition kept.
  EXPECT_EQ(tracker.Revoke({kEvents0}), (std::vector<std::string>{"dlv_a"}));
  tracker.Settled("dlv_c");
  EXPECT_EQ(tracker.TakeCommittable(), (Committable{{kRetries0, 4}}));
  // Assigned again later, it starts from what is read then.
  tracker.Consumed(kEvents0, 1, {});
  EXPECT_EQ(tracker.TakeCommittable(), (Committable{{kEvents0, 2}}));
}

}  // namespace
}  // namespace esign::webhooks
