#include "http/auth_failure_throttle.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

using namespace std::chrono_literals;

TEST(AuthFailureThrottleTest, FailuresPerClientIdAreCountedFromEveryAddress) {
  AuthFailureThrottle throttle(
      {.failures_per_client_per_minute = 3, .failures_per_address_per_minute = 100});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(throttle.Admit("cli_a", "192.0.2.1", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_a", "192.0.2.2", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_a", "192.0.2.3", t0).admitted);
  auto refused = throttle.Admit("cli_a", "192.0.2.4", t0);
  EXPECT_FALSE(refused.admitted);
  EXPECT_EQ(refused.retry_after, 20s);  // three a minute: one every 20 s
  EXPECT_TRUE(throttle.Admit("cli_b", "192.0.2.4", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_a", "192.0.2.4", t0 + 20s).admitted);
}

TEST(AuthFailureThrottleTest, FailuresPerAddressAreCountedForEveryClientId) {
  AuthFailureThrottle throttle(
      {.failures_per_client_per_minute = 100, .failures_per_address_per_minute = 2});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(throttle.Admit("cli_1", "2001:db8::1", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_2", "2001:db8::2", t0).admitted);  // the same /64
  EXPECT_FALSE(throttle.Admit("cli_3", "2001:db8::3", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_3", "192.0.2.9", t0).admitted);
}

TEST(AuthFailureThrottleTest, SuccessesAndRefusalsCountNothing) {
  AuthFailureThrottle throttle(
      {.failures_per_client_per_minute = 2, .failures_per_address_per_minute = 2});
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(throttle.Admit("cli_a", "192.0.2.1", t0).admitted);
    throttle.Forgive("cli_a", "192.0.2.1");
  }
  EXPECT_TRUE(throttle.Admit("cli_b", "192.0.2.1", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_b", "192.0.2.2", t0).admitted);
  // cli_b is throttled; refused attempts from 192.0.2.1 leave its address's bucket alone.
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(throttle.Admit("cli_b", "192.0.2.1", t0).admitted);
  EXPECT_TRUE(throttle.Admit("cli_c", "192.0.2.1", t0).admitted);
}

}  // namespace
}  // namespace esign::http
