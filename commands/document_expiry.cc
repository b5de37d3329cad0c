#include "commands/document_expiry.h"

#include <algorithm>

#include "base/thread_name.h"

namespace esign::commands {

DocumentExpiry::DocumentExpiry(DocumentCommands& documents, const Clock& clock,
                               DocumentExpiryOptions options)
    : documents_(documents), clock_(clock), options_(std::move(options)) {}

DocumentExpiry::~DocumentExpiry() { Stop(); }

void DocumentExpiry::Start() {
  std::lock_guard lock(mutex_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] {
    NameThisThread("esign-expiry");
    Run();
  });
}

void DocumentExpiry::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DocumentExpiry::Wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_.notify_all();
}

std::chrono::milliseconds DocumentExpiry::NextSleep() {
  auto next = documents_.NextExpiry();
  if (!next) return options_.retry_after;
  if (!*next) return options_.max_sleep;
  const int64_t wait_us = **next - clock_.NowMicros();
  const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::microseconds(std::max<int64_t>(0, wait_us)));
  // A row not yet projected, or a deletion that failed, must not spin.
  return std::clamp(wait, std::chrono::milliseconds(100), options_.max_sleep);
}

void DocumentExpiry::Run() {
  for (;;) {
    std::chrono::milliseconds sleep = options_.retry_after;
    auto deleted = documents_.DeleteExpired();
    if (!deleted) {
      if (options_.log) options_.log("deleting expired uploads failed: " + deleted.error().message);
    } else {
      sleep = *deleted >= documents_.options().deletions_per_sweep ? std::chrono::milliseconds(0)
                                                                   : NextSleep();
    }
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, sleep, [this] { return stopping_ || woken_; });
    if (stopping_) return;
    woken_ = false;
  }
}

}  // namespace esign::commands
