#include "delivery/retry_schedule.h"

#include <algorithm>

namespace esign::delivery {

std::optional<std::chrono::milliseconds> NextRetryDelay(
    size_t failures, double jitter, std::optional<std::chrono::seconds> retry_after) {
  if (failures == 0 || failures > kRetryDelays.size()) return std::nullopt;
  const auto base =
      std::chrono::duration_cast<std::chrono::milliseconds>(kRetryDelays[failures - 1]);
  const double spread = 0.1 * std::clamp(jitter, -1.0, 1.0);
  auto delay = std::chrono::milliseconds(
      static_cast<int64_t>(static_cast<double>(base.count()) * (1.0 + spread)));
  if (retry_after) {
    // The receiver knows when it can take the delivery: its wait replaces the schedule's, longer
    // or shorter, but never shorter than the step before (so a receiver that keeps asking for
    // short waits still gets about two days of attempts before the endpoint is disabled).
    const auto floor =
        failures == 1
            ? std::chrono::milliseconds(0)
            : std::chrono::duration_cast<std::chrono::milliseconds>(kRetryDelays[failures - 2]);
    delay = std::clamp<std::chrono::milliseconds>(*retry_after, floor, std::chrono::hours(24));
  }
  return delay;
}

}  // namespace esign::delivery
