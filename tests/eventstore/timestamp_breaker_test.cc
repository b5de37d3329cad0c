// TimestampBreaker on a clock that moves only when told, and the ledger's SignTreeHead with a
// timestamper that blocks: the head is the newest before the authority answers, and other callers
// take it meanwhile instead of waiting (no timing: the blocked timestamper waits for them).
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "eventstore/memory_event_store.h"
#include "eventstore/tree_head_timestamp.h"
#include "tests/eventstore/store_test_support.h"

namespace esign::eventstore {
namespace {

using std::chrono::seconds;
using testing::Event;

constexpr int64_t kStart = 1'800'000'000'000'000;

TEST(TimestampBreakerTest, ThreeFailuresInARowPauseAskingForTheConfiguredTime) {
  ManualClock clock(kStart);
  TimestampBreaker breaker(clock, {.failures_to_open = 3, .pause = seconds(60)});
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(breaker.Allow());
    EXPECT_FALSE(breaker.Record(false));
  }
  // A success in between starts the count again.
  ASSERT_TRUE(breaker.Allow());
  EXPECT_FALSE(breaker.Record(true));
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(breaker.Allow());
    EXPECT_FALSE(breaker.Record(false));
  }
  ASSERT_TRUE(breaker.Allow());
  EXPECT_TRUE(breaker.Record(false));  // the third in a row opens it
  EXPECT_FALSE(breaker.Allow());
  clock.Advance(seconds(59));
  EXPECT_FALSE(breaker.Allow());
  clock.Advance(seconds(1));
  // The pause over: one asks, the others do not while it waits.
  EXPECT_TRUE(breaker.Allow());
  EXPECT_FALSE(breaker.Allow());
  EXPECT_TRUE(breaker.Record(false));  // failed again: another whole pause
  EXPECT_FALSE(breaker.Allow());
  clock.Advance(seconds(60));
  EXPECT_TRUE(breaker.Allow());
  EXPECT_FALSE(breaker.Record(true));  // answered: closed
  EXPECT_TRUE(breaker.Allow());
  EXPECT_TRUE(breaker.Allow());
}

TEST(TimestampBreakerTest, AFailureOfAnAskingStartedBeforeItOpenedDoesNotProlongThePause) {
  ManualClock clock(kStart);
  TimestampBreaker breaker(clock, {.failures_to_open = 1, .pause = seconds(60)});
  ASSERT_TRUE(breaker.Allow());
  ASSERT_TRUE(breaker.Allow());  // two ask at once
  EXPECT_TRUE(breaker.Record(false));
  clock.Advance(seconds(30));
  EXPECT_FALSE(breaker.Record(false));
  clock.Advance(seconds(30));
  EXPECT_TRUE(breaker.Allow());
}

// The timestamper of the first SignTreeHead blocks until a second caller has had its head: with
// the ledger's lock held while it waits (as before), the second caller would wait for it and the
// test would never end; the future's wait bounds that to a failure instead.
TEST(MerkleLedgerTimestampTest, OtherCallersTakeTheNewHeadWhileItIsBeingTimestamped) {
  ManualClock clock(kStart);
  auto store = MemoryEventStore::Create(&clock);
  ASSERT_TRUE(store);
  Ledger& ledger = (*store)->ledger();
  std::promise<void> second_done;
  std::shared_future<void> released = second_done.get_future().share();
  std::atomic<int> asked{0};
  std::atomic<bool> second_in_time{false};
  ledger.SetTimestamper([&](const SignedTreeHead&) {
    ++asked;
    second_in_time = released.wait_for(seconds(30)) == std::future_status::ready;
    return std::string("token");
  });
  ASSERT_TRUE((*store)->Append("s", ExpectedVersion::NoStream(), {Event("evt_1")}));
  std::future<Result<SignedTreeHead>> first =
      std::async(std::launch::async, [&] { return ledger.SignTreeHead(); });
  while (asked.load() == 0) std::this_thread::yield();

  // The head is already stored and the newest, without its token yet.
  Result<SignedTreeHead> meanwhile = ledger.SignTreeHead();
  ASSERT_TRUE(meanwhile) << meanwhile.error().message;
  EXPECT_EQ(meanwhile->size, 1u);
  EXPECT_TRUE(meanwhile->timestamp_token.empty());
  ASSERT_TRUE(ledger.NewestTreeHead());
  second_done.set_value();

  Result<SignedTreeHead> stamped = first.get();
  EXPECT_TRUE(second_in_time);
  ASSERT_TRUE(stamped);
  EXPECT_EQ(stamped->timestamp_token, "token");
  EXPECT_EQ(asked.load(), 1);
  // Stored again with its token, in place: one head of size 1.
  EXPECT_EQ(ledger.NewestTreeHead()->timestamp_token, "token");
  auto heads = ledger.TreeHeads();
  ASSERT_TRUE(heads);
  ASSERT_EQ(heads->size(), 1u);
  EXPECT_EQ(heads->front().timestamp_token, "token");
}

}  // namespace
}  // namespace esign::eventstore
