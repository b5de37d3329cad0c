// Point-in-time reads: a contract as it stood after a log position or at a time, rebuilt from its
// stream in the event store with the domain's Apply (not from the views, which hold only the
// latest state). The answer is what ContractToJson / ContractStatusToJson of the live views
// would have shown then.
//
// Access: callers first check the reader's live grant (contract_queries.h), so a contract the
// reader may not see today stays indistinguishable from a missing one. ReadableAt then keeps the
// reader to the points at which a live read would have answered it: the grant an organization
// held at a point is the one the state at that point gives it (contract_index.h, AccessRolesOf),
// so the controller sees every point from creation on, and a signer or viewer organization every
// point from the send on. An earlier point answers kContractNotFound, as a contract the reader
// cannot see does.
//
// Cost: finding the contract's last event at the point reads O(log n) single events of its
// stream (a binary search over its versions: the events within a point are a prefix of the
// stream); its state then comes from the state cache (contract_state_cache.h), which starts
// from its checkpoint at or before that version and applies at most checkpoint_interval - 1
// events (256 by default). A stream is bounded as well (domain/contract_commands.h).
//
// Thread safety: every method may be called from any thread (the event store's reads are).
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>

#include "domain/clock.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "domain/strong_types.h"
#include "eventstore/event_store.h"
#include "projections/contract_state_cache.h"

namespace esign::projections {

// Where in the log to read: after a global position (every event at or before it), or at a time
// (every event recorded at or before it, microseconds since the epoch).
struct LogPoint {
  std::variant<GlobalPosition, int64_t> at;
};

// The query parameter asOf: an unsigned decimal position ("42") or an RFC 3339 date-time
// ("2026-11-20T10:00:00Z", fraction and offset allowed). kValidationFailed with detail field
// "asOf" for anything else: empty, negative, too large, a date alone, not a time.
Result<LogPoint> ParseLogPoint(std::string_view text);

// A contract as it stood at a point of the log.
struct ContractAt {
  ContractState state;
  GlobalPosition position;  // of the contract's last event at the point: the state it reflects
  int64_t recorded_at_us = 0;
};

class ContractAsOf {
 public:
  // `log`, `clock` and `states` (a cache over the same log) must outlive this object, which only
  // refers to them (copies are cheap).
  ContractAsOf(const eventstore::EventStore& log, const Clock& clock,
               const ContractStateCache& states)
      : log_(&log), clock_(&clock), states_(&states) {}

  // kValidationFailed (detail field "asOf") for a position beyond the end of the log or a time
  // after now; kContractNotFound when the contract had no event by then (or has none at all).
  Result<ContractAt> At(std::string_view contract_id, const LogPoint& point) const;
  // At, for a reader of `organization_id`: kContractNotFound as well when that organization held
  // no grant on the contract at the point.
  Result<ContractAt> ReadableAt(std::string_view contract_id, const LogPoint& point,
                                std::string_view organization_id) const;

 private:
  const eventstore::EventStore* log_;
  const Clock* clock_;
  const ContractStateCache* states_;
};

}  // namespace esign::projections
