#include "projections/view_lag_gate.h"

namespace esign::projections {

void ViewLagGate::BeforeBatch(uint64_t log_size) const {
  // A read side that stopped, or waits for disk space, must not hold the log up as well.
  if (log_size <= max_lag_events_ || !projector_.running() || projector_.waiting_for_space()) {
    return;
  }
  static_cast<void>(projector_.WaitFor(log_size - max_lag_events_, max_wait_));
}

}  // namespace esign::projections
