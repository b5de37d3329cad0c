#include "projections/projection_runner.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "projections/view_batch.h"

namespace esign::projections {

ProjectionRunner::ProjectionRunner(ViewStore& views, const std::vector<Projection*>& projections)
    : views_(views) {
  entries_.reserve(projections.size());
  for (Projection* projection : projections) {
    entries_.push_back(Entry{projection, std::string(projection->Name()), 0});
  }
}

Status ProjectionRunner::Load() {
  uint64_t lowest = std::numeric_limits<uint64_t>::max();
  for (Entry& entry : entries_) {
    Result<uint64_t> checkpoint = views_.Checkpoint(entry.name);
    if (!checkpoint) return Fail(checkpoint.error());
    entry.checkpoint = *checkpoint;
    lowest = std::min(lowest, entry.checkpoint);
    PrefixedReader rows(views_, entry.name);
    if (Status loaded = entry.projection->Load(rows); !loaded) {
      Error error = loaded.error();
      error.message = "loading projection " + entry.name + ": " + error.message;
      return Fail(std::move(error));
    }
  }
  position_ = entries_.empty() ? 0 : lowest;
  loaded_ = true;
  failed_ = false;
  return {};
}

Status ProjectionRunner::Apply(const std::vector<eventstore::EventRecord>& events) {
  if (!loaded_ || failed_) {
    return Fail(ErrorCode::kInternal, "the projection runner is not ready for events");
  }
  if (events.empty()) return {};
  const uint64_t first = events.front().position.value();
  if (first > position_) {
    return Fail(ErrorCode::kInternal, "events begin at " + std::to_string(first) +
                                          ", after the projections' position " +
                                          std::to_string(position_));
  }
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].position.value() != first + i) {
      return Fail(ErrorCode::kCorruption, "the log skips from position " +
                                              std::to_string(first + i - 1) + " to " +
                                              std::to_string(events[i].position.value()));
    }
  }
  const uint64_t end = first + events.size();

  // From here on, a failure leaves projections with state of events that were never committed.
  failed_ = true;
  ViewCommit commit;
  std::vector<Entry*> advanced;
  for (Entry& entry : entries_) {
    if (entry.checkpoint >= end) continue;
    PrefixedBatch batch(commit, views_, entry.name);
    for (size_t i = entry.checkpoint > first ? entry.checkpoint - first : 0; i < events.size();
         ++i) {
      if (Status applied = entry.projection->Apply(events[i], batch); !applied) {
        Error error = applied.error();
        error.message = "projection " + entry.name + " at position " +
                        std::to_string(events[i].position.value()) + ": " + error.message;
        return Fail(std::move(error));
      }
    }
    if (Status flushed = entry.projection->Flush(batch); !flushed) {
      Error error = flushed.error();
      error.message = "projection " + entry.name + " flushing: " + error.message;
      return Fail(std::move(error));
    }
    commit.checkpoints.insert_or_assign(entry.name, end);
    advanced.push_back(&entry);
  }
  if (Status committed = views_.Commit(commit); !committed) return committed;
  failed_ = false;

  uint64_t lowest = std::numeric_limits<uint64_t>::max();
  for (Entry* entry : advanced) {
    entry->checkpoint = end;
    entry->projection->Committed();
  }
  for (const Entry& entry : entries_) lowest = std::min(lowest, entry.checkpoint);
  position_ = entries_.empty() ? end : lowest;
  return {};
}

}  // namespace esign::projections
