// Request rate limits: a token bucket per key (a client id, a signing link, an address), refilled
// continuously. A request that finds its bucket empty is answered 429 RATE_LIMITED with
// Retry-After (whole seconds). Every decision also says what the RateLimit-Limit, -Remaining and
// -Reset headers report (draft-ietf-httpapi-ratelimit-headers): the bucket's size, the whole
// tokens left, and the seconds until the bucket is full again.
//
// Memory is bounded whatever the keys: at most `max_keys` buckets are kept, the least recently
// used one is dropped for a new key (a dropped bucket starts full again when its key returns),
// and a key longer than 64 bytes is kept as its SHA-256, so one bucket costs about 200 bytes.
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace esign::http {

struct RateLimitOptions {
  double requests_per_second = 0;  // sustained rate per key; 0 = no limit
  double burst = 0;                // bucket size; 0 = twice the rate
  size_t max_keys = 100'000;       // buckets kept; the least recently used goes first
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

  // Takes one token of `key`'s bucket if there is one.
  Admission Admit(std::string_view key, std::chrono::steady_clock::time_point now);
  // Gives back the token an admitted request took (up to the bucket's size): for limits that
  // count only some outcomes, such as failed authentications.
  void Refund(std::string_view key);

  size_t keys() const;

 private:
  struct Bucket {
    std::string key;
    double tokens;
    std::chrono::steady_clock::time_point refilled;
  };
  using Recency = std::list<Bucket>;  // most recently used first

  static std::string KeptKey(std::string_view key);

  const double rate_;
  const double burst_;
  const size_t max_keys_;
  mutable std::mutex mutex_;
  Recency recency_;                                                  // guarded by mutex_
  std::unordered_map<std::string_view, Recency::iterator> buckets_;  // guarded by mutex_
};

// The part of a client's address that identifies it to a limit: an IPv4 address whole, an IPv6
// address by its /64 (one subscriber's network; a host has 2^64 addresses in it). IPv4-mapped
// IPv6 addresses count as their IPv4 address.
std::string AddressKey(std::string_view remote_ip);

}  // namespace esign::http
