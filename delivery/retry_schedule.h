// When a failed delivery is tried again: Standard Webhooks' example schedule, about three days in
// all. Attempt 1 is immediate; after the n-th failure the next attempt waits kDelays[n-1] (5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), with up to 10 % of jitter either way so that
// retries of many deliveries spread out. A Retry-After of the receiver (429, 503) replaces the
// schedule's wait, longer (up to 24 h) or shorter (down to the schedule's previous step: 0 after
// the first failure, 5 s after the second, ...). After the tenth failure there is no next attempt:
// the endpoint is disabled and keeps its undelivered events. Thread safety: pure functions.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>

namespace esign::delivery {

inline constexpr std::array<std::chrono::seconds, 9> kRetryDelays = {
    std::chrono::seconds(5), std::chrono::minutes(5), std::chrono::minutes(30),
    std::chrono::hours(2),   std::chrono::hours(5),   std::chrono::hours(10),
    std::chrono::hours(14),  std::chrono::hours(20),  std::chrono::hours(24)};

// The wait before the attempt that follows `failures` failed attempts (1 = after the first);
// nothing once the schedule is exhausted. `jitter` in [-1, 1] scales the 10 % spread.
std::optional<std::chrono::milliseconds> NextRetryDelay(
    size_t failures, double jitter, std::optional<std::chrono::seconds> retry_after = {});

}  // namespace esign::delivery
