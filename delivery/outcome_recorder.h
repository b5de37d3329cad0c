// OutcomeRecorder: the records of attempts written off the senders' path, many in one write.
//
// A sender hands over a delivery as it stands after an attempt and goes on with its next one; a
// thread of the recorder writes whatever has queued meanwhile with one call of `write`, then runs,
// in order, the actions queued behind those records (After). An action queued after a record runs
// only once that record is written, so a message is settled only once the outcome it caused is
// recorded (at-least-once holds: nothing is acknowledged before its record). When `write` fails,
// the same batch is written again a second later and its actions wait; at Stop, what could not be
// written is dropped with its actions, so their messages stay unsettled and are read again.
//
// Records of one delivery are written in the order they were handed over; a read of the store
// may see a record up to one batch late.
//
// Thread safety: every method may be called from any thread; `write` and the actions run on the
// recorder's thread, never with its lock held.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "delivery/delivery_store.h"

namespace esign::delivery {

class OutcomeRecorder {
 public:
  // Writes every delivery given, or fails.
  using Write = std::function<Status(const std::vector<Delivery>&)>;

  // `max_batch`: deliveries written together at most (at least 1).
  OutcomeRecorder(Write write, size_t max_batch = 512);
  ~OutcomeRecorder();  // Stop
  OutcomeRecorder(const OutcomeRecorder&) = delete;
  OutcomeRecorder& operator=(const OutcomeRecorder&) = delete;

  void Record(Delivery delivery);
  // The state of the delivery's last record handed over and not yet written; nothing when none
  // waits (then the store has its last record).
  std::optional<DeliveryState> QueuedState(const std::string& delivery_id) const;
  // Runs `action` once every record handed over before it is written.
  void After(std::function<void()> action);
  // Returns once everything handed over before the call is written and its actions have run (or
  // were dropped by Stop): true; false when `stop` was requested first.
  bool Flush(const std::stop_token& stop = {});
  // Writes what is queued (one attempt per batch, no retry), runs the actions of what was
  // written, and ends the thread. Records and actions handed over later are dropped.
  void Stop();

 private:
  struct Item {
    std::optional<Delivery> delivery;
    std::function<void()> action;
    uint64_t number = 0;  // handed_ when it was handed over
  };
  struct Queued {
    uint64_t number = 0;  // of the delivery's last record handed over
    DeliveryState state = DeliveryState::kPending;
  };
  void Run(const std::stop_token& stop);

  const Write write_;
  const size_t max_batch_;
  mutable std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<Item> queue_;  // guarded by mutex_
  // Guarded by mutex_: by delivery id, its records handed over and not yet written.
  std::unordered_map<std::string, Queued> queued_;
  uint64_t handed_ = 0;    // guarded by mutex_: items ever queued
  uint64_t done_ = 0;      // guarded by mutex_: items written and run, or dropped
  bool stopping_ = false;  // guarded by mutex_
  std::jthread thread_;
};

}  // namespace esign::delivery
