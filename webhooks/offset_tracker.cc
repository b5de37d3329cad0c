#include "webhooks/offset_tracker.h"

#include <algorithm>
#include <set>

namespace esign::webhooks {

void OffsetTracker::Consumed(const TopicPartition& partition, int64_t offset,
                             const std::vector<std::string>& pending_deliveries) {
  PartitionState& state = partitions_[partition];
  state.next = std::max(state.next, offset + 1);
  for (const std::string& id : pending_deliveries) {
    ++state.held[offset];
    holds_[id].push_back({partition, offset});
  }
}

void OffsetTracker::Settled(const std::string& delivery_id) {
  auto it = holds_.find(delivery_id);
  if (it == holds_.end()) return;
  for (const Hold& hold : it->second) {
    auto partition = partitions_.find(hold.partition);
    if (partition == partitions_.end()) continue;
    auto held = partition->second.held.find(hold.offset);
    if (held != partition->second.held.end() && --held->second == 0) {
      partition->second.held.erase(held);
    }
  }
  holds_.erase(it);
}

std::vector<std::string> OffsetTracker::Revoke(const std::vector<TopicPartition>& partitions) {
  const std::set<TopicPartition> revoked(partitions.begin(), partitions.end());
  for (const TopicPartition& p : revoked) partitions_.erase(p);
  std::vector<std::string> released;
  for (auto it = holds_.begin(); it != holds_.end();) {
    std::erase_if(it->second, [&](const Hold& h) { return revoked.contains(h.partition); });
    if (it->second.empty()) {
      released.push_back(it->first);
      it = holds_.erase(it);
    } else {
      ++it;
    }
  }
  return released;
}

std::vector<std::pair<TopicPartition, int64_t>> OffsetTracker::TakeCommittable() {
  std::vector<std::pair<TopicPartition, int64_t>> moved;
  for (auto& [partition, state] : partitions_) {
    const int64_t committable = state.held.empty() ? state.next : state.held.begin()->first;
    if (committable != state.reported) {
      state.reported = committable;
      moved.emplace_back(partition, committable);
    }
  }
  return moved;
}

}  // namespace esign::webhooks
