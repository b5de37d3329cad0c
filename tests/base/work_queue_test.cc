#include "base/work_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace esign {
namespace {

TEST(WorkQueueTest, RefusesAtOnceWhenItsQueueIsFullAndRunsTheRest) {
  std::atomic<int> ran{0};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> started;
  {
    WorkQueue queue(1, 2);
    // The one thread is held; two tasks wait; the next is refused.
    ASSERT_TRUE(queue.TryPost([&] {
      started.set_value();
      released.wait();
      ++ran;
    }));
    started.get_future().wait();
    EXPECT_TRUE(queue.TryPost([&] { ++ran; }));
    EXPECT_TRUE(queue.TryPost([&] { ++ran; }));
    EXPECT_EQ(queue.waiting(), 2u);
    bool refused_ran = false;
    EXPECT_FALSE(queue.TryPost([&] { refused_ran = true; }));
    release.set_value();
    // The destructor runs what is queued.
  }
  EXPECT_EQ(ran, 3);
}

TEST(WorkQueueTest, KnowsItsOwnThreads) {
  WorkQueue queue(1);
  WorkQueue other(1);
  EXPECT_FALSE(queue.OnQueueThread());
  std::promise<std::pair<bool, bool>> seen;
  ASSERT_TRUE(queue.TryPost([&] {
    seen.set_value({queue.OnQueueThread(), other.OnQueueThread()});
  }));
  EXPECT_EQ(seen.get_future().get(), std::make_pair(true, false));
}

}  // namespace
}  // namespace esign
