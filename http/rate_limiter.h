// Per-client request rate limits: a token bucket per client id, refilled continuously. A request
// that finds its bucket empty is answered 429 RATE_LIMITED with Retry-After (whole seconds).
// Thread safety: Admit may be called from any thread.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace esign::http {

struct RateLimitOptions {
  double requests_per_second = 0;  // sustained rate per client; 0 = no limit
  double burst = 0;                // bucket size; 0 = twice the rate
};

class RateLimiter {
 public:
  explicit RateLimiter(RateLimitOptions options);

  // Takes one token of `client_id`'s bucket: nothing when admitted, else how long until a token.
  std::optional<std::chrono::milliseconds> Admit(std::string_view client_id,
                                                 std::chrono::steady_clock::time_point now);

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
