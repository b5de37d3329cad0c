// ContractStateCache: a contract's state (domain Apply over its stream) without replaying the
// whole stream on every request. Every command, every hosted-page request and every ?asOf= read
// needs a contract's state; replaying a stream of 4,500 events took 49 ms and made each of those
// requests cost in proportion to the contract's history.
//
// What it keeps, per contract: the latest state it has seen, and a checkpoint every
// `checkpoint_interval` versions (the state after version 256, 512, ...). A request for the latest
// state applies only the events after the cached version (one read of the stream's tail); a
// request for an earlier version starts from the checkpoint at or before it and applies at most
// checkpoint_interval - 1 events. The first request for a contract, or one evicted since, replays
// its stream once and builds the checkpoints on the way.
//
// Correctness does not depend on the cache: a stream's events never change once appended, so a
// cached state at version v followed by the stream's events after v is exactly the full replay,
// whoever appended them and in whatever order requests arrive. A cached state is only ever
// replaced by one of a higher version.
//
// Memory: at most `max_states` states are held (each contract's latest state and each of its
// checkpoints count one); past it the least recently used contracts are dropped whole. A state's
// size is bounded by the contract limits (participants, fields, sessions; docs/projections.md has
// measured sizes), so the budget in states is a budget in bytes.
//
// Thread safety: every method may be called from any thread. Replays run outside the lock, so
// requests for different contracts (and for the same one) proceed in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "domain/contract_state.h"
#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::projections {

struct ContractStateCacheOptions {
  size_t max_states = 4096;
  uint64_t checkpoint_interval = 256;  // also the most events one request applies once warm
};

// A contract as of one version of its stream.
struct ContractSnapshot {
  ContractState state;        // state.version is the version; !state.exists() for no stream
  uint64_t stream_bytes = 0;  // the bytes of event data in the stream up to that version
};

struct ContractStateCacheStats {
  size_t contracts = 0;
  size_t states = 0;
  uint64_t events_applied = 0;  // by every request so far: what the cache did not save
};

class ContractStateCache {
 public:
  // `log` must outlive this object.
  explicit ContractStateCache(const eventstore::EventStore& log,
                              ContractStateCacheOptions options = {});

  // The contract after every event of its stream so far (an empty state when it has none).
  Result<ContractSnapshot> Latest(std::string_view contract_id) const;
  // The contract after version `version` of its stream (1 or more); kNotFound when the stream is
  // not that long.
  Result<ContractSnapshot> AtVersion(std::string_view contract_id, uint64_t version) const;

  ContractStateCacheStats Stats() const;

 private:
  using Shared = std::shared_ptr<const ContractSnapshot>;
  struct Entry {
    Shared latest;
    std::vector<Shared> checkpoints;  // [k] is the state after version (k + 1) * interval
    std::list<std::string>::iterator recency;
  };

  // The cached state to start from for `version` (the latest one when `version` is 0): the
  // newest one at or before it, or null.
  Shared StartFor(const std::string& contract_id, uint64_t version) const;
  // Applies the stream's events after `from` up to `version` (0: to the end), keeping the
  // checkpoints passed on the way when `checkpoints` is given.
  Result<ContractSnapshot> Advance(const std::string& contract_id, const Shared& from,
                                   uint64_t version, std::vector<Shared>* checkpoints) const;
  void Keep(const std::string& contract_id, const Shared& latest,
            std::vector<Shared> checkpoints) const;
  void EvictLocked() const;

  const eventstore::EventStore& log_;
  const ContractStateCacheOptions options_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, Entry> entries_;
  mutable std::list<std::string> recency_;  // most recently used first
  mutable size_t states_ = 0;
  mutable uint64_t events_applied_ = 0;
};

}  // namespace esign::projections
