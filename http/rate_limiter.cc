#include "http/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace esign::http {

RateLimiter::RateLimiter(RateLimitOptions options)
    : rate_(options.requests_per_second),
      burst_(options.burst > 0 ? options.burst : 2 * options.requests_per_second) {}

Admission RateLimiter::Admit(std::string_view client_id,
                             std::chrono::steady_clock::time_point now) {
  Admission admission;
  if (rate_ <= 0) return admission;
  std::lock_guard lock(mutex_);
  auto [it, inserted] = buckets_.try_emplace(std::string(client_id), Bucket{burst_, now});
  Bucket& bucket = it->second;
  const double elapsed = std::chrono::duration<double>(now - bucket.refilled).count();
  bucket.tokens = std::min(burst_, bucket.tokens + std::max(0.0, elapsed) * rate_);
  bucket.refilled = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
  } else {
    admission.admitted = false;
    const double wait_seconds = (1 - bucket.tokens) / rate_;
    admission.retry_after =
        std::chrono::milliseconds(static_cast<int64_t>(std::ceil(wait_seconds * 1000)));
  }
  admission.limited = true;
  admission.limit = static_cast<int64_t>(std::floor(burst_));
  admission.remaining = static_cast<int64_t>(std::floor(bucket.tokens));
  admission.reset_seconds = static_cast<int64_t>(std::ceil((burst_ - bucket.tokens) / rate_));
  return admission;
}

}  // namespace esign::http
