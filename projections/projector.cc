#include "projections/projector.h"

#include <algorithm>
#include <utility>

namespace esign::projections {

Projector::Projector(const eventstore::EventStore& store, ViewStore& views,
                     const std::vector<Projection*>& projections, ProjectorOptions options)
    : store_(store), options_(options), runner_(views, projections) {}

Projector::~Projector() { Stop(); }

Status Projector::Start() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (thread_.joinable()) return Fail(ErrorCode::kInternal, "the projector was already started");
  if (Status loaded = runner_.Load(); !loaded) {
    std::lock_guard lock(mutex_);
    health_ = loaded;
    return loaded;
  }
  {
    std::lock_guard lock(mutex_);
    position_ = runner_.position();
    running_ = true;
    stop_requested_ = false;
  }
  stop_source_ = std::stop_source();
  thread_ = std::thread([this] { Run(); });
  return {};
}

void Projector::Stop() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  {
    std::lock_guard lock(mutex_);
    stop_requested_ = true;
  }
  stop_source_.request_stop();
  progressed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Projector::Run() {
  const size_t batch_size = std::max<size_t>(options_.batch_size, 1);
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stop_requested_) break;
    }
    const uint64_t next = runner_.position();
    if (store_.Size() <= next) {
      // Woken by an append; the timeout only bounds how long a Stop waits.
      const auto before = std::chrono::steady_clock::now();
      if (store_.WaitForSizeAbove(next, options_.idle_wait, stop_source_.get_token()) <= next &&
          std::chrono::steady_clock::now() - before < options_.idle_wait / 2) {
        // Back early with nothing new: stopping, or the store is closed. Wait for Stop instead
        // of spinning.
        std::unique_lock lock(mutex_);
        progressed_.wait(lock, [&] { return stop_requested_; });
      }
      continue;
    }
    Result<std::vector<eventstore::EventRecord>> events =
        store_.ReadAll(GlobalPosition(next), batch_size);
    if (!events) return Finish(Fail(events.error()));
    if (events->empty()) {
      return Finish(Fail(ErrorCode::kCorruption, "the log reports events from position " +
                                                     std::to_string(next) + " but returns none"));
    }
    if (Status applied = runner_.Apply(*events); !applied) return Finish(applied);
    {
      std::lock_guard lock(mutex_);
      position_ = runner_.position();
    }
    progressed_.notify_all();
  }
  Finish({});
}

void Projector::Finish(Status status) {
  {
    std::lock_guard lock(mutex_);
    running_ = false;
    if (!status) health_ = std::move(status);
  }
  progressed_.notify_all();
}

bool Projector::WaitFor(uint64_t size, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  progressed_.wait_for(lock, timeout, [&] { return position_ >= size || !running_; });
  return position_ >= size;
}

uint64_t Projector::position() const {
  std::lock_guard lock(mutex_);
  return position_;
}

Status Projector::health() const {
  std::lock_guard lock(mutex_);
  return health_;
}

bool Projector::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

}  // namespace esign::projections
