// The due-timer index: for every contract with a timer (domain/contract_timers.h), one row keyed
// by its next due time, so the scheduler finds what is due with one ordered scan and learns when
// to wake next. ContractViews writes the rows with the contract's other rows (and deletes the old
// one when the due time moves), so the index is a projection of the log like every view, rebuilt
// with it.
//
// Keys (under "contracts/"): due/<due micros, hex16>/<contractId escaped>, empty value.
// Thread safety: pure functions, and a scan over one snapshot of the view store.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "domain/contract_state.h"
#include "domain/result.h"
#include "projections/view_store.h"

namespace esign::projections {

// The key of the contract's next timer; nullopt when it has none.
std::optional<std::string> DueTimerKey(const ContractState& state, std::string_view contract_id);

// Visits the index in due order (earliest first) until `visit` returns false.
using DueTimerVisitor = std::function<bool(int64_t due_micros, std::string_view contract_id)>;
Status ScanDueTimers(const ViewStore& views, const DueTimerVisitor& visit);

// The contracts whose next timer is due at `now_micros` or before (waiting for the scheduler),
// counting at most `limit` of them: a read of that many rows at most, for /metrics.
Result<uint64_t> CountDueTimers(const ViewStore& views, int64_t now_micros, uint64_t limit);

}  // namespace esign::projections
