// The replicated log as the RocksDB store sees it (DESIGN 22). With one, the store writes nothing
// of its own before the log has it: each append batch, blob and signed tree head is published
// first, and written locally, with the log's mark, only once the log acknowledged it as the entry
// that counts (log_fence.h). Entries published by another node come back through
// RocksEventStore::ApplyLogEntry.
//
// Thread safety: the store calls Publish on its appender thread only, one entry at a time.
#pragma once

#include <cstdint>

#include "domain/result.h"
#include "eventstore/log_entry.h"

namespace esign::eventstore {

// How far a store has applied the replicated log, stored with every entry it applies: where to
// read on from, and the epoch of the newest claim it applied.
struct LogMark {
  uint64_t next_offset = 0;
  uint64_t epoch = 0;
  friend bool operator==(const LogMark&, const LogMark&) = default;
};

class LogReplication {
 public:
  virtual ~LogReplication() = default;
  // Whether this node may write: an error (kUnavailable, naming the writer) on a standby or a
  // writer that was fenced, checked before an append is planned.
  virtual Status Writable() const = 0;
  // Fills in the entry's epoch and size, publishes it, and answers the mark to store with it once
  // the log acknowledged it as the entry that counts. Any error means it is not acknowledged (it
  // may still be in the log: whatever counts is applied before the next entry is published).
  virtual Result<LogMark> Publish(LogEntry& entry) = 0;
};

}  // namespace esign::eventstore
