// The write path of the RocksDB store: callers queue their append and sleep; one appender thread
// takes every queued append, decides them together, and makes them durable with one synced
// WriteBatch (group commit). Throughput comes from that batching: one WAL sync serves the batch.
#include <algorithm>
#include <atomic>
#include <utility>

#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"

namespace esign::eventstore {

// Lives on the caller's stack while the caller waits for `done`.
struct RocksEventStore::PendingAppend {
  AppendInput input;
  Result<AppendResult> result;
  std::atomic<uint32_t> done{0};
};

Result<AppendResult> RocksEventStore::Append(std::string_view stream_id, ExpectedVersion expected,
                                             std::vector<NewEvent> events) {
  PendingAppend pending{AppendInput{stream_id, expected, &events}, AppendResult{}};
  {
    std::lock_guard lock(queue_mutex_);
    if (stopping_) return Fail(ErrorCode::kStorage, "the event store is closed");
    queue_.push_back(&pending);
    if (appender_idle_) {
      appender_idle_ = false;
      queue_ready_.notify_one();
    }
  }
  // A futex wait on the flag: no lock or condition variable to share with other callers. The
  // appender's notify only wakes the address; it never reads `pending` after setting the flag.
  pending.done.wait(0, std::memory_order_acquire);
  return std::move(pending.result);
}

void RocksEventStore::RunAppender() {
  std::vector<PendingAppend*> batch;
  while (true) {
    {
      std::unique_lock lock(queue_mutex_);
      while (queue_.empty() && !stopping_) {
        appender_idle_ = true;
        queue_ready_.wait(lock);
      }
      appender_idle_ = false;
      // Once stopping, the queue is drained before the thread ends.
      if (queue_.empty()) return;
      size_t take = 0;
      size_t events = 0;
      while (take < queue_.size() && (take == 0 || events + queue_[take]->input.events->size() <=
                                                       options_.max_batch_events)) {
        events += queue_[take]->input.events->size();
        ++take;
      }
      if (take == queue_.size()) {
        batch.swap(queue_);
      } else {
        batch.assign(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(take));
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(take));
      }
    }
    WriteBatchOf(batch);
    batch.clear();
  }
}

void RocksEventStore::WriteBatchOf(std::vector<PendingAppend*>& batch) {
  inputs_.clear();
  for (const PendingAppend* pending : batch) inputs_.push_back(pending->input);
  const uint64_t base = size_.load(std::memory_order_relaxed);
  planner_->Plan(inputs_, base, clock_.NowMicros(), plan_);

  batch_.Clear();
  fresh_nodes_.clear();
  // Work on a copy, so a failed write leaves the appender's frontier as it was.
  MerkleFrontier frontier = work_frontier_;
  std::string raw;
  for (size_t i = 0; i < plan_.records.size(); ++i) {
    const EventRecord& record = plan_.records[i];
    raw = CanonicalBytes(record);
    frontier.Append(LeafHash(raw), fresh_nodes_);
    const U64Key position = EncodeU64(record.position.value());
    const rocksdb::Slice position_slice(position.data(), position.size());
    const EventIdValue id_entry = EncodeEventIdEntry(plan_.id_entries[i]);
    batch_.Put(events_, position_slice, raw).PermitUncheckedError();
    batch_.Put(streams_, StreamKey(record.stream_id, record.version), position_slice)
        .PermitUncheckedError();
    batch_.Put(event_ids_, record.event_id, rocksdb::Slice(id_entry.data(), id_entry.size()))
        .PermitUncheckedError();
  }
  for (const NewNode& node : fresh_nodes_) {
    const NodeKey key = EncodeNodeKey(node.id);
    batch_
        .Put(ledger_nodes_, rocksdb::Slice(key.data(), key.size()),
             rocksdb::Slice(reinterpret_cast<const char*>(node.hash.data()), node.hash.size()))
        .PermitUncheckedError();
  }

  rocksdb::Status written;
  if (!plan_.records.empty()) {
    rocksdb::WriteOptions write;
    write.sync = options_.sync;
    written = db_->Write(write, &batch_);
  }

  if (written.ok()) {
    planner_->Commit(plan_);
    // The cache only grows left to right; a failure here is a bug and must not lose the answer
    // already made durable, so it is ignored: reads fall back to RocksDB for missing nodes.
    static_cast<void>(node_cache_.Add(fresh_nodes_));
    work_frontier_ = frontier;
    {
      std::lock_guard lock(state_mutex_);
      frontier_ = std::move(frontier);
      size_.store(base + plan_.records.size(), std::memory_order_release);
    }
    size_changed_.notify_all();
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i]->result = std::move(plan_.appends[i].outcome);
    }
  } else {
    const Error error = FailFromRocks(written, "appending to the log").error();
    for (PendingAppend* pending : batch) pending->result = Fail(error);
  }
  for (PendingAppend* pending : batch) {
    pending->done.store(1, std::memory_order_release);
    pending->done.notify_one();
  }
}

}  // namespace esign::eventstore
