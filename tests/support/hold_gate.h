// A gate a test closes to stop other threads at a point of their own (inside a file system's
// write or sync), waits until one is stopped there, and opens again.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <condition_variable>
#include <mutex>

namespace esign::testing {

class HoldGate {
 public:
  void Hold() {
    std::lock_guard lock(mutex_);
    held_ = true;
  }
  void Release() {
    {
      std::lock_guard lock(mutex_);
      held_ = false;
    }
    changed_.notify_all();
  }
  // Waits until a thread waits at the gate.
  void AwaitHeld() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return waiting_ > 0; });
  }
  // Where the held threads stop: returns at once while the gate is open.
  void WaitWhileHeld() {
    std::unique_lock lock(mutex_);
    if (!held_) return;
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return !held_; });
    --waiting_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false;  // guarded by mutex_
  int waiting_ = 0;    // guarded by mutex_
};

}  // namespace esign::testing
