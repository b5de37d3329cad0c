#include "eventstore/log_fence.h"

namespace esign::eventstore {

bool LogFence::Admits(const LogEntry& entry) const {
  if (entry.kind == LogEntryKind::kClaim) {
    return entry.epoch > epoch && entry.size == size && entry.root == root;
  }
  return epoch != 0 && entry.epoch == epoch && entry.size == size;
}

void LogFence::Apply(const LogEntry& entry) {
  if (entry.kind == LogEntryKind::kClaim) {
    epoch = entry.epoch;
  } else if (entry.kind == LogEntryKind::kBatch) {
    size += entry.records.size();
    root = entry.root;
  }
}

}  // namespace esign::eventstore
