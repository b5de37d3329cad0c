// The fence of the replicated log (DESIGN 22): which entries of the log topic count. Every node
// runs it over the entries in offset order, from the same state, so every node counts the same
// entries; the writer counts on it to know that an entry it published is the one everybody applies.
//   a claim counts when its epoch is higher than the current one and its base (size, root) is the
//     log as it stands: it makes its epoch the current one;
//   any other entry counts when its epoch is the current one and it was published at the current
//     size (a batch then moves the size and root on);
//   every other entry is skipped by everybody.
// A writer whose entry is skipped (a claim came between) has been fenced: nothing it publishes
// counts from then on.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>

#include "eventstore/log_entry.h"

namespace esign::eventstore {

struct LogFence {
  uint64_t epoch = 0;  // of the newest claim that counted; 0 before the first
  uint64_t size = 0;   // events in the log
  Hash root{};         // its root

  // Whether `entry` counts at this state.
  bool Admits(const LogEntry& entry) const;
  // The state after an entry that counts.
  void Apply(const LogEntry& entry);
};

}  // namespace esign::eventstore
