// AuthFailureThrottle: how many failed client authentications the token endpoint accepts, per
// client id and per address (rate_limiter.h's AddressKey), before it refuses to check more.
//
// Each bucket holds `failures_per_minute` and refills at that many a minute. An attempt takes one
// from both buckets before its secret is checked, and gives both back when it succeeds (Forgive),
// so only failures count and attempts still being checked count already: a burst of concurrent
// guesses cannot run past the limit. An attempt refused here is not checked at all, even with the
// right secret, until the bucket refills (Retry-After says when).
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <string_view>

#include "http/rate_limiter.h"

namespace esign::http {

struct AuthFailureThrottleOptions {
  // Failed authentications per client id a minute (also the burst). 0 = no limit. Default: 10.
  double failures_per_client_per_minute = 10;
  // Failed authentications per address a minute (also the burst). 0 = no limit. Default: 30.
  double failures_per_address_per_minute = 30;
  // Client ids and addresses remembered each; the least recently seen are forgotten first.
  // Default: 100,000 (about 20 MB each at most).
  size_t max_keys = 100'000;
};

class AuthFailureThrottle {
 public:
  explicit AuthFailureThrottle(AuthFailureThrottleOptions options);

  // Whether an authentication of `client_id` from `remote_ip` may be checked now; when refused,
  // retry_after says when it may. A failed attempt keeps what it took; one that succeeded, or
  // was not checked after all, gives it back with Forgive.
  Admission Admit(std::string_view client_id, std::string_view remote_ip,
                  std::chrono::steady_clock::time_point now);
  void Forgive(std::string_view client_id, std::string_view remote_ip);

 private:
  RateLimiter clients_;
  RateLimiter addresses_;
};

}  // namespace esign::http
