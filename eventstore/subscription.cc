#include "eventstore/subscription.h"

#include <utility>
#include <vector>

namespace esign::eventstore {

CatchUpSubscription::CatchUpSubscription(const EventStore& store, GlobalPosition from,
                                         Handler handler, SubscriptionOptions options)
    : store_(store), handler_(std::move(handler)), options_(options), next_(from.value()) {}

CatchUpSubscription::~CatchUpSubscription() { Stop(); }

void CatchUpSubscription::Start() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    running_ = true;
  }
  stop_requested_.store(false);
  stop_source_ = std::stop_source();
  thread_ = std::thread([this] { Run(); });
}

void CatchUpSubscription::Stop() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  stop_requested_.store(true);
  stop_source_.request_stop();
  if (thread_.joinable()) thread_.join();
}

bool CatchUpSubscription::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

Status CatchUpSubscription::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

bool CatchUpSubscription::WaitForPosition(GlobalPosition position,
                                          std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  progressed_.wait_for(lock, timeout,
                       [&] { return next_.load() >= position.value() || !running_; });
  return next_.load() >= position.value();
}

void CatchUpSubscription::Finish(Status status) {
  {
    std::lock_guard lock(mutex_);
    running_ = false;
    status_ = std::move(status);
  }
  progressed_.notify_all();
}

void CatchUpSubscription::Run() {
  uint64_t next = next_.load();
  while (!stop_requested_.load(std::memory_order_relaxed)) {
    if (store_.Size() <= next) {
      const auto start = std::chrono::steady_clock::now();
      if (store_.WaitForSizeAbove(next, options_.idle_wait, stop_source_.get_token()) <= next &&
          !stop_requested_.load() &&
          std::chrono::steady_clock::now() - start < options_.idle_wait) {
        // Only a closed store ends a wait early without new events: none will come.
        break;
      }
      continue;
    }
    Result<std::vector<EventRecord>> batch =
        store_.ReadAll(GlobalPosition(next), options_.batch_size);
    if (!batch) return Finish(Fail(batch.error()));
    for (const EventRecord& record : *batch) {
      if (stop_requested_.load(std::memory_order_relaxed)) break;
      if (Status handled = handler_(record); !handled) return Finish(std::move(handled));
      next = record.position.value() + 1;
      next_.store(next, std::memory_order_release);
    }
    {
      // Taken so a waiter between its check and its sleep cannot miss this notification.
      std::lock_guard lock(mutex_);
    }
    progressed_.notify_all();
  }
  Finish({});
}

}  // namespace esign::eventstore
