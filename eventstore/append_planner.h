// The decisions of an append, shared by both stores so their semantics cannot drift: input checks,
// optimistic concurrency, idempotency by event id, and the assignment of positions, versions and
// timestamps. It reads stored state through an AppendIndex and never writes: the store writes the
// plan, and calls Commit only once that write is durable, so a failed write changes nothing here.
//
// Appends planned in one batch see each other's effects (versions and event ids), as if they had
// been applied one after the other in the order given.
//
// Thread safety: not thread-safe; one appender owns it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "domain/result.h"
#include "eventstore/event_store.h"
#include "eventstore/store_keys.h"

namespace esign::eventstore {

// What the planner reads from storage.
class AppendIndex {
 public:
  virtual ~AppendIndex() = default;
  // The stored version of a stream, 0 when it has no events.
  virtual Result<StreamVersion> LoadVersion(std::string_view stream_id) const = 0;
  // Fills `out` (one slot per id) with the stored entries of `ids`, nullopt for unknown ids.
  virtual Status LookupEventIds(std::span<const std::string_view> ids,
                                std::vector<std::optional<EventIdEntry>>& out) const = 0;
  // The position of version `version` of a stream, nullopt when it has no such version.
  virtual Result<std::optional<GlobalPosition>> PositionAt(std::string_view stream_id,
                                                           StreamVersion version) const = 0;
};

// The checks of an append that need no stored state: a stream id the index can hold, at least
// one event, non-empty ids unique within the append, data ParseRecord will read back.
// kValidationFailed otherwise. Stores call it on the caller's thread, before planning.
Status CheckAppend(std::string_view stream_id, const std::vector<NewEvent>& events);

// An append that passed CheckAppend.
struct AppendInput {
  std::string_view stream_id;
  ExpectedVersion expected = ExpectedVersion::Any();
  std::vector<NewEvent>* events = nullptr;  // consumed: Plan moves the strings out
};

struct PlannedAppend {
  Result<AppendResult> outcome;  // an error, a replay, or the result once the plan is stored
  size_t first_record = 0;       // this append's new records in BatchPlan::records
  size_t record_count = 0;       // 0 for errors and replays
};

struct BatchPlan {
  std::vector<PlannedAppend> appends;    // one per input, in order
  std::vector<EventRecord> records;      // new records, at consecutive positions
  std::vector<EventIdEntry> id_entries;  // what to store under each record's event id
};

class AppendPlanner {
 public:
  // Remembers stream versions between batches; forgets them all past `max_cached_streams`.
  AppendPlanner(const AppendIndex& index, size_t max_cached_streams);

  // Plans `inputs` after a log of `next_position` events, recorded at `now_us` (never earlier than
  // a previous batch). `plan` is cleared first; reuse it to keep its allocations.
  void Plan(std::span<const AppendInput> inputs, uint64_t next_position, int64_t now_us,
            BatchPlan& plan);

  // Records the stream versions of a plan that is now durably stored.
  void Commit(const BatchPlan& plan) { Applied(plan.records); }
  // The same for records another writer decided (the replicated log): their versions, and their
  // time as the earliest the next batch may be recorded at.
  void Applied(std::span<const EventRecord> records);

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // An event id written earlier in the batch being planned.
  struct PendingId {
    EventIdEntry entry;
    size_t record = 0;
  };

  Result<AppendResult> PlanOne(const AppendInput& input,
                               std::span<const std::optional<EventIdEntry>> stored,
                               uint64_t next_position, int64_t now_us, BatchPlan& plan);
  // A stored or pending entry for the k-th id of an append.
  std::optional<PendingId> Find(std::string_view id,
                                const std::optional<EventIdEntry>& stored) const;
  Result<StreamVersion> VersionOf(std::string_view stream_id);

  const AppendIndex& index_;
  const size_t max_cached_streams_;
  int64_t last_recorded_at_ = 0;
  std::unordered_map<std::string, uint64_t, StringHash, std::equal_to<>> versions_;
  // Scratch of the batch being planned, kept to reuse allocations.
  std::unordered_map<std::string_view, uint64_t> pending_versions_;
  std::unordered_map<std::string_view, PendingId> pending_ids_;
  std::vector<std::string_view> ids_;
  std::vector<std::optional<EventIdEntry>> stored_;
};

}  // namespace esign::eventstore
