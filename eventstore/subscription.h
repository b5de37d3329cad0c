// CatchUpSubscription: delivers every event of a store's log, in order, from a start position:
// first the events already stored (read in batches), then each new one as it is appended. A
// thread of its own reads with ReadAll and, once caught up, sleeps in WaitForSizeAbove, so it is
// woken by appends rather than by a timer.
//
// The handler runs on the subscription's thread, one event at a time. When it returns an error,
// or a read fails, the subscription stops and keeps that error (status()). When the store closes,
// the subscription delivers what is stored and ends without error.
//
// Thread safety: Start, Stop and the accessors may be called from any thread; the handler is only
// ever called from the subscription's thread. Stop (or destruction) must come before the store
// closes or goes away.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

#include "eventstore/event_store.h"

namespace esign::eventstore {

struct SubscriptionOptions {
  // Events read per ReadAll call. Default: 512.
  size_t batch_size = 512;
  // Longest sleep in WaitForSizeAbove while idle. Appends and Stop wake it at once; this only
  // bounds how long a closed store goes unnoticed. Default: 60 s.
  std::chrono::milliseconds idle_wait{60000};
};

class CatchUpSubscription {
 public:
  using Handler = std::function<Status(const EventRecord&)>;

  // Nothing runs until Start. `store` must outlive the subscription.
  CatchUpSubscription(const EventStore& store, GlobalPosition from, Handler handler,
                      SubscriptionOptions options = {});
  ~CatchUpSubscription();  // stops

  CatchUpSubscription(const CatchUpSubscription&) = delete;
  CatchUpSubscription& operator=(const CatchUpSubscription&) = delete;

  void Start();
  // Ends the subscription and joins its thread; the handler is not called afterwards. Idempotent.
  void Stop();

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
  void Finish(Status status);

  const EventStore& store_;
  const Handler handler_;
  const SubscriptionOptions options_;
  std::atomic<uint64_t> next_;
  std::atomic<bool> stop_requested_{false};
  std::stop_source stop_source_;  // wakes the thread from WaitForSizeAbove
  std::thread thread_;
  std::mutex lifecycle_mutex_;  // serializes Start and Stop

  mutable std::mutex mutex_;
  mutable std::condition_variable progressed_;
  bool running_ = false;  // guarded by mutex_
  Status status_;         // guarded by mutex_
};

}  // namespace esign::eventstore
