// Per-client request rate limits: a token bucket per client id, refilled continuously. A request
// that finds its bucket empty is answered 429 RATE_LIMITED with Retry-After (whole seconds).
// Every decision also says what the RateLimit-Limit, -Remaining and -Reset headers report
// (draft-ietf-httpapi-ratelimit-headers): the bucket's size, the whole tokens left, and the
// seconds until the bucket is full again.
// Thread safety: Admit may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace esign::http {

struct RateLimitOptions {
  double requests_per_second = 0;  // sustained rate per client; 0 = no limit
  double burst = 0;                // bucket size; 0 = twice the rate
};

struct Admission {
  bool admitted = true;
  std::chrono::milliseconds retry_after{0};  // when refused: until the next token
  bool limited = false;                      // false when no limit is configured
  int64_t limit = 0;                         // requests a full bucket holds
  int64_t remaining = 0;                     // requests left now, this one taken
  int64_t reset_seconds = 0;                 // until the bucket is full again
};

class RateLimiter {
 public:
  explicit RateLimiter(RateLimitOptions options);

  // Takes one token of `client_id`'s bucket if there is one.
  Admission Admit(std::string_view client_id, std::chrono::steady_clock::time_point now);

 private:
  struct Bucket {
    double tokens;
    std::chrono::steady_clock::time_point refilled;
  };
  const double rate_;
  const double burst_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;  // guarded by mutex_
};

}  // namespace esign::http
