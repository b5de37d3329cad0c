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

TEST(RateLimiterTest, KeepsAtMostItsNumberOfKeysDroppingTheLeastRecentlyUsed) {
  RateLimiter limiter({.requests_per_second = 1, .burst = 1, .max_keys = 3});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(limiter.Admit("a", t0).admitted);
  for (int i = 0; i < 10000; ++i) limiter.Admit("k" + std::to_string(i), t0);
  EXPECT_EQ(limiter.keys(), 3u);
  // "a" was dropped: its bucket starts full again. A recently used key keeps its bucket.
  EXPECT_TRUE(limiter.Admit("a", t0).admitted);
  EXPECT_FALSE(limiter.Admit("a", t0).admitted);
  EXPECT_FALSE(limiter.Admit("k9999", t0).admitted);
}

TEST(RateLimiterTest, LongKeysShareNothingButTheirSize) {
  RateLimiter limiter({.requests_per_second = 1, .burst = 1});
  const auto t0 = std::chrono::steady_clock::now();
  const std::string long_a(100000, 'a');
  std::string long_b = long_a;
  long_b.back() = 'b';
  EXPECT_TRUE(limiter.Admit(long_a, t0).admitted);
  EXPECT_FALSE(limiter.Admit(long_a, t0).admitted);
  EXPECT_TRUE(limiter.Admit(long_b, t0).admitted);
}

TEST(RateLimiterTest, ARefundGivesBackOneTokenUpToTheBurst) {
  RateLimiter limiter({.requests_per_second = 1, .burst = 2});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  limiter.Refund("c");
  limiter.Refund("c");
  limiter.Refund("c");
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  EXPECT_TRUE(limiter.Admit("c", t0).admitted);
  EXPECT_FALSE(limiter.Admit("c", t0).admitted);
}

TEST(RateLimiterTest, AddressesAreKeyedByHostOrIpv6Network) {
  EXPECT_EQ(AddressKey("192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(AddressKey("::ffff:192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(AddressKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  EXPECT_EQ(AddressKey("2001:db8:1:2:ffff::1"), AddressKey("2001:db8:1:2::9"));
  EXPECT_NE(AddressKey("2001:db8:1:2::1"), AddressKey("2001:db8:1:3::1"));
  EXPECT_EQ(AddressKey("not an address"), "not an address");
}

}  // namespace
}  // namespace esign::http
