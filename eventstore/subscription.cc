#include "eventstore/subscription.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/thread_name.h"

namespace esign::eventstore {

CatchUpSubscription::CatchUpSubscription(const EventStore& store, GlobalPosition from,
                                         Handler handler, SubscriptionOptions options)
    : store_(store),
      handler_(std::move(handler)),
      options_(std::move(options)),
      next_(from.value()) {}

CatchUpSubscription::CatchUpSubscription(const EventStore& store, GlobalPosition from,
                                         BatchHandler handler, SubscriptionOptions options)
    : store_(store),
      batch_handler_(std::move(handler)),
      options_(std::move(options)),
      next_(from.value()) {}

CatchUpSubscription::~CatchUpSubscription() { Stop(); }

void CatchUpSubscription::Start() { Start(position()); }

void CatchUpSubscription::Start(GlobalPosition from) {
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    running_ = true;
    status_ = {};
  }
  next_.store(from.value(), std::memory_order_release);
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

void CatchUpSubscription::Rewind(GlobalPosition to) {
  std::lock_guard lock(rewind_mutex_);
  rewind_ = to.value();
  if (waiting_ != nullptr) waiting_->request_stop();
}

std::optional<uint64_t> CatchUpSubscription::TakeRewind() {
  std::lock_guard lock(rewind_mutex_);
  if (rewind_ == kNoRewind) return std::nullopt;
  return std::exchange(rewind_, kNoRewind);
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

Result<uint64_t> CatchUpSubscription::Handle(const std::vector<EventRecord>& batch) {
  if (batch_handler_) {
    auto next = batch_handler_(batch, stop_source_.get_token());
    if (!next) return std::unexpected(next.error());
    next_.store(next->value(), std::memory_order_release);
    return next->value();
  }
  uint64_t next = next_.load();
  for (const EventRecord& record : batch) {
    if (stop_requested_.load(std::memory_order_relaxed)) break;
    if (Status handled = handler_(record); !handled) return std::unexpected(handled.error());
    next = record.position.value() + 1;
    next_.store(next, std::memory_order_release);
  }
  return next;
}

bool CatchUpSubscription::WaitForAppend(uint64_t next, const std::stop_token& stop) {
  std::stop_source wait;
  const std::stop_callback stopping(stop, [&wait] { wait.request_stop(); });
  {
    std::lock_guard lock(rewind_mutex_);
    if (rewind_ != kNoRewind) return true;
    waiting_ = &wait;
  }
  const auto start = std::chrono::steady_clock::now();
  const uint64_t size = store_.WaitForSizeAbove(next, options_.idle_wait, wait.get_token());
  {
    std::lock_guard lock(rewind_mutex_);
    waiting_ = nullptr;
  }
  // Only a closed store ends a wait early without new events, a stop or a rewind.
  return size > next || wait.stop_requested() ||
         std::chrono::steady_clock::now() - start >= options_.idle_wait / 2;
}

void CatchUpSubscription::Run() {
  NameThisThread(options_.thread_name);
  const std::stop_token stop = stop_source_.get_token();
  uint64_t next = next_.load();
  while (!stop_requested_.load(std::memory_order_relaxed)) {
    if (const auto to = TakeRewind()) {
      next = *to;
      next_.store(next, std::memory_order_release);
    }
    if (store_.Size() <= next) {
      if (!WaitForAppend(next, stop)) {
        // Nothing more will come: waits for Stop instead of spinning.
        std::mutex mutex;
        std::unique_lock lock(mutex);
        std::condition_variable_any().wait(lock, stop, [] { return false; });
      }
      continue;
    }
    Result<std::vector<EventRecord>> batch =
        store_.ReadAll(GlobalPosition(next), std::max<size_t>(options_.batch_size, 1));
    if (!batch) return Finish(Fail(batch.error()));
    if (batch->empty()) {
      return Finish(Fail(ErrorCode::kCorruption, "the log reports events from position " +
                                                     std::to_string(next) + " but returns none"));
    }
    auto handled = Handle(*batch);
    if (!handled && handled.error().code == ErrorCode::kStorageUnavailable) {
      // A full disk refused what the handler writes: the same events again after a pause, from
      // the first one not handled, until space returns; the store may need to be told first.
      std::mutex mutex;
      std::unique_lock lock(mutex);
      std::condition_variable_any().wait_for(lock, stop, kStorageRetryInterval,
                                             [] { return false; });
      store_.RecoverStorage();
      next = next_.load();
      continue;
    }
    if (!handled) return Finish(Fail(handled.error()));
    next = *handled;
    {
      // Taken so a waiter between its check and its sleep cannot miss this notification.
      std::lock_guard lock(mutex_);
    }
    progressed_.notify_all();
  }
  Finish({});
}

}  // namespace esign::eventstore
