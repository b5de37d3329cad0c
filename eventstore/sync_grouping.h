// SyncGrouping: how long the syncer waits for more written appends before it syncs the WAL.
//
// Callers in a closed loop (each appends again as soon as it is answered) come back within
// microseconds of being answered. A syncer that syncs whatever is written the moment the disk is
// free splits such callers into two groups that take turns: while one group's sync runs, the
// other group writes, and each sync covers half of the callers. Waiting for the answered callers
// to write again makes one sync cover all of them, which halves the syncs per append whenever a
// sync takes longer than the callers need to come back (fdatasync takes 0.2 to 3 ms here, the
// callers tens of microseconds).
//
// So the next sync waits until as many appends are written as were unanswered when the previous
// sync answered (those answered plus those already written or queued behind them), but no longer
// than the recent sync time: callers that do not come back cost at most about one sync of
// latency, and the disk stays busy at least half the time. A single caller is never kept waiting:
// one append was unanswered, so its next write alone reaches the target.
//
// Thread safety: not thread-safe; the syncer owns it.
#pragma once

#include <chrono>
#include <cstdint>

namespace esign::eventstore {

class SyncGrouping {
 public:
  // A WAL sync took `took`.
  void Synced(std::chrono::nanoseconds took);
  // The syncer answered appends when `unanswered` appends (those answered included) had been
  // queued and not yet answered.
  void Answered(uint64_t unanswered) { target_ = unanswered; }

  // Appends written and not yet synced that make waiting pointless.
  uint64_t target() const { return target_; }
  // The longest wait for the target, from the moment something is written.
  std::chrono::nanoseconds limit() const { return recent_sync_; }

 private:
  // Waits never exceed this, whatever the disk did once.
  static constexpr std::chrono::nanoseconds kMaxWait = std::chrono::milliseconds(2);

  uint64_t target_ = 0;
  std::chrono::nanoseconds recent_sync_{0};  // a moving average of the sync times
};

}  // namespace esign::eventstore
