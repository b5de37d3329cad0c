// The scheduler of durable timers (DESIGN section 14). Due times are a projection of the log (the
// due-timer index, projections/due_timer_index.h); the scheduler is the one writer that acts on
// them: when a contract's time has come it issues RunDueTimers through the contract command
// handler, and the aggregate decides against its current state whether to expire, remind or do
// nothing. The events' ids derive from (contract, timer, due time) (DueTimerEventId), so a
// restart, a retry or a second scheduler appends a timer's event at most once: the store answers
// a repeated id as a replay.
//
// The thread sleeps until the earliest due time in the index, and is woken early by Wake (the
// index changed: an append brought a nearer time; or the clock moved). Timers that fell due
// while the service was down are found by the first scan. A failure is logged and retried a few
// seconds later; an index row not yet updated after its contract's append is not fired twice (the
// contract is skipped until its row moves).
//
// Thread safety: Start, Stop, Wake and RunDue may be called from any thread; the handler, view
// store and clock must outlive the scheduler.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "commands/contract_commands.h"
#include "domain/clock.h"
#include "domain/contract_events.h"
#include "projections/view_store.h"

namespace esign::commands {

// "evt_" + 32 hex digits of SHA-256 over the contract, the timer (expiry; reminder of a
// participant) and its due time, for the events RunDueTimers decides.
std::string DueTimerEventId(std::string_view contract_id, const DomainEvent& event);

struct DueTimerOptions {
  // How long after a failed firing the contract is tried again.
  std::chrono::milliseconds retry_after{5000};
  // The longest sleep: a wall clock set back or forward is noticed within this.
  std::chrono::milliseconds max_sleep{std::chrono::minutes(5)};
  // Called with a line to log (failures); may be empty.
  std::function<void(const std::string&)> log;
};

class DueTimerScheduler {
 public:
  DueTimerScheduler(ContractCommandHandler& handler, const projections::ViewStore& views,
                    const Clock& clock, DueTimerOptions options = {});
  ~DueTimerScheduler();  // stops

  DueTimerScheduler(const DueTimerScheduler&) = delete;
  DueTimerScheduler& operator=(const DueTimerScheduler&) = delete;

  void Start();
  // Ends the thread after the contract being fired. Idempotent.
  void Stop();
  // Look at the index again now.
  void Wake();

  // Fires every contract whose time has come, on the caller's thread; returns how many contracts
  // got events, and the next due time still ahead (or a retry time), if any.
  struct Pass {
    size_t fired = 0;
    std::optional<int64_t> next_due_micros;
  };
  Result<Pass> RunDue();

 private:
  void Run(const std::stop_token& stop);
  // Issues RunDueTimers for one contract: true when it appended events.
  Result<bool> Fire(const std::string& contract_id);

  ContractCommandHandler& handler_;
  const projections::ViewStore& views_;
  const Clock& clock_;
  const DueTimerOptions options_;

  // Contracts fired at a due time their index row still shows, and when to try them again
  // (never, until the row moves, after a success). Used by RunDue's caller only, under run_mutex_.
  struct Handled {
    int64_t due_micros = 0;
    int64_t retry_at_micros = 0;
  };
  std::mutex run_mutex_;
  std::unordered_map<std::string, Handled> handled_;

  std::mutex wake_mutex_;
  std::condition_variable_any wake_;
  bool woken_ = false;  // guarded by wake_mutex_
  std::jthread thread_;
};

}  // namespace esign::commands
