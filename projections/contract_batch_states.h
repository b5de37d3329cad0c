// The contracts a projection of contract events changes in one batch, with their states: the
// state before a contract's first event of the batch is kept in memory for the contracts
// changed recently and replayed from the log for any other (its events before the one being
// applied are always in the log). ContractViews and ContractTextIndex both build on it.
//
// Per batch: Apply for each event (the contract's state advances, and the index entries it had
// before the batch are recorded once), then Flush, which hands each changed contract over with
// its entries before and after, then Committed once the batch is durable, which caches the
// states. Clear forgets everything (a projection loading again).
//
// Thread safety: none; used by one projection on its projector's thread.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "domain/contract_events.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "eventstore/event_store.h"
#include "projections/contract_index.h"

namespace esign::projections {

class ContractBatchStates {
 public:
  struct Changed {
    ContractState state;                            // after the batch's events so far
    std::map<std::string, IndexEntry> old_entries;  // as committed before this batch
    std::string old_search_text;                    // unfolded (SearchTextOf)
  };

  // `log` must outlive it. Past `max_cached` states the cache starts over.
  ContractBatchStates(const eventstore::EventStore& log, size_t max_cached)
      : log_(log), max_cached_(max_cached) {}

  // An event of a contract's stream, applied: its contract and the event as parsed.
  struct Applied {
    std::string contract_id;
    DomainEvent event;
  };
  // Applies an event of a contract's stream to the contract's state; nothing for the events of
  // other streams. At the contract's first event of the batch, `first(before)` sees the state
  // before it.
  Result<std::optional<Applied>> Apply(
      const eventstore::EventRecord& event,
      const std::function<void(const std::string& contract_id, const ContractState& before)>&
          first = {});

  // Calls write(contract_id, changed, entries after) for each contract the batch changed; their
  // states then wait for Committed.
  void Flush(const std::function<void(const std::string& contract_id, const Changed& changed,
                                      const std::map<std::string, IndexEntry>& entries)>& write);
  void Committed();
  void Clear();

 private:
  // The state after every event of the stream before `event`; taken out of the cache.
  Result<ContractState> Before(const eventstore::EventRecord& event,
                               const std::string& contract_id);

  const eventstore::EventStore& log_;
  const size_t max_cached_;
  std::unordered_map<std::string, Changed> changed_;          // by this batch, before Flush
  std::unordered_map<std::string, ContractState> flushed_;    // awaiting the commit
  std::unordered_map<std::string, ContractState> committed_;  // cache of committed states
};

}  // namespace esign::projections
