// Completion: how a caller of the appender sleeps until its append is answered, and how the
// appender wakes a whole batch of callers cheaply.
//
// Each caller sleeps on its own Linux futex word. The appender marks a batch done and wakes only
// its first caller; every woken caller then wakes two more (a binary tree over the batch). Waking
// dozens of callers thus costs the appender one system call, and the rest of the work runs on the
// callers' threads while the appender starts the next group commit. A plain futex rather than
// std::atomic::wait, whose libstdc++ implementation spins with sched_yield before sleeping, which
// with many waiters on two cores costs more than the write itself.
//
// A woken caller may return, and free its Completion, as soon as it sees itself done: nobody
// reads a Completion after marking it done, and a late wake-up names only an address (at worst a
// spurious wake-up for whatever sleeps there next, which re-checks its own flag).
//
// Thread safety: Complete from one thread per batch; Wait from the owning caller only.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <span>

namespace esign::eventstore {

class Completion {
 public:
  // Sleeps until Complete has marked this done, then passes the wake-up on.
  void Wait() {
    while (done_.load(std::memory_order_acquire) == 0) {
      // The kernel sleeps only while the word is still 0: a completion in between is not missed.
      syscall(SYS_futex, &done_, FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
    }
    for (std::atomic<uint32_t>* child : children_) {
      if (child != nullptr) Wake(child);
    }
  }

  // Marks every member of `batch` done and wakes them all, through the tree.
  static void Complete(std::span<Completion* const> batch) {
    const size_t n = batch.size();
    for (size_t i = 0; i < n; ++i) {
      batch[i]->children_[0] = 2 * i + 1 < n ? &batch[2 * i + 1]->done_ : nullptr;
      batch[i]->children_[1] = 2 * i + 2 < n ? &batch[2 * i + 2]->done_ : nullptr;
    }
    // The release stores publish the children to the waiters' acquire loads.
    for (Completion* member : batch) member->done_.store(1, std::memory_order_release);
    if (n > 0) Wake(&batch[0]->done_);
  }

 private:
  static void Wake(std::atomic<uint32_t>* word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }

  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));
  std::atomic<uint32_t> done_{0};
  std::atomic<uint32_t>* children_[2] = {nullptr, nullptr};
};

}  // namespace esign::eventstore
