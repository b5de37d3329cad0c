#include "http/rate_limiter.h"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <cmath>

#include "base/sha256.h"

namespace esign::http {
namespace {

constexpr size_t kMaxKeptKeyBytes = 64;

}  // namespace

RateLimiter::RateLimiter(RateLimitOptions options)
    : rate_(options.requests_per_second),
      burst_(options.burst > 0 ? options.burst : 2 * options.requests_per_second),
      max_keys_(std::max<size_t>(1, options.max_keys)) {}

std::string RateLimiter::KeptKey(std::string_view key) {
  if (key.size() <= kMaxKeptKeyBytes) return std::string(key);
  return Sha256Hex(key);
}

Admission RateLimiter::Admit(std::string_view key, std::chrono::steady_clock::time_point now) {
  Admission admission;
  if (rate_ <= 0) return admission;
  const std::string kept = KeptKey(key);
  std::lock_guard lock(mutex_);
  auto found = buckets_.find(kept);
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      buckets_.erase(recency_.back().key);
      recency_.pop_back();
    }
    recency_.push_front(Bucket{kept, burst_, now});
    found = buckets_.emplace(recency_.front().key, recency_.begin()).first;
  } else {
    recency_.splice(recency_.begin(), recency_, found->second);
  }
  Bucket& bucket = *found->second;
  const double elapsed = std::chrono::duration<double>(now - bucket.refilled).count();
  bucket.tokens = std::min(burst_, bucket.tokens + std::max(0.0, elapsed) * rate_);
  bucket.refilled = std::max(bucket.refilled, now);
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

void RateLimiter::Refund(std::string_view key) {
  if (rate_ <= 0) return;
  const std::string kept = KeptKey(key);
  std::lock_guard lock(mutex_);
  auto found = buckets_.find(kept);
  if (found == buckets_.end()) return;
  Bucket& bucket = *found->second;
  bucket.tokens = std::min(burst_, bucket.tokens + 1);
}

size_t RateLimiter::keys() const {
  std::lock_guard lock(mutex_);
  return buckets_.size();
}

std::string AddressKey(std::string_view remote_ip) {
  boost::system::error_code ec;
  auto address = boost::asio::ip::make_address(remote_ip, ec);
  if (ec) return std::string(remote_ip);
  if (address.is_v4()) return address.to_string();
  auto v6 = address.to_v6();
  if (v6.is_v4_mapped()) {
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
  }
  auto bytes = v6.to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

}  // namespace esign::http
