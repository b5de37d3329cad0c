// Projector: keeps every registered projection up to date with the event log, on the thread of a
// catch-up subscription (eventstore/subscription.h). It reads the log from the lowest checkpoint
// in batches, applies each event to each projection that has not applied it yet, commits the rows
// of all of them together with their checkpoints (ProjectionRunner), and calls Committed(). When
// caught up it sleeps until an append wakes it.
//
// Read-your-writes: a command handler that appended events at [first, first + count) records
// first + count for its client (read_your_writes.h); that client's next read calls
// WaitFor(first + count, timeout), which returns once every projection has applied every event
// before that position.
//
// Failure: an error from a projection, the log or the view store stops the projector and is kept
// (health()); no event is ever skipped. Waiters are released with false. A commit refused for a
// full disk (kStorageUnavailable) is the exception: the projector reloads its projections from
// what is committed and the subscription delivers the batch again a second later, so the views
// catch up once space returns, and a checkpoint never gets ahead of its rows.
//
// Thread safety: every method may be called from any thread. The store, the view store and the
// projections must outlive the projector. Stop it before closing the store; if the store closes
// first, the projector applies what is stored and then idles until stopped (the subscription's
// behaviour).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "eventstore/event_store.h"
#include "eventstore/subscription.h"
#include "projections/projection.h"
#include "projections/projection_runner.h"
#include "projections/view_store.h"

namespace esign::projections {

struct ProjectorOptions {
  // Events read, applied and committed together. Default: 1024.
  size_t batch_size = 1024;
  // SubscriptionOptions::idle_wait. Default: 60 s.
  std::chrono::milliseconds idle_wait{60000};
  // The name of its thread (base/thread_name.h).
  std::string thread_name = "esign-project";
};

class Projector {
 public:
  Projector(const eventstore::EventStore& store, ViewStore& views,
            const std::vector<Projection*>& projections, ProjectorOptions options = {});
  ~Projector();  // stops

  Projector(const Projector&) = delete;
  Projector& operator=(const Projector&) = delete;

  // Loads checkpoints and calls Load() on every projection, then starts the thread. An error of
  // loading is returned and nothing runs. After Stop, Start loads everything again.
  Status Start();
  // Ends the thread after the batch in progress (committed or not at all). Idempotent.
  void Stop();

  // Blocks until every projection has applied every event with position < `size` (true), or the
  // timeout passes, or the projector stops or fails (false).
  bool WaitFor(uint64_t size, std::chrono::milliseconds timeout) const;

  // Every event before this position has been applied by every projection.
  uint64_t position() const;
  // Success, or the error that stopped the projector.
  Status health() const;
  bool running() const;
  // True while the last commit was refused for a full disk: the read side waits for space, and a
  // read that must see a later write is answered 503 STORAGE_UNAVAILABLE, not a plain timeout.
  bool waiting_for_space() const { return waiting_for_space_.load(std::memory_order_acquire); }

 private:
  // Applies a batch and commits it; the position to read next.
  Result<GlobalPosition> Apply(const std::vector<eventstore::EventRecord>& events);

  ProjectionRunner runner_;  // used by the subscription's thread only, after Start
  eventstore::CatchUpSubscription subscription_;

  std::mutex lifecycle_mutex_;  // serializes Start and Stop
  bool started_ = false;        // guarded by lifecycle_mutex_

  mutable std::mutex mutex_;
  Status load_error_;  // guarded by mutex_: of the last Start
  std::atomic<bool> waiting_for_space_{false};
};

}  // namespace esign::projections
