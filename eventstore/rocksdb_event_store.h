// RocksEventStore: the durable event store. One RocksDB database in <data_dir>/db holds the log,
// its indexes, the Merkle ledger and the blobs, in column families:
//   events        big-endian u64 position -> canonical record bytes (the ledger leaf)
//   streams       stream id, 0x00, big-endian u64 version -> big-endian position
//   event_ids     event id -> EventIdEntry (store_keys.h), for idempotent retries
//   ledger_nodes  level (u8), big-endian u64 index -> 32-byte perfect-subtree hash
//   tree_heads    big-endian u64 size -> serialized signed tree head
//   blobs         SHA-256 lower-case hex -> bytes
//   projections, checkpoints   written by the layers above, through db() and Family()
// The Ed25519 ledger key is <data_dir>/ledger-key.pem, created with the log: once the log holds
// events or heads, a missing key fails Open (kCorruption) instead of being replaced.
//
// Appends go through one appender thread (group commit): it takes every waiting append, decides
// them together (AppendPlanner), and writes their records, index entries and ledger nodes in one
// WriteBatch. A log record and its ledger nodes therefore share a write, and a crash leaves both
// or neither. A syncer thread then syncs the WAL, publishes the new size and root, and answers
// the callers; while it waits for the disk, the appender already writes the next batch. Nothing
// is acknowledged, and nothing is visible to readers (Size, reads, CurrentVersion, proofs) before
// its sync.
// When a write fails, its appends fail with kStorage, or kStorageUnavailable for a full disk:
// nothing of them was stored, and appends resume by themselves once space returns (see
// rocksdb_appender.cc). When a sync fails, every append not yet answered fails with kStorage and
// the store refuses appends until reopened: a failed fsync leaves unknown what reached the disk,
// so such an append may or may not be found after reopening, and retrying it with the same event
// ids settles which.
//
// Thread safety: every method may be called from any thread. Close() must precede destruction of
// anything the store was given (the clock); the destructor calls it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "domain/clock.h"
#include "eventstore/append_gate.h"
#include "eventstore/append_planner.h"
#include "eventstore/event_store.h"
#include "eventstore/full_disk_recovery.h"
#include "eventstore/log_replication.h"
#include "eventstore/merkle_ledger.h"
#include "eventstore/node_cache.h"
#include "eventstore/sync_grouping.h"
#include "eventstore/wal_files.h"

namespace esign::eventstore {

class RocksAppendIndex;
class RocksNodeSource;
class RocksTreeHeadLog;
class RocksBlobStore;
struct StorageMemory;

struct RocksStoreOptions {
  // Directory of the database (<data_dir>/db) and of the ledger key. Required; created if absent.
  std::string data_dir;
  // Sync the WAL before an append is acknowledged. Default: true.
  bool sync = true;
  // With sync: a second thread syncs the WAL while the appender writes the next batch, and one
  // sync then covers every batch written meanwhile; callers are still answered only after the
  // sync that covers their batch. false: each batch's own Write syncs. Default: true.
  bool pipelined_sync = true;
  // With pipelined_sync: before a sync, wait (at most about one sync's time) for the callers the
  // last sync answered to append again, so one sync covers them all (sync_grouping.h). Default:
  // true.
  bool group_syncs = true;
  // Events decided and written together in one group commit; a single larger append still goes
  // through, alone. Default: 1024.
  size_t max_batch_events = 1024;
  // LRU block cache shared by every column family, with the tables' index and filter blocks in
  // it. Default: 256 MiB. Ignored when `memory` is given.
  size_t block_cache_bytes = size_t{256} << 20;
  // The block cache and memtable budget shared with the process's other databases
  // (storage_memory.h). Default: nullptr (a cache of block_cache_bytes of the store's own, and
  // memtables limited per family only).
  std::shared_ptr<const StorageMemory> memory;
  // Memtable size of each column family. Default: 64 MiB.
  size_t write_buffer_bytes = size_t{64} << 20;
  // Ledger nodes at this level and above stay in memory (about 64 / 2^level bytes per event),
  // so proofs read only the levels below from RocksDB. With every node in memory a proof over a
  // million events takes about 1.5 us; with level 4, about 12 us. Default: 0 (every node).
  uint32_t ledger_cache_min_level = 0;
  // At most about this many bytes of ledger nodes stay in memory: past it the lowest level held
  // is dropped (node_cache.h), and a store opened on a larger log starts at the level that fits
  // half of it. Default: no limit.
  size_t ledger_cache_max_bytes = SIZE_MAX;
  // Stream versions the appender remembers between batches; past this it forgets them all and
  // reloads them on demand. Default: 1,048,576.
  size_t max_cached_streams = size_t{1} << 20;
  // Stamps records and tree heads; must outlive the store. Default: the system clock.
  const Clock* clock = &SystemClock::Instance();
  // RocksDB's access to the operating system, for tests that inject failed writes or syncs; must
  // outlive the store. Default: nullptr (rocksdb::Env::Default()).
  rocksdb::Env* env = nullptr;
  // Opens the database with OpenForReadOnly, for the auditor's tool: it takes no lock, so it
  // works while the service runs, writes nothing and creates nothing (the database and the ledger
  // key must exist), and sees the log as it was at the open. Appends fail with kStorage, and
  // signing a new tree head fails. Default: false.
  bool read_only = false;
  // With read_only: opens the log, its ledger, the tree heads and the blobs, but not the stream
  // and event-id indexes or the views. A read-only open replays the WAL into memtables for every
  // family it opens; the indexes and the views hold most of the WAL's writes, and skipping them
  // is what makes `contract-ledger verify` open a large WAL quickly. ReadStream and
  // CurrentVersion then fail with kStorage, and Family() answers nullptr for the families left
  // out. Default: false.
  bool log_and_ledger_only = false;
  // Fails the open (kCorruption) when the WAL does not read to its end, instead of recovering the
  // log up to its first damaged record. Default: false.
  bool strict_wal = false;
  // Told one line, on the appender's thread, when appends start failing for a full disk and when
  // they resume, and on Close's thread when the memtables were not flushed at close: for the
  // operator's log. Default: none.
  std::function<void(const std::string& line)> storage_log;
  // The replicated log (log_replication.h): every append batch, blob and signed tree head is
  // published to it, and written here only once it acknowledged it. Must outlive the store.
  // Default: nullptr (the local, synced log alone).
  LogReplication* replication = nullptr;
};

class RocksEventStore final : public EventStore, private LedgerView {
 public:
  // Opens or creates the store. kCorruption when the log and its ledger disagree.
  static Result<std::unique_ptr<RocksEventStore>> Open(const RocksStoreOptions& options);
  ~RocksEventStore() override;

  RocksEventStore(const RocksEventStore&) = delete;
  RocksEventStore& operator=(const RocksEventStore&) = delete;

  Result<AppendResult> Append(std::string_view stream_id, ExpectedVersion expected,
                              std::vector<NewEvent> events) override;
  // Queued like Append; `done` runs on the syncer thread once the batch is synced (or refused).
  void AppendAsync(std::string_view stream_id, ExpectedVersion expected,
                   std::vector<NewEvent> events, AppendCallback done) override;
  Result<std::vector<EventRecord>> ReadStream(std::string_view stream_id, StreamVersion from,
                                              size_t max_count) const override;
  Result<StreamVersion> CurrentVersion(std::string_view stream_id) const override;
  Result<std::vector<EventRecord>> ReadAll(GlobalPosition from, size_t max_count) const override;
  Result<std::string> ReadRaw(GlobalPosition position) const override;
  uint64_t Size() const override;
  uint64_t WaitForSizeAbove(uint64_t size, std::chrono::milliseconds timeout,
                            std::stop_token stop = {}) const override;
  Ledger& ledger() override;
  BlobStore& blobs() override;
  void RecoverStorage() const override { full_disk_.BeforeWrite(*db_); }
  // Lets the appender finish every append already queued, then stops it; later appends fail with
  // kStorage. A store opened for writing then flushes every family's memtables into table files,
  // so a cleanly stopped directory leaves no WAL for the next open to replay (not after a failed
  // sync or a full disk; a failed flush is logged and keeps the WAL). Reads keep working until
  // destruction. Idempotent.
  void Close() override;

  // Asked before each batch the appender writes (append_gate.h); nullptr: none (the default). Set
  // it before the writes it should hold, and clear it (or Close) before the gate goes.
  void SetAppendGate(const AppendGate* gate) { gate_.store(gate, std::memory_order_release); }

  // False from a write refused for a full disk (an append, a view commit, a blob) until the next
  // append is stored: what /readyz reports.
  bool writable() const {
    return !full_disk_.out_of_space() && !failed_.load(std::memory_order_acquire);
  }

  // For the layers that keep their own families (projections, checkpoints) in this database.
  rocksdb::DB* db() const { return db_.get(); }
  // nullptr for an unknown name.
  rocksdb::ColumnFamilyHandle* Family(std::string_view name) const;
  // Every family of the database, for tools that open it directly.
  static std::vector<std::string> FamilyNames();

  // The replicated log's side (rocksdb_log_apply.cc) -------------------------------------------
  // Runs `task` on the appender thread, between two batches, and answers its result: what reads
  // or changes the appender's state (ApplyLogEntry, WrittenHead) runs there. kStorage once closed.
  Status RunOnAppender(std::function<Status()> task);
  // On the appender thread: applies an entry of the replicated log that counts (log_fence.h)
  // and stores `mark` with it, in one write. A batch must start at the log's size, its records
  // must parse with the positions that follow, and the Merkle root they give must be the
  // batch's; a blob (whole: chunk 0 of 1, or chunks 0 for a deletion) must hash to its name; a
  // head must cover no more than the log. kCorruption otherwise, with nothing written. Readers see
  // an applied batch once it is synced, as with an append.
  Status ApplyLogEntry(const LogEntry& entry, const LogMark& mark);
  // How far this store has applied the replicated log; {0, 0} before any entry.
  Result<LogMark> ReadLogMark() const;
  // The text of the claim of the current epoch as applied here (the claimant's name, a line
  // feed, its nonce); empty before any.
  Result<std::string> ReadLogClaim() const;
  // On the appender thread: the size and root of everything written, synced or not.
  std::pair<uint64_t, Hash> WrittenHead() const;

  // What the write path did since the open, for benchmarks: appends per sync is the group
  // commit's size.
  struct AppendStats {
    uint64_t appends = 0;  // answered, whatever the outcome
    uint64_t batches = 0;  // handed from the appender to the syncer
    uint64_t syncs = 0;    // WAL syncs (with pipelined_sync)
  };
  AppendStats append_stats() const;

 private:
  struct PendingAppend;

  explicit RocksEventStore(const RocksStoreOptions& options);
  Status Recover();
  Result<bool> HasTreeHeads() const;

  // LedgerView.
  uint64_t LeafCount() const override { return Size(); }
  const NodeSource& nodes() const override;
  std::pair<uint64_t, Hash> CurrentHead() const override;

  // The write path (rocksdb_appender.cc).
  // A batch the appender has dealt with, on its way to the syncer.
  struct WrittenBatch {
    std::vector<PendingAppend*> requests;  // each with its result set
    bool wrote = false;                    // records were written and await a sync
    uint64_t size = 0;                     // when wrote: the log's size after this batch
    MerkleFrontier frontier;               // when wrote: the log's frontier after this batch
  };
  void RunAppender();
  void WriteBatchOf(std::vector<PendingAppend*>& batch);
  void RunSyncer();
  // Waits while SyncGrouping says more appends are about to be written.
  void AwaitGroup(std::unique_lock<std::mutex>& written_lock);
  void SyncAndAnswer(std::vector<WrittenBatch>& written);
  // Adds a record and its stream and event-id index entries (`id_entry.version` is the
  // stream's), or ledger nodes, to `batch`: what an append and an applied log entry both write.
  void PutRecord(rocksdb::WriteBatch& batch, std::string_view raw, std::string_view stream_id,
                 std::string_view event_id, const EventIdEntry& id_entry);
  void PutNodes(rocksdb::WriteBatch& batch, const std::vector<NewNode>& nodes);
  // Hands a batch to the syncer, which answers its callers after the sync that covers it.
  void HandToSyncer(WrittenBatch written);
  // With a replicated log: publishes the records the appender is about to write (raws_, moved
  // into the entry) as one batch entry; adds the mark to batch_ when the log acknowledged it.
  Status PublishBatch(const Hash& root);
  // Writes `batch` of a replicated entry the log already acknowledged; a failure latches the
  // store (the next open applies the entry from the log).
  Status WriteAcknowledged(rocksdb::WriteBatch& batch, bool sync, const std::string& what);
  // A value of the checkpoints family; empty when absent.
  Result<std::string> ReadCheckpoint(std::string_view key) const;
  // With a replicated log: a blob's put (bytes) or deletion (nullopt), and a head, published
  // and then written with their mark, on the appender thread.
  Status WriteBlobReplicated(const std::string& sha256, std::optional<std::string_view> bytes);
  Status WriteHeadReplicated(const SignedTreeHead& head);
  void PutMark(rocksdb::WriteBatch& batch, const LogMark& mark);
  // After a write refused for a full disk: asks RocksDB to recover, at most once per interval.
  void Log(const std::string& line) const;
  // At Close: writes every family's memtable into table files, unless writes were failing.
  void FlushMemtables();

  const RocksStoreOptions options_;
  const Clock& clock_;
  // Opened for writing: the WAL files the syncer syncs, and the Env that tracks them. Both
  // outlive db_.
  std::unique_ptr<WalFiles> wal_files_;
  std::unique_ptr<rocksdb::Env> wal_env_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<std::string> family_names_;               // of the families opened
  std::vector<rocksdb::ColumnFamilyHandle*> families_;  // in family_names_ order, owned
  rocksdb::ColumnFamilyHandle* events_ = nullptr;
  rocksdb::ColumnFamilyHandle* streams_ = nullptr;
  rocksdb::ColumnFamilyHandle* event_ids_ = nullptr;
  rocksdb::ColumnFamilyHandle* ledger_nodes_ = nullptr;
  NodeCache node_cache_;
  std::unique_ptr<RocksAppendIndex> index_;
  std::unique_ptr<RocksNodeSource> nodes_;
  std::unique_ptr<RocksTreeHeadLog> head_log_;
  std::unique_ptr<RocksBlobStore> blobs_;
  std::unique_ptr<MerkleLedger> ledger_;

  // The durable log, published by the syncer; Size() reads it without a lock.
  std::atomic<uint64_t> size_{0};
  mutable std::mutex state_mutex_;
  mutable std::condition_variable_any size_changed_;
  MerkleFrontier frontier_;  // of the published log; guarded by state_mutex_
  bool closed_ = false;      // guarded by state_mutex_
  std::atomic<const AppendGate*> gate_{nullptr};
  // Set for good when a WAL sync fails: what was written since can no longer be trusted to be
  // durable, so no append is accepted until the store is reopened.
  std::atomic<bool> failed_{false};
  // Marked when any write to the database fails for a full disk (its listener) or an append does;
  // cleared by the next stored append.
  FullDiskRecovery full_disk_;

  std::mutex close_mutex_;  // serializes Close

  // Callers -> appender.
  std::mutex queue_mutex_;
  std::condition_variable queue_ready_;
  std::vector<PendingAppend*> queue_;  // guarded by queue_mutex_
  bool stopping_ = false;              // guarded by queue_mutex_
  bool appender_idle_ = false;         // guarded by queue_mutex_
  std::thread appender_;

  // Appender -> syncer: batches written to RocksDB whose WAL is not yet synced.
  std::mutex written_mutex_;
  std::condition_variable written_ready_;
  std::vector<WrittenBatch> written_;  // guarded by written_mutex_
  bool syncer_stopping_ = false;       // guarded by written_mutex_
  bool syncer_idle_ = false;           // guarded by written_mutex_
  uint64_t written_requests_ = 0;      // appends in written_; guarded by written_mutex_
  std::thread syncer_;
  SyncGrouping grouping_;  // owned by the syncer

  // Appends queued and not yet answered, for SyncGrouping.
  std::atomic<uint64_t> unanswered_{0};
  std::atomic<uint64_t> stat_appends_{0};
  std::atomic<uint64_t> stat_batches_{0};
  std::atomic<uint64_t> stat_syncs_{0};

  // Owned by the appender thread.
  std::unique_ptr<AppendPlanner> planner_;
  uint64_t written_size_ = 0;     // events written to RocksDB, durable or not
  MerkleFrontier work_frontier_;  // over those events
  BatchPlan plan_;
  rocksdb::WriteBatch batch_;
  std::vector<NewNode> fresh_nodes_;
  std::vector<AppendInput> inputs_;
  std::vector<std::string> raws_;  // with a replicated log: the records of the batch
  bool refusing_logged_ = false;   // "appends refused" was logged, "appends resume" not yet
};

}  // namespace esign::eventstore
