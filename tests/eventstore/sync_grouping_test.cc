#include "eventstore/sync_grouping.h"

#include <gtest/gtest.h>

#include <chrono>

namespace esign::eventstore {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

TEST(SyncGroupingTest, AFreshSyncerWaitsForNothing) {
  const SyncGrouping grouping;
  EXPECT_EQ(grouping.target(), 0u);
  EXPECT_EQ(grouping.limit().count(), 0);
}

TEST(SyncGroupingTest, WaitsForEveryAppendUnansweredAtTheLastAnswer) {
  SyncGrouping grouping;
  grouping.Answered(64);
  EXPECT_EQ(grouping.target(), 64u);
  // A single caller: its own next append is the whole group.
  grouping.Answered(1);
  EXPECT_EQ(grouping.target(), 1u);
}

TEST(SyncGroupingTest, WaitsAtMostAboutOneRecentSync) {
  SyncGrouping grouping;
  grouping.Synced(microseconds(800));
  EXPECT_EQ(grouping.limit(), microseconds(800));
  // One slow sync moves the average by an eighth of the difference.
  grouping.Synced(microseconds(1600));
  EXPECT_EQ(grouping.limit(), microseconds(900));
  // A disk that stalls never makes a wait longer than 2 ms.
  for (int i = 0; i < 50; ++i) grouping.Synced(milliseconds(500));
  EXPECT_EQ(grouping.limit(), milliseconds(2));
}

}  // namespace
}  // namespace esign::eventstore
