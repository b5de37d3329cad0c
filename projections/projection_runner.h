// ProjectionRunner: applies batches of log events to a set of projections and commits their rows
// with their checkpoints. The Projector runs one on its thread; Rebuild runs one in a loop.
//
// Per batch: each projection gets the events at or after its own checkpoint, then Flush; the rows
// of every projection and the new checkpoints go into one ViewStore commit; then Committed() is
// called on each projection that took part. Any error (from Apply, Flush or the commit) is
// returned, nothing of the batch is committed, and the runner refuses further batches: a
// projection's in-memory state may already reflect events whose rows were never written.
//
// Thread safety: none; one thread drives a runner. Projections and the store must outlive it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eventstore/event_record.h"
#include "projections/projection.h"
#include "projections/view_store.h"

namespace esign::projections {

class ProjectionRunner {
 public:
  ProjectionRunner(ViewStore& views, const std::vector<Projection*>& projections);

  // Reads the checkpoints and calls Load on every projection; before the first Apply, and again
  // to start over after a failure.
  Status Load();

  // The position of the first event some projection still needs (the lowest checkpoint).
  uint64_t position() const { return position_; }

  // Applies `events`, which must be consecutive and begin at or before position() (a batch read
  // with ReadAll(position(), n)). Events a projection has already applied are skipped for it.
  Status Apply(const std::vector<eventstore::EventRecord>& events);

 private:
  struct Entry {
    Projection* projection = nullptr;
    std::string name;
    uint64_t checkpoint = 0;
  };

  ViewStore& views_;
  std::vector<Entry> entries_;
  uint64_t position_ = 0;
  bool loaded_ = false;
  bool failed_ = false;
};

}  // namespace esign::projections
