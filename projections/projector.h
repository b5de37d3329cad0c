// Projector: keeps every registered projection up to date with the event log, on a thread of its
// own. It reads the log from the lowest checkpoint in batches (ReadAll), applies each event to
// each projection that has not applied it yet, commits the rows of all of them together with
// their checkpoints (ProjectionRunner), and calls Committed(). When caught up it sleeps in
// EventStore::WaitForSizeAbove, so an append wakes it at once.
//
// Read-your-writes: a command handler that appended events at [first, first + count) records
// first + count for its client (read_your_writes.h); that client's next read calls
// WaitFor(first + count, timeout), which returns once every projection has applied every event
// before that position.
//
// Failure: an error from a projection, the log or the view store stops the projector and is kept
// (health()); no event is ever skipped. Waiters are released with false.
//
// Thread safety: every method may be called from any thread. The store, the view store and the
// projections must outlive the projector. Stop it before closing the store; if the store closes
// first, the projector applies what is stored and then idles until stopped.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "eventstore/event_store.h"
#include "projections/projection.h"
#include "projections/projection_runner.h"
#include "projections/view_store.h"

namespace esign::projections {

struct ProjectorOptions {
  // Events read, applied and committed together. Default: 1024.
  size_t batch_size = 1024;
  // Longest sleep in WaitForSizeAbove while idle. Appends and Stop wake it at once; this only
  // bounds how long a closed store goes unnoticed. Default: 60 s.
  std::chrono::milliseconds idle_wait{60000};
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

 private:
  void Run();
  void Finish(Status status);

  const eventstore::EventStore& store_;
  const ProjectorOptions options_;
  ProjectionRunner runner_;  // used by the thread only, after Start

  std::mutex lifecycle_mutex_;  // serializes Start and Stop
  std::thread thread_;

  mutable std::mutex mutex_;
  mutable std::condition_variable progressed_;
  uint64_t position_ = 0;         // guarded by mutex_
  bool running_ = false;          // guarded by mutex_
  bool stop_requested_ = false;   // guarded by mutex_
  std::stop_source stop_source_;  // wakes the thread from WaitForSizeAbove
  Status health_;                 // guarded by mutex_
};

}  // namespace esign::projections
