#include "http/rate_limiter.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

using namespace std::chrono_literals;

TEST(RateLimiterTest, AdmitsABurstThenRefillsAtTheRate) {
  RateLimiter limiter({.requests_per_second = 10, .burst = 3});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  auto refused = limiter.Admit("c", t0);
  ASSERT_FALSE(refused.admitted);
  EXPECT_EQ(refused.retry_after, 100ms);
  EXPECT_TRUE(limiter.Admit("c", t0 + 100ms).admitted);  // one token refilled
  EXPECT_FALSE(limiter.Admit("c", t0 + 100ms).admitted);
}

TEST(RateLimiterTest, ReportsLimitRemainingAndSecondsUntilFull) {
  RateLimiter limiter({.requests_per_second = 1, .burst = 3});
  const auto t0 = std::chrono::steady_clock::now();
  auto first = limiter.Admit("c", t0);
  EXPECT_TRUE(first.limited);
  EXPECT_EQ(first.limit, 3);
  EXPECT_EQ(first.remaining, 2);
  EXPECT_EQ(first.reset_seconds, 1);
  limiter.Admit("c", t0);
  auto last = limiter.Admit("c", t0);
  EXPECT_EQ(last.remaining, 0);
  EXPECT_EQ(last.reset_seconds, 3);
  auto refused = limiter.Admit("c", t0 + 500ms);
  EXPECT_FALSE(refused.admitted);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.reset_seconds, 3);  // 2.5 s, rounded up
  EXPECT_EQ(refused.retry_after, 500ms);
}

TEST(RateLimiterTest, ClientsHaveTheirOwnBuckets) {
  RateLimiter limiter({.requests_per_second = 1, .burst = 1});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(limiter.Admit("a", t0).admitted);
  EXPECT_FALSE(limiter.Admit("a", t0).admitted);
  EXPECT_TRUE(limiter.Admit("b", t0).admitted);
}

TEST(RateLimiterTest, ZeroRateMeansNoLimit) {
  RateLimiter limiter({});
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10000; ++i) {
    auto admission = limiter.Admit("a", t0);
    ASSERT_TRUE(admission.admitted);
    ASSERT_FALSE(admission.limited);
  }
}

}  // namespace
}  // namespace esign::http
