#include "projections/view_lag_gate.h"

namespace esign::projections {

void ViewLagGate::BeforeBatch(uint64_t log_size) const {
  const auto deadline = std::chrono::steady_clock::now() + max_wait_;
  for (const Followed& followed : followed_) {
    const Projector& projector = *followed.projector;
    // A read side that stopped, or waits for disk space, must not hold the log up as well.
    if (log_size <= followed.max_lag_events || !projector.running() ||
        projector.waiting_for_space()) {
      continue;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left <= std::chrono::milliseconds(0)) return;
    static_cast<void>(projector.WaitFor(log_size - followed.max_lag_events, left));
  }
}

}  // namespace esign::projections
