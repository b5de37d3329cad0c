#include "base/work_queue.h"

#include <algorithm>

#include "base/thread_name.h"

namespace esign {
namespace {

thread_local const WorkQueue* current_queue = nullptr;

}  // namespace

WorkQueue::WorkQueue(size_t threads, size_t capacity, const std::string& thread_name)
    : capacity_(capacity) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads_.reserve(threads);
  for (size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([this, thread_name] {
      NameThisThread(thread_name);
      Loop();
    });
  }
}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

bool WorkQueue::TryPost(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(task));
  }
  ready_.notify_one();
  return true;
}

size_t WorkQueue::waiting() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

bool WorkQueue::OnQueueThread() const { return current_queue == this; }

void WorkQueue::Loop() {
  current_queue = this;
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

}  // namespace esign
