// DeliveryTally: what /metrics tells of one channel's deliveries without reading its records: the
// pending ones (how many, and when the oldest was created) and the outcomes recorded since the
// process started. DeliveryStore keeps one and shows it every record it writes; a store opened
// on existing records shows it their pending ones first.
//
// A delivery counts as sent or failed when a record of it that was pending here becomes final,
// so a final record written again (a dispatcher's record read twice) is not counted twice. Failed
// attempts are the attempts added to a pending delivery that did not end it successfully.
// Memory: one small entry per pending delivery.
// Thread safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace esign::delivery {

struct Delivery;  // delivery_store.h

class DeliveryTally {
 public:
  struct Counts {
    uint64_t pending = 0;
    std::optional<int64_t> oldest_pending_created_us;  // none when nothing is pending
    uint64_t sent = 0;                                 // since the process started
    uint64_t failed = 0;                               // failed for good, since the process started
    uint64_t failed_attempts = 0;                      // since the process started
  };

  // `delivery` as it was just written.
  void Saw(const Delivery& delivery);
  Counts counts() const;

 private:
  struct Pending {
    int64_t created_us = 0;
    size_t attempts = 0;
  };

  mutable std::mutex mutex_;
  std::unordered_map<std::string, Pending> pending_;  // guarded by mutex_
  std::multiset<int64_t> created_;                    // guarded by mutex_: of pending_
  Counts totals_;  // guarded by mutex_; its pending members unused
};

}  // namespace esign::delivery
