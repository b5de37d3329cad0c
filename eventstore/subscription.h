// CatchUpSubscription: delivers every event of a store's log, in order, from a start position:
// first the events already stored (read in batches), then each new one as it is appended. A
// thread of its own reads with ReadAll and, once caught up, sleeps in WaitForSizeAbove, so it is
// woken by appends rather than by a timer. It is the one loop that follows the log: the
// projector (projections/projector.h) and the Kafka relay (webhooks/kafka_relay.h) run on it.
//
// Handlers run on the subscription's thread. A Handler takes one event at a time. A BatchHandler
// takes each batch read and returns the position to read next: past the batch when it handled
// all of it, within it when it handled only the first events (the rest is read again), or before
// it to go back (the relay publishing again from its checkpoint); it gets the stop token, so a
// wait of its own ends with Stop. When a handler returns an error, or a read fails, the
// subscription ends and keeps that error (status()); except kStorageUnavailable from a handler (a
// full disk refused its writes), after which the same events are delivered again every
// kStorageRetryInterval until the handler takes them.
//
// A closed store: the subscription handles what is stored, then waits for Stop without reading
// (running() stays true, status() success). A closed store is the middle of a shutdown whose Stop
// is on its way; nothing more can come, and ending early would release waiters as if it had failed.
//
// Thread safety: Start, Stop and the accessors may be called from any thread; the handler is only
// ever called from the subscription's thread. Stop (or destruction) must come before the store
// goes away.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "eventstore/event_store.h"

namespace esign::eventstore {

struct SubscriptionOptions {
  // Events read per ReadAll call. Default: 512.
  size_t batch_size = 512;
  // Longest sleep in WaitForSizeAbove while idle. Appends and Stop wake it at once; this only
  // bounds how long a closed store goes unnoticed. Default: 60 s.
  std::chrono::milliseconds idle_wait{60000};
  // The name of its thread (base/thread_name.h).
  std::string thread_name = "esign-follow";
};

class CatchUpSubscription {
 public:
  static constexpr std::chrono::seconds kStorageRetryInterval{1};

  using Handler = std::function<Status(const EventRecord&)>;
  using BatchHandler = std::function<Result<GlobalPosition>(const std::vector<EventRecord>& batch,
                                                            const std::stop_token& stop)>;

  // Nothing runs until Start. `store` must outlive the subscription.
  CatchUpSubscription(const EventStore& store, GlobalPosition from, Handler handler,
                      SubscriptionOptions options = {});
  CatchUpSubscription(const EventStore& store, GlobalPosition from, BatchHandler handler,
                      SubscriptionOptions options = {});
  ~CatchUpSubscription();  // stops

  CatchUpSubscription(const CatchUpSubscription&) = delete;
  CatchUpSubscription& operator=(const CatchUpSubscription&) = delete;

  // Starts at position(): the constructor's position, or where a stopped subscription was.
  void Start();
  // Starts at `from` (a checkpoint read just now). Not while running.
  void Start(GlobalPosition from);
  // Ends the subscription and joins its thread; the handler is not called afterwards. Idempotent.
  void Stop();
  // The next read starts at `to`, and an idle subscription wakes for it (the relay going back to
  // its checkpoint after a failed delivery report, while nothing is appended).
  void Rewind(GlobalPosition to);

  // The position of the next event to deliver.
  GlobalPosition position() const { return GlobalPosition(next_.load(std::memory_order_acquire)); }
  // True while the thread runs (false after Stop or after an error).
  bool running() const;
  // The error that ended the subscription, or success.
  Status status() const;
  // Blocks until position() > `position` - 1, i.e. every event before `position` was handled, the
  // subscription ended, or the timeout passed; true in the first case.
  bool WaitForPosition(GlobalPosition position, std::chrono::milliseconds timeout) const;

 private:
  void Run();
  // Sleeps until an append, Stop or Rewind; false when the store is closed.
  bool WaitForAppend(uint64_t next, const std::stop_token& stop);
  // The position Rewind asked for, taken; or none.
  std::optional<uint64_t> TakeRewind();
  // Hands the batch to the handler; the position to read next, or the handler's error.
  Result<uint64_t> Handle(const std::vector<EventRecord>& batch);
  void Finish(Status status);

  const EventStore& store_;
  const Handler handler_;             // or
  const BatchHandler batch_handler_;  // this one
  const SubscriptionOptions options_;
  std::atomic<uint64_t> next_;
  std::atomic<bool> stop_requested_{false};
  std::stop_source stop_source_;  // wakes the thread from WaitForSizeAbove and the handler's waits
  static constexpr uint64_t kNoRewind = UINT64_MAX;
  std::mutex rewind_mutex_;
  uint64_t rewind_ = kNoRewind;          // guarded by rewind_mutex_
  std::stop_source* waiting_ = nullptr;  // guarded by rewind_mutex_: ends the idle wait
  std::thread thread_;
  std::mutex lifecycle_mutex_;  // serializes Start and Stop

  mutable std::mutex mutex_;
  mutable std::condition_variable progressed_;
  bool running_ = false;  // guarded by mutex_
  Status status_;         // guarded by mutex_
};

}  // namespace esign::eventstore
