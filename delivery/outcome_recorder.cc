#include "delivery/outcome_recorder.h"

#include <algorithm>
#include <chrono>

#include "base/thread_name.h"
#include "delivery/log_line.h"

namespace esign::delivery {

OutcomeRecorder::OutcomeRecorder(Write write, size_t max_batch)
    : write_(std::move(write)), max_batch_(std::max<size_t>(1, max_batch)) {
  thread_ = std::jthread([this](const std::stop_token& stop) {
    NameThisThread("esign-outcomes");
    Run(stop);
  });
}

OutcomeRecorder::~OutcomeRecorder() { Stop(); }

void OutcomeRecorder::Record(Delivery delivery) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  ++handed_;
  queued_[delivery.id] = {handed_, delivery.state};
  queue_.push_back({std::move(delivery), {}, handed_});
  changed_.notify_all();
}

std::optional<DeliveryState> OutcomeRecorder::QueuedState(const std::string& delivery_id) const {
  std::lock_guard lock(mutex_);
  const auto it = queued_.find(delivery_id);
  if (it == queued_.end()) return std::nullopt;
  return it->second.state;
}

void OutcomeRecorder::After(std::function<void()> action) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  ++handed_;
  queue_.push_back({std::nullopt, std::move(action), handed_});
  changed_.notify_all();
}

bool OutcomeRecorder::Flush(const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  const uint64_t target = handed_;
  return changed_.wait(lock, stop, [&] { return done_ >= target; });
}

void OutcomeRecorder::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  // The thread ends once the queue is empty (Run), and nothing is queued after stopping_.
  thread_.request_stop();
  thread_.join();
}

void OutcomeRecorder::Run(const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, stop, [&] { return !queue_.empty(); });
    if (queue_.empty()) return;  // stopped with nothing left
    // A batch: the records at the front, up to max_batch_, and the actions among and behind them
    // up to the next record that does not fit.
    std::vector<Delivery> records;
    std::vector<uint64_t> numbers;  // of the records
    std::vector<std::function<void()>> actions;
    size_t taken = 0;
    for (Item& item : queue_) {
      if (item.delivery) {
        if (records.size() == max_batch_) break;
        records.push_back(std::move(*item.delivery));
        numbers.push_back(item.number);
      }
      if (item.action) actions.push_back(std::move(item.action));
      ++taken;
    }
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(taken));
    lock.unlock();
    // Written again until it holds; at a stop, one try.
    for (;;) {
      const Status written = records.empty() ? Status() : write_(records);
      if (written) break;
      LogLine("delivery", "recording " + std::to_string(records.size()) +
                              " outcomes failed: " + written.error().message);
      if (stop.stop_requested()) {
        actions.clear();  // their messages stay unsettled
        break;
      }
      lock.lock();
      changed_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; });
      lock.unlock();
    }
    for (const std::function<void()>& action : actions) action();
    lock.lock();
    // Written, or dropped at the stop: the store has the last record now, unless a later one
    // of the same delivery waits.
    for (size_t i = 0; i < records.size(); ++i) {
      const auto it = queued_.find(records[i].id);
      if (it != queued_.end() && it->second.number == numbers[i]) queued_.erase(it);
    }
    done_ += taken;
    changed_.notify_all();
  }
}

}  // namespace esign::delivery
