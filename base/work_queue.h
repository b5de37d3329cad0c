// WorkQueue: a fixed few threads of its own and a queue of bounded length in front of them.
// With a small capacity it guards costly work that anyone may ask for (checking a client secret:
// one PBKDF2 run): when the queue is full a new task is refused at once instead of waiting, so a
// flood of such requests neither holds the request workers nor grows memory, and the caller can
// answer 503 straight away. With an unbounded one it keeps CPU-bound work (rendering) to a number
// of threads, queued in turn.
//
// Thread safety: TryPost may be called from any thread, a pool thread included. The destructor
// runs what is queued, then joins its threads.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace esign {

class WorkQueue {
 public:
  static constexpr size_t kUnbounded = std::numeric_limits<size_t>::max();

  // `threads`: 0 means one per core (std::thread::hardware_concurrency, at least 1).
  // `capacity`: tasks waiting for a thread (the ones running not counted).
  // `thread_name`: of its threads (base/thread_name.h).
  explicit WorkQueue(size_t threads, size_t capacity = kUnbounded,
                     const std::string& thread_name = "esign-queue");
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues `task`; false (and `task` dropped unrun) when `capacity` tasks are already waiting.
  bool TryPost(std::function<void()> task);

  size_t threads() const { return threads_.size(); }
  size_t waiting() const;
  // Whether the calling thread is one of this queue's.
  bool OnQueueThread() const;

 private:
  void Loop();

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;  // guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
  std::vector<std::thread> threads_;
};

}  // namespace esign
