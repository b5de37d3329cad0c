#include "documents/render_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace esign::documents {
namespace {

TEST(RenderPoolTest, RunsOnAPoolThreadAndReturnsTheResult) {
  RenderPool pool(2);
  EXPECT_EQ(pool.threads(), 2u);
  const std::thread::id caller = std::this_thread::get_id();
  EXPECT_NE(pool.Run([] { return std::this_thread::get_id(); }), caller);
  EXPECT_EQ(pool.Run([] { return std::string("pdf"); }), "pdf");
}

TEST(RenderPoolTest, ARunFromAPoolThreadRunsInlineInsteadOfDeadlocking) {
  RenderPool pool(1);
  EXPECT_EQ(pool.Run([&] { return pool.Run([] { return 7; }) + 1; }), 8);
}

TEST(RenderPoolTest, ManyCallersQueueAndEachGetsItsOwnResult) {
  RenderPool pool(2);
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  std::vector<std::thread> callers;
  std::vector<int> results(64, -1);
  for (int i = 0; i < 64; ++i) {
    callers.emplace_back([&, i] {
      results[i] = pool.Run([&, i] {
        const int now = ++running;
        for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        --running;
        return i * i;
      });
    });
  }
  for (auto& caller : callers) caller.join();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(results[i], i * i);
  EXPECT_LE(most.load(), 2);  // never more tasks at once than threads
}

}  // namespace
}  // namespace esign::documents
