// Writes admitted at the rate the views follow: before each batch of appends, the event store's
// appender waits here until each projector it follows is at most its `max_lag_events` behind the
// log. A burst of writes then waits at the door, a little longer each, instead of being
// acknowledged faster than the views can apply it and leaving every reader (read-your-writes,
// lists, webhooks' intake) behind by as much as the burst outran them. The wait is bounded
// (`max_wait` per batch, for all projectors together), and a read side that has stopped, or waits
// for disk space, holds nothing, so the views can never stop the log.
// Thread safety: BeforeBatch is called on the appender's thread; the projectors are safe from
// any. Follow is called before the gate is installed.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "eventstore/append_gate.h"
#include "projections/projector.h"

namespace esign::projections {

class ViewLagGate final : public eventstore::AppendGate {
 public:
  // `projector` must outlive the gate.
  ViewLagGate(const Projector& projector, uint64_t max_lag_events,
              std::chrono::milliseconds max_wait)
      : max_wait_(max_wait) {
    Follow(projector, max_lag_events);
  }

  // Follows another projector as well (the text index's, with a lag of its own).
  void Follow(const Projector& projector, uint64_t max_lag_events) {
    followed_.push_back({&projector, max_lag_events});
  }

  void BeforeBatch(uint64_t log_size) const override;

 private:
  struct Followed {
    const Projector* projector;
    uint64_t max_lag_events;
  };

  std::vector<Followed> followed_;
  const std::chrono::milliseconds max_wait_;
};

}  // namespace esign::projections
