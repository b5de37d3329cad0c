#include "projections/projector.h"

#include <algorithm>
#include <utility>

namespace esign::projections {

Projector::Projector(const eventstore::EventStore& store, ViewStore& views,
                     const std::vector<Projection*>& projections, ProjectorOptions options)
    : runner_(views, projections),
      subscription_(store, GlobalPosition(0),
                    eventstore::CatchUpSubscription::BatchHandler(
                        [this](const std::vector<eventstore::EventRecord>& events,
                               const std::stop_token& /*stop*/) { return Apply(events); }),
                    {.batch_size = std::max<size_t>(options.batch_size, 1),
                     .idle_wait = options.idle_wait,
                     .thread_name = std::move(options.thread_name)}) {}

Projector::~Projector() { Stop(); }

Status Projector::Start() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  if (started_) return Fail(ErrorCode::kInternal, "the projector was already started");
  Status loaded = runner_.Load();
  {
    std::lock_guard lock(mutex_);
    load_error_ = loaded;
  }
  if (!loaded) return loaded;
  subscription_.Start(GlobalPosition(runner_.position()));
  started_ = true;
  return {};
}

void Projector::Stop() {
  std::lock_guard lifecycle(lifecycle_mutex_);
  subscription_.Stop();
  started_ = false;
}

Result<GlobalPosition> Projector::Apply(const std::vector<eventstore::EventRecord>& events) {
  Status applied = runner_.Apply(events);
  waiting_for_space_.store(!applied && applied.error().code == ErrorCode::kStorageUnavailable,
                           std::memory_order_release);
  if (applied) return GlobalPosition(runner_.position());
  // A full disk refused the commit and nothing of the batch was written: the projections reload
  // what is committed, and the subscription delivers the batch again after a pause.
  if (applied.error().code == ErrorCode::kStorageUnavailable) {
    if (Status loaded = runner_.Load(); !loaded) return std::unexpected(loaded.error());
  }
  return std::unexpected(applied.error());
}

bool Projector::WaitFor(uint64_t size, std::chrono::milliseconds timeout) const {
  return subscription_.WaitForPosition(GlobalPosition(size), timeout);
}

uint64_t Projector::position() const { return subscription_.position().value(); }

Status Projector::health() const {
  {
    std::lock_guard lock(mutex_);
    if (!load_error_) return load_error_;
  }
  return subscription_.status();
}

bool Projector::running() const { return subscription_.running(); }

}  // namespace esign::projections
