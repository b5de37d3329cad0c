#include "eventstore/subscription.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/eventstore/store_test_support.h"

namespace esign::eventstore {
namespace {

using namespace std::chrono_literals;
using testing::Events;

template <class Harness>
class SubscriptionTest : public testing::OpenStoreTest<Harness> {
 protected:
  void AppendMany(const std::string& prefix, int appends) {
    for (int i = 0; i < appends; ++i) {
      ASSERT_TRUE(this->store_->Append(prefix + std::to_string(i % 7), ExpectedVersion::Any(),
                                       Events(prefix + std::to_string(i), 1 + i % 3)));
    }
  }

  // Collects what a handler sees.
  struct Seen {
    std::mutex mutex;
    std::vector<uint64_t> positions;
    CatchUpSubscription::Handler Handler() {
      return [this](const EventRecord& record) -> Status {
        std::lock_guard lock(mutex);
        positions.push_back(record.position.value());
        return {};
      };
    }
    std::vector<uint64_t> Snapshot() {
      std::lock_guard lock(mutex);
      return positions;
    }
  };
};

TYPED_TEST_SUITE(SubscriptionTest, testing::StoreHarnesses, testing::HarnessNames);

TYPED_TEST(SubscriptionTest, CatchesUpThenFollowsLiveAppends) {
  this->AppendMany("old", 40);
  const uint64_t stored = this->store_->Size();
  typename TestFixture::Seen seen;
  CatchUpSubscription subscription(*this->store_, GlobalPosition(0), seen.Handler(),
                                   SubscriptionOptions{.batch_size = 16});
  subscription.Start();
  ASSERT_TRUE(subscription.WaitForPosition(GlobalPosition(stored), 10s));

  std::thread writer([&] { this->AppendMany("live", 30); });
  writer.join();
  const uint64_t total = this->store_->Size();
  ASSERT_TRUE(subscription.WaitForPosition(GlobalPosition(total), 10s));
  subscription.Stop();
  EXPECT_TRUE(subscription.status());
  EXPECT_FALSE(subscription.running());

  const std::vector<uint64_t> positions = seen.Snapshot();
  ASSERT_EQ(positions.size(), total);
  for (uint64_t i = 0; i < total; ++i) EXPECT_EQ(positions[i], i);
}

TYPED_TEST(SubscriptionTest, StartsAtTheGivenPosition) {
  this->AppendMany("e", 10);
  typename TestFixture::Seen seen;
  CatchUpSubscription subscription(*this->store_, GlobalPosition(5), seen.Handler());
  subscription.Start();
  ASSERT_TRUE(subscription.WaitForPosition(GlobalPosition(this->store_->Size()), 10s));
  subscription.Stop();
  const std::vector<uint64_t> positions = seen.Snapshot();
  ASSERT_FALSE(positions.empty());
  EXPECT_EQ(positions.front(), 5u);
  EXPECT_EQ(positions.back(), this->store_->Size() - 1);
}

TYPED_TEST(SubscriptionTest, IsWokenByAnAppendWhileIdle) {
  typename TestFixture::Seen seen;
  // A long stop latency: only the append can explain a prompt delivery.
  CatchUpSubscription subscription(*this->store_, GlobalPosition(0), seen.Handler(),
                                   SubscriptionOptions{.idle_wait = 5s});
  subscription.Start();
  std::this_thread::sleep_for(30ms);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(this->store_->Append("s", ExpectedVersion::Any(), Events("e", 1)));
  ASSERT_TRUE(subscription.WaitForPosition(GlobalPosition(1), 10s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  // Close wakes the sleeping subscription so Stop does not wait out the latency.
  this->store_->Close();
  subscription.Stop();
}

TYPED_TEST(SubscriptionTest, StopsPromptlyWhenIdle) {
  typename TestFixture::Seen seen;
  CatchUpSubscription subscription(*this->store_, GlobalPosition(0), seen.Handler());
  subscription.Start();
  std::this_thread::sleep_for(20ms);
  const auto start = std::chrono::steady_clock::now();
  subscription.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  EXPECT_FALSE(subscription.running());
  subscription.Stop();  // idempotent
}

TYPED_TEST(SubscriptionTest, AHandlerErrorStopsTheSubscriptionAndIsReported) {
  this->AppendMany("e", 20);
  std::vector<uint64_t> handled;
  CatchUpSubscription subscription(*this->store_, GlobalPosition(0),
                                   [&](const EventRecord& record) -> Status {
                                     if (record.position == GlobalPosition(10))
                                       return Fail(ErrorCode::kInternal, "boom");
                                     handled.push_back(record.position.value());
                                     return {};
                                   });
  subscription.Start();
  EXPECT_FALSE(subscription.WaitForPosition(GlobalPosition(this->store_->Size()), 10s));
  EXPECT_FALSE(subscription.running());
  ASSERT_FALSE(subscription.status());
  EXPECT_EQ(subscription.status().error().message, "boom");
  EXPECT_EQ(subscription.position(), GlobalPosition(10));
  subscription.Stop();
  EXPECT_EQ(handled.size(), 10u);
}

TYPED_TEST(SubscriptionTest, ABatchHandlerSaysWhereToReadNext) {
  this->AppendMany("e", 20);
  const uint64_t total = this->store_->Size();
  std::mutex mutex;
  std::vector<uint64_t> handled;  // positions, as handled
  bool went_back = false;
  CatchUpSubscription subscription(
      *this->store_, GlobalPosition(0),
      CatchUpSubscription::BatchHandler(
          [&](const std::vector<EventRecord>& batch,
              const std::stop_token& /*stop*/) -> Result<GlobalPosition> {
            std::lock_guard lock(mutex);
            // Takes one event of each batch; once, at position 5, goes back to 2.
            const uint64_t first = batch.front().position.value();
            if (first == 5 && !went_back) {
              went_back = true;
              return GlobalPosition(2);
            }
            handled.push_back(first);
            return GlobalPosition(first + 1);
          }),
      SubscriptionOptions{.batch_size = 4});
  subscription.Start();
  ASSERT_TRUE(subscription.WaitForPosition(GlobalPosition(total), 10s));
  subscription.Stop();
  std::lock_guard lock(mutex);
  std::vector<uint64_t> expected = {0, 1, 2, 3, 4, 2, 3, 4};
  for (uint64_t p = 5; p < total; ++p) expected.push_back(p);
  EXPECT_EQ(handled, expected);
}

TYPED_TEST(SubscriptionTest, AClosedStoreLeavesItIdleUntilStoppedAndRewindReadsAgain) {
  this->AppendMany("e", 5);
  const uint64_t total = this->store_->Size();
  typename TestFixture::Seen seen;
  CatchUpSubscription subscription(*this->store_, GlobalPosition(0), seen.Handler(),
                                   SubscriptionOptions{.idle_wait = 60s});
  subscription.Start();
  ASSERT_TRUE(subscription.WaitForPosition(GlobalPosition(total), 10s));
  // Idle: a rewind wakes it without an append.
  subscription.Rewind(GlobalPosition(total - 2));
  const auto start = std::chrono::steady_clock::now();
  while (seen.Snapshot().size() < total + 2 && std::chrono::steady_clock::now() - start < 10s) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(seen.Snapshot().size(), total + 2);
  this->store_->Close();
  std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(subscription.running());
  EXPECT_TRUE(subscription.status());
  const auto stopping = std::chrono::steady_clock::now();
  subscription.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 1s);
  EXPECT_FALSE(subscription.running());
}

}  // namespace
}  // namespace esign::eventstore
