#include "delivery/delivery_tally.h"

#include "delivery/delivery_store.h"

namespace esign::delivery {

void DeliveryTally::Saw(const Delivery& delivery) {
  const std::lock_guard lock(mutex_);
  const auto known = pending_.find(delivery.id);
  if (known == pending_.end()) {
    // A record not pending here before: only a pending one is of interest (a final one was
    // counted when it became final, or ended before this process started).
    if (delivery.state == DeliveryState::kPending) {
      pending_.emplace(delivery.id, Pending{delivery.created_us, delivery.attempts.size()});
      created_.insert(delivery.created_us);
    }
    return;
  }
  const size_t added = delivery.attempts.size() > known->second.attempts
                           ? delivery.attempts.size() - known->second.attempts
                           : 0;
  const bool sent = delivery.state == DeliveryState::kSucceeded;
  totals_.failed_attempts += sent && added > 0 ? added - 1 : added;
  if (delivery.state == DeliveryState::kPending) {
    known->second.attempts = delivery.attempts.size();
    return;
  }
  (sent ? totals_.sent : totals_.failed) += 1;
  created_.erase(created_.find(known->second.created_us));
  pending_.erase(known);
}

DeliveryTally::Counts DeliveryTally::counts() const {
  const std::lock_guard lock(mutex_);
  Counts counts = totals_;
  counts.pending = pending_.size();
  if (!created_.empty()) counts.oldest_pending_created_us = *created_.begin();
  return counts;
}

}  // namespace esign::delivery
