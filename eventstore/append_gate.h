// What the appender asks before each batch it writes: whether the log may grow now. The layers
// above implement it to admit writes at the rate their views follow (projections/view_lag_gate.h),
// so that a burst of writes is slowed at the door instead of leaving the read side minutes behind.
// Thread safety: called on the appender's thread only; an implementation must not append.
#pragma once

#include <cstdint>

namespace esign::eventstore {

class AppendGate {
 public:
  virtual ~AppendGate() = default;
  // Called with the log's size before a batch is written; may block, for a bounded time, until
  // the batch should go.
  virtual void BeforeBatch(uint64_t log_size) const = 0;
};

}  // namespace esign::eventstore
