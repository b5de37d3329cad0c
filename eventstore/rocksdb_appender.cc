// The write path of the RocksDB store, in three steps on three kinds of threads:
//   callers   queue their append and sleep (Completion);
//   appender  takes every queued append, decides them together (AppendPlanner) and writes their
//             records, index entries and ledger nodes in one WriteBatch, without syncing;
//   syncer    syncs the WAL once for every batch written since its last sync (its files directly,
//             wal_files.h), publishes the new size and root, and wakes the callers.
// The appender writes batch N+1 while the syncer waits for the disk on batch N, so neither the
// disk nor the CPU waits for the other. Throughput comes from that batching: one WAL sync serves
// every append of one or more batches.
//
// A full disk fails a write with NoSpace before anything of it is applied: its appends are answered
// kStorageUnavailable, the planner and frontier stay as they were, and RocksDB stops taking writes
// (a background error) until a recovery flushes the memtables to new files. The appender asks for
// one (full_disk_recovery.h) when an append arrives while the disk is full, so writes resume with
// the first append after space returns. A failed WAL sync is
// different: it latches failed_ (see rocksdb_event_store.h). A batch written before another
// writer's write failed is still synced and acknowledged: its bytes precede the failed record.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "base/thread_name.h"
#include "eventstore/completion.h"
#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"

namespace esign::eventstore {
namespace {

std::unexpected<Error> Refused() {
  return Fail(ErrorCode::kStorage,
              "the event store refuses appends: a WAL sync failed; reopen the store");
}

}  // namespace

// Lives on the caller's stack while the caller waits; an AppendAsync's lives on the heap, owns
// what its input points to, and is answered through its callback instead of a wake-up.
struct RocksEventStore::PendingAppend {
  AppendInput input;
  Result<AppendResult> result;
  Completion done;
  AppendCallback callback;
  std::string owned_stream_id;
  std::vector<NewEvent> owned_events;
  // RunOnAppender's work instead of an append: run alone, between two batches.
  std::function<Status()> task;
  Status task_result;
};

Result<AppendResult> RocksEventStore::Append(std::string_view stream_id, ExpectedVersion expected,
                                             std::vector<NewEvent> events) {
  if (failed_.load(std::memory_order_acquire)) return Refused();
  if (Status checked = CheckAppend(stream_id, events); !checked) return Fail(checked.error());
  if (options_.replication != nullptr) {
    if (Status writable = options_.replication->Writable(); !writable)
      return Fail(writable.error());
  }
  PendingAppend pending{AppendInput{stream_id, expected, &events}, AppendResult{}, {}};
  {
    std::lock_guard lock(queue_mutex_);
    if (stopping_) return Fail(ErrorCode::kStorage, "the event store is closed");
    queue_.push_back(&pending);
    unanswered_.fetch_add(1, std::memory_order_relaxed);
    if (appender_idle_) {
      appender_idle_ = false;
      queue_ready_.notify_one();
    }
  }
  pending.done.Wait();
  return std::move(pending.result);
}

void RocksEventStore::AppendAsync(std::string_view stream_id, ExpectedVersion expected,
                                  std::vector<NewEvent> events, AppendCallback done) {
  if (failed_.load(std::memory_order_acquire)) return done(Refused());
  if (Status checked = CheckAppend(stream_id, events); !checked) {
    return done(Fail(checked.error()));
  }
  if (options_.replication != nullptr) {
    if (Status writable = options_.replication->Writable(); !writable) {
      return done(Fail(writable.error()));
    }
  }
  auto pending = std::make_unique<PendingAppend>();
  pending->owned_stream_id = std::string(stream_id);
  pending->owned_events = std::move(events);
  pending->input = AppendInput{pending->owned_stream_id, expected, &pending->owned_events};
  pending->callback = std::move(done);
  {
    std::lock_guard lock(queue_mutex_);
    if (!stopping_) {
      queue_.push_back(pending.release());
      unanswered_.fetch_add(1, std::memory_order_relaxed);
      if (appender_idle_) {
        appender_idle_ = false;
        queue_ready_.notify_one();
      }
      return;
    }
  }
  pending->callback(Fail(ErrorCode::kStorage, "the event store is closed"));
}

Status RocksEventStore::RunOnAppender(std::function<Status()> task) {
  auto pending = std::make_unique<PendingAppend>();
  pending->task = std::move(task);
  {
    std::lock_guard lock(queue_mutex_);
    if (stopping_) return Fail(ErrorCode::kStorage, "the event store is closed");
    queue_.push_back(pending.get());
    if (appender_idle_) {
      appender_idle_ = false;
      queue_ready_.notify_one();
    }
  }
  pending->done.Wait();
  return std::move(pending->task_result);
}

void RocksEventStore::RunAppender() {
  NameThisThread("esign-appender");
  std::vector<PendingAppend*> batch;
  while (true) {
    // Before the batch is taken, so that appends arriving while the gate holds it join it.
    if (const AppendGate* gate = gate_.load(std::memory_order_acquire)) {
      gate->BeforeBatch(written_size_);
    }
    {
      std::unique_lock lock(queue_mutex_);
      while (queue_.empty() && !stopping_) {
        appender_idle_ = true;
        queue_ready_.wait(lock);
      }
      appender_idle_ = false;
      // Once stopping, the queue is drained before the thread ends.
      if (queue_.empty()) return;
      // A task runs alone; appends are taken up to the first task or the batch's size.
      // With a replicated log, a batch is also kept to about one log entry's worth of data.
      size_t take = 0;
      size_t events = 0;
      size_t bytes = 0;
      while (
          take < queue_.size() && !(take > 0 && queue_[take]->task) &&
          (take == 0 || (events + queue_[take]->input.events->size() <= options_.max_batch_events &&
                         (options_.replication == nullptr || bytes < kLogBlobChunkBytes)))) {
        if (queue_[take]->task) {
          ++take;
          break;
        }
        events += queue_[take]->input.events->size();
        if (options_.replication != nullptr) {
          for (const NewEvent& event : *queue_[take]->input.events) bytes += event.data.size();
        }
        ++take;
      }
      if (take == queue_.size()) {
        batch.swap(queue_);
      } else {
        batch.assign(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(take));
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(take));
      }
    }
    if (batch.front()->task) {
      PendingAppend* task = batch.front();
      task->task_result = task->task();
      Completion* done = &task->done;
      Completion::Complete(std::span<Completion* const>(&done, 1));
    } else {
      WriteBatchOf(batch);
    }
    batch.clear();
  }
}

void RocksEventStore::WriteBatchOf(std::vector<PendingAppend*>& batch) {
  WrittenBatch out;
  out.requests = batch;
  if (failed_.load(std::memory_order_acquire)) {
    for (PendingAppend* pending : batch) pending->result = Refused();
  } else {
    inputs_.clear();
    for (const PendingAppend* pending : batch) inputs_.push_back(pending->input);
    full_disk_.BeforeWrite(*db_);
    planner_->Plan(inputs_, written_size_, clock_.NowMicros(), plan_);

    batch_.Clear();
    fresh_nodes_.clear();
    // Work on a copy, so a failed write leaves the appender's frontier as it was.
    MerkleFrontier frontier = work_frontier_;
    std::string raw;
    const bool replicated = options_.replication != nullptr && !plan_.records.empty();
    raws_.clear();
    for (size_t i = 0; i < plan_.records.size(); ++i) {
      const EventRecord& record = plan_.records[i];
      raw = CanonicalBytes(record);
      frontier.Append(LeafHash(raw), fresh_nodes_);
      PutRecord(batch_, raw, record.stream_id, record.event_id, plan_.id_entries[i]);
      if (replicated) raws_.push_back(std::move(raw));
    }
    PutNodes(batch_, fresh_nodes_);

    // The replicated log first: nothing is written here that the log has not acknowledged.
    const Status published = replicated ? PublishBatch(frontier.Root()) : Status{};
    rocksdb::Status written;
    if (!published) {
      for (PendingAppend* pending : batch) pending->result = Fail(published.error());
    } else if (!plan_.records.empty()) {
      rocksdb::WriteOptions write;
      write.sync = options_.sync && !options_.pipelined_sync;
      written = db_->Write(write, &batch_);
    }
    if (!published) {
      // Answered above; the plan is dropped.
    } else if (written.ok()) {
      if (!plan_.records.empty()) {
        full_disk_.AfterWrite(written);
        if (std::exchange(refusing_logged_, false)) Log("appends resume: the disk has space again");
      }
      if (!plan_.records.empty()) {
        planner_->Commit(plan_);
        // The cache only grows left to right, so this cannot fail; were it to, proofs would still
        // read the missing nodes from RocksDB.
        static_cast<void>(node_cache_.Add(fresh_nodes_));
        written_size_ += plan_.records.size();
        work_frontier_ = frontier;
        out.wrote = true;
        out.size = written_size_;
        out.frontier = std::move(frontier);
      }
      for (size_t i = 0; i < batch.size(); ++i) {
        batch[i]->result = std::move(plan_.appends[i].outcome);
      }
    } else {
      const Error error = FailFromRocks(written, "appending to the log").error();
      if (replicated) {
        // The replicated log has the batch and this store does not: it stops here, and its next
        // open applies the batch from the log (its mark is before it).
        failed_.store(true, std::memory_order_release);
        Log("a batch the replicated log acknowledged could not be written here (" + error.message +
            "); appends are refused until the store is reopened, which applies it from the log");
      } else if (error.code == ErrorCode::kStorageUnavailable) {
        full_disk_.AfterWrite(written);
        if (!std::exchange(refusing_logged_, true)) {
          Log("appends refused until space returns: " + error.message);
        }
      }
      for (PendingAppend* pending : batch) pending->result = Fail(error);
    }
  }

  // Even batches that wrote nothing go through the syncer: a replay or a conflict may rest on a
  // batch whose sync is still pending, and must not be answered before it.
  HandToSyncer(std::move(out));
}

void RocksEventStore::PutRecord(rocksdb::WriteBatch& batch, std::string_view raw,
                                std::string_view stream_id, std::string_view event_id,
                                const EventIdEntry& id_entry) {
  const U64Key position = EncodeU64(id_entry.position.value());
  const rocksdb::Slice position_slice(position.data(), position.size());
  const EventIdValue id_value = EncodeEventIdEntry(id_entry);
  batch.Put(events_, position_slice, rocksdb::Slice(raw.data(), raw.size())).PermitUncheckedError();
  batch.Put(streams_, StreamKey(stream_id, id_entry.version), position_slice)
      .PermitUncheckedError();
  batch
      .Put(event_ids_, rocksdb::Slice(event_id.data(), event_id.size()),
           rocksdb::Slice(id_value.data(), id_value.size()))
      .PermitUncheckedError();
}

void RocksEventStore::PutNodes(rocksdb::WriteBatch& batch, const std::vector<NewNode>& nodes) {
  for (const NewNode& node : nodes) {
    const NodeKey key = EncodeNodeKey(node.id);
    batch
        .Put(ledger_nodes_, rocksdb::Slice(key.data(), key.size()),
             rocksdb::Slice(reinterpret_cast<const char*>(node.hash.data()), node.hash.size()))
        .PermitUncheckedError();
  }
}

void RocksEventStore::HandToSyncer(WrittenBatch written) {
  std::lock_guard lock(written_mutex_);
  written_requests_ += written.requests.size();
  written_.push_back(std::move(written));
  if (syncer_idle_) {
    syncer_idle_ = false;
    written_ready_.notify_one();
  }
}

void RocksEventStore::Log(const std::string& line) const {
  if (options_.storage_log) options_.storage_log(line);
}

void RocksEventStore::RunSyncer() {
  NameThisThread("esign-syncer");
  std::vector<WrittenBatch> written;
  while (true) {
    {
      std::unique_lock lock(written_mutex_);
      while (written_.empty() && !syncer_stopping_) {
        syncer_idle_ = true;
        written_ready_.wait(lock);
      }
      syncer_idle_ = false;
      if (written_.empty()) return;
      AwaitGroup(lock);
      written.swap(written_);
      written_requests_ = 0;
    }
    SyncAndAnswer(written);
    written.clear();
  }
}

void RocksEventStore::AwaitGroup(std::unique_lock<std::mutex>& written_lock) {
  if (!options_.sync || !options_.pipelined_sync || !options_.group_syncs) return;
  const auto deadline = std::chrono::steady_clock::now() + grouping_.limit();
  while (!syncer_stopping_ && written_requests_ < grouping_.target()) {
    // Idle, so that the appender wakes this thread for every batch it writes.
    syncer_idle_ = true;
    if (written_ready_.wait_until(written_lock, deadline) == std::cv_status::timeout) break;
  }
  syncer_idle_ = false;
}

RocksEventStore::AppendStats RocksEventStore::append_stats() const {
  return {.appends = stat_appends_.load(std::memory_order_relaxed),
          .batches = stat_batches_.load(std::memory_order_relaxed),
          .syncs = stat_syncs_.load(std::memory_order_relaxed)};
}

void RocksEventStore::SyncAndAnswer(std::vector<WrittenBatch>& written) {
  const WrittenBatch* last_written = nullptr;
  for (const WrittenBatch& batch : written) {
    if (batch.wrote) last_written = &batch;
  }
  rocksdb::Status synced;
  if (last_written != nullptr && options_.sync && options_.pipelined_sync &&
      !failed_.load(std::memory_order_acquire)) {
    const auto start = std::chrono::steady_clock::now();
    synced = wal_files_->SyncWritten();
    grouping_.Synced(std::chrono::steady_clock::now() - start);
    stat_syncs_.fetch_add(1, std::memory_order_relaxed);
  }
  if (!synced.ok() || failed_.load(std::memory_order_acquire)) {
    // Written but maybe not durable: nothing of it is published or acknowledged, ever.
    const Error error =
        synced.ok() ? Refused().error() : FailFromRocks(synced, "syncing the log").error();
    failed_.store(true, std::memory_order_release);
    for (WrittenBatch& batch : written) {
      for (PendingAppend* pending : batch.requests) pending->result = Fail(error);
    }
  } else if (last_written != nullptr) {
    {
      std::lock_guard lock(state_mutex_);
      frontier_ = last_written->frontier;
      size_.store(last_written->size, std::memory_order_release);
    }
    size_changed_.notify_all();
  }

  std::vector<Completion*> completions;
  std::vector<std::unique_ptr<PendingAppend>> answered_async;
  for (WrittenBatch& batch : written) {
    for (PendingAppend* pending : batch.requests) {
      if (pending->callback) {
        answered_async.emplace_back(pending);
      } else {
        completions.push_back(&pending->done);
      }
    }
  }
  // Counted before anyone is woken: a woken caller may append again at once.
  const uint64_t answered = completions.size() + answered_async.size();
  grouping_.Answered(unanswered_.fetch_sub(answered, std::memory_order_relaxed));
  stat_appends_.fetch_add(answered, std::memory_order_relaxed);
  stat_batches_.fetch_add(written.size(), std::memory_order_relaxed);
  // Waiting callers first: they are woken through the tree, so the callbacks overlap with them.
  Completion::Complete(completions);
  for (auto& pending : answered_async) pending->callback(std::move(pending->result));
}

}  // namespace esign::eventstore
