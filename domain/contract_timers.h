// The timers of a contract (DESIGN section 14), derived from its state alone: the expiry of a
// contract out for signing and the next scheduled reminder of each signer whose turn it is. The
// scheduler finds contracts by their next due time (a projection of the log) and lets the
// aggregate decide RunDueTimers; the same functions decide there, so the two never disagree.
//
// Reminders follow the snapshotted `reminder` settings (domain/notifications.h): the first
// firstAfterDays after the signer's turn came, the next intervalDays after the latest reminder
// (a manual one too), at most maxCount scheduled ones, none when enabled is false.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>

#include "domain/contract_state.h"

namespace esign {

// When `signer`'s next scheduled reminder is due (microseconds since the epoch); nullopt when
// none is: the contract is not out for signing, the signer has signed or is not yet in turn, the
// reminders are disabled or all sent.
std::optional<int64_t> NextReminderDueMicros(const ContractState& state, const Participant& signer);

// The contract's expiry, while it is out for signing.
std::optional<int64_t> ExpiryDueMicros(const ContractState& state);

// The earliest of the above: when the scheduler must look at the contract next.
std::optional<int64_t> NextTimerDueMicros(const ContractState& state);

}  // namespace esign
