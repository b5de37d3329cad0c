// Writes admitted at the rate the views follow: before each batch of appends, the event store's
// appender waits here until the projector is at most `max_lag_events` behind the log. A burst of
// writes then waits at the door, a little longer each, instead of being acknowledged faster than
// the views can apply it and leaving every reader (read-your-writes, lists, webhooks' intake)
// behind by as much as the burst outran them. The wait is bounded (`max_wait` per batch), and a
// read side that has stopped, or waits for disk space, holds nothing, so the views can never stop
// the log.
// Thread safety: BeforeBatch is called on the appender's thread; the projector is safe from any.
#pragma once

#include <chrono>
#include <cstdint>

#include "eventstore/append_gate.h"
#include "projections/projector.h"

namespace esign::projections {

class ViewLagGate final : public eventstore::AppendGate {
 public:
  // `projector` must outlive the gate.
  ViewLagGate(const Projector& projector, uint64_t max_lag_events,
              std::chrono::milliseconds max_wait)
      : projector_(projector), max_lag_events_(max_lag_events), max_wait_(max_wait) {}

  void BeforeBatch(uint64_t log_size) const override;

 private:
  const Projector& projector_;
  const uint64_t max_lag_events_;
  const std::chrono::milliseconds max_wait_;
};

}  // namespace esign::projections
