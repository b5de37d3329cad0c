// RenderPool: a few threads of its own on which PDFs are rendered, so that a burst of sends
// queues for a core instead of rendering all at once. Rendering is CPU-bound: 64 renders sharing
// 2 cores each take 64 times as long (a p99 over a second), while queued ones finish in turn.
// Its threads also keep their pango font maps and caches warm: a render on a fresh thread pays a
// fontconfig scan first.
//
// Thread safety: Run may be called from any thread at once; it blocks its caller (a worker, never
// an I/O thread) until the task has run. Called from a pool thread, it runs the task inline, so
// nested rendering cannot deadlock. The destructor runs what is queued, then joins.
#pragma once

#include <cstddef>
#include <future>
#include <type_traits>
#include <utility>

#include "base/work_queue.h"

namespace esign::documents {

class RenderPool {
 public:
  // `threads`: 0 means one per core (std::thread::hardware_concurrency, at least 1).
  explicit RenderPool(size_t threads = 0)
      : queue_(threads, WorkQueue::kUnbounded, "esign-render") {}

  size_t threads() const { return queue_.threads(); }

  // Runs `task` on a pool thread and returns its result.
  template <typename Task>
  std::invoke_result_t<Task&> Run(Task&& task) {
    if (queue_.OnQueueThread()) return task();
    std::packaged_task<std::invoke_result_t<Task&>()> packaged(std::forward<Task>(task));
    auto result = packaged.get_future();
    queue_.TryPost([&packaged] { packaged(); });  // unbounded: always queued
    return result.get();
  }

 private:
  WorkQueue queue_;
};

}  // namespace esign::documents
