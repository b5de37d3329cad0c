#include "eventstore/sync_grouping.h"

#include <algorithm>

namespace esign::eventstore {

void SyncGrouping::Synced(std::chrono::nanoseconds took) {
  // An average over about the last eight syncs: one slow sync does not make every wait long.
  const std::chrono::nanoseconds average =
      recent_sync_.count() == 0 ? took : (recent_sync_ * 7 + took) / 8;
  recent_sync_ = std::min(average, kMaxWait);
}

}  // namespace esign::eventstore
