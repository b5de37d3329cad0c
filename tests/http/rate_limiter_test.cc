#include "http/rate_limiter.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

using namespace std::chrono_literals;

TEST(RateLimiterTest, AdmitsABurstThenRefillsAtTheRate) {
  RateLimiter limiter({.requests_per_second = 10, .burst = 3});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(limiter.Admit("c", t0));
  EXPECT_FALSE(limiter.Admit("c", t0));
  EXPECT_FALSE(limiter.Admit("c", t0));
  auto wait = limiter.Admit("c", t0);
  ASSERT_TRUE(wait);
  EXPECT_EQ(*wait, 100ms);
  EXPECT_FALSE(limiter.Admit("c", t0 + 100ms));  // one token refilled
  EXPECT_TRUE(limiter.Admit("c", t0 + 100ms));
}

TEST(RateLimiterTest, ClientsHaveTheirOwnBuckets) {
  RateLimiter limiter({.requests_per_second = 1, .burst = 1});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(limiter.Admit("a", t0));
  EXPECT_TRUE(limiter.Admit("a", t0));
  EXPECT_FALSE(limiter.Admit("b", t0));
}

TEST(RateLimiterTest, ZeroRateMeansNoLimit) {
  RateLimiter limiter({});
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10000; ++i) ASSERT_FALSE(limiter.Admit("a", t0));
}

}  // namespace
}  // namespace esign::http
