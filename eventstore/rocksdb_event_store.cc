// Opening, recovery, reads and closing of the RocksDB store; the write path is in
// rocksdb_appender.cc.
#include "eventstore/rocksdb_event_store.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>
#include <system_error>
#include <utility>

#include <rocksdb/env.h>

#include "eventstore/rocksdb_append_index.h"
#include "eventstore/rocksdb_blob_store.h"
#include "eventstore/rocksdb_ledger.h"
#include "eventstore/rocksdb_options.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"
#include "eventstore/stored_record.h"

namespace esign::eventstore {
namespace {

std::unexpected<Error> MissingEvent(uint64_t position) {
  return Fail(ErrorCode::kCorruption,
              "the event at position " + std::to_string(position) + " is missing");
}

std::unexpected<Error> NoStreamIndex() {
  return Fail(ErrorCode::kStorage, "the store was opened without its stream index");
}

Result<EventRecord> ParseStored(std::string_view bytes, uint64_t position) {
  Result<EventRecord> record = ParseStoredRecord(bytes);
  if (!record) {
    return Fail(ErrorCode::kCorruption, "the event at position " + std::to_string(position) +
                                            " is unreadable: " + record.error().message);
  }
  return record;
}

}  // namespace

RocksEventStore::RocksEventStore(const RocksStoreOptions& options)
    : options_(options),
      clock_(options.clock != nullptr ? *options.clock : SystemClock::Instance()),
      node_cache_(options.ledger_cache_min_level, options.ledger_cache_max_bytes),
      full_disk_(options.data_dir + "/db") {}

RocksEventStore::~RocksEventStore() {
  Close();
  if (db_ == nullptr) return;
  for (rocksdb::ColumnFamilyHandle* family : families_) {
    db_->DestroyColumnFamilyHandle(family).PermitUncheckedError();
  }
  db_->Close().PermitUncheckedError();
}

std::vector<std::string> RocksEventStore::FamilyNames() { return StoreFamilyNames(); }

Result<std::unique_ptr<RocksEventStore>> RocksEventStore::Open(const RocksStoreOptions& options) {
  if (options.data_dir.empty()) {
    return Fail(ErrorCode::kValidationFailed, "the event store needs a data directory");
  }
  const std::filesystem::path db_dir = std::filesystem::path(options.data_dir) / "db";
  std::error_code error;
  if (options.read_only) {
    // A read-only open must not create the key (heads would then fail to verify) or the database.
    const std::filesystem::path key = std::filesystem::path(options.data_dir) / "ledger-key.pem";
    if (!std::filesystem::exists(db_dir, error) || !std::filesystem::exists(key, error)) {
      return Fail(ErrorCode::kStorage, "no event store in " + options.data_dir + " (" +
                                           db_dir.string() + " and " + key.string() +
                                           " must exist)");
    }
  } else {
    std::filesystem::create_directories(db_dir, error);
    if (error) {
      return Fail(ErrorCode::kStorage, "cannot create " + db_dir.string() + ": " + error.message());
    }
  }

  std::unique_ptr<RocksEventStore> store(new RocksEventStore(options));
  rocksdb::DB* db = nullptr;
  rocksdb::DBOptions db_options = StoreDBOptions(options);
  if (!options.read_only) {
    db_options.listeners.push_back(store->full_disk_.MakeListener());
    // The syncer syncs the WAL files itself (wal_files.h). The composite Env takes the files from
    // the given Env's file system and the rest (threads, clock) from the default Env.
    store->wal_files_ =
        std::make_unique<WalFiles>(db_options.env->GetFileSystem(), db_dir.string());
    store->wal_env_ = rocksdb::NewCompositeEnv(store->wal_files_->file_system());
    db_options.env = store->wal_env_.get();
  }
  const rocksdb::Status opened =
      options.read_only
          ? rocksdb::DB::OpenForReadOnly(db_options, db_dir.string(), StoreFamilies(options),
                                         &store->families_, &db)
          : rocksdb::DB::Open(db_options, db_dir.string(), StoreFamilies(options),
                              &store->families_, &db);
  if (!opened.ok()) return FailFromRocks(opened, "opening " + db_dir.string());
  store->db_.reset(db);
  store->family_names_ = OpenedFamilyNames(options);
  store->events_ = store->Family(family::kEvents);
  store->streams_ = store->Family(family::kStreams);
  store->event_ids_ = store->Family(family::kEventIds);
  store->ledger_nodes_ = store->Family(family::kLedgerNodes);
  store->index_ = std::make_unique<RocksAppendIndex>(db, store->streams_, store->event_ids_);
  store->nodes_ = std::make_unique<RocksNodeSource>(db, store->ledger_nodes_, store->node_cache_);
  store->head_log_ = std::make_unique<RocksTreeHeadLog>(db, store->Family(family::kTreeHeads));
  store->blobs_ = std::make_unique<RocksBlobStore>(db, store->Family(family::kBlobs), options.sync);
  if (options.replication != nullptr && !options.read_only) {
    store->blobs_->SetReplicatedWrite(
        [raw = store.get()](const std::string& sha256, std::optional<std::string_view> bytes) {
          return raw->WriteBlobReplicated(sha256, bytes);
        });
    store->head_log_->SetReplicatedWrite(
        [raw = store.get()](const SignedTreeHead& head) { return raw->WriteHeadReplicated(head); });
  }
  if (Status recovered = store->Recover(); !recovered) return Fail(recovered.error());

  // A new key only for an empty log: the heads already stored were signed with the lost one.
  Result<bool> has_heads = store->HasTreeHeads();
  if (!has_heads) return Fail(has_heads.error());
  Result<std::unique_ptr<TreeHeadSigner>> signer =
      TreeHeadSigner::OpenOrCreate(options.data_dir, store->Size() == 0 && !*has_heads);
  if (!signer) return Fail(signer.error());
  Result<std::unique_ptr<MerkleLedger>> ledger =
      MerkleLedger::Open(*store, *store->head_log_, std::move(*signer), store->clock_);
  if (!ledger) return Fail(ledger.error());
  store->ledger_ = std::move(*ledger);

  if (options.read_only) {
    // No appender: Append sees a stopped queue and fails instead of waiting forever.
    store->stopping_ = true;
    return store;
  }
  store->planner_ = std::make_unique<AppendPlanner>(*store->index_, options.max_cached_streams);
  store->syncer_ = std::thread([raw = store.get()] { raw->RunSyncer(); });
  store->appender_ = std::thread([raw = store.get()] { raw->RunAppender(); });
  return store;
}

Status RocksEventStore::Recover() {
  uint64_t size = 0;
  {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), events_));
    it->SeekToLast();
    if (!it->status().ok()) return FailFromRocks(it->status(), "reading the log");
    if (it->Valid()) {
      const std::optional<uint64_t> last = DecodeU64(it->key().ToStringView());
      if (!last) return Fail(ErrorCode::kCorruption, "malformed key in the events family");
      size = *last + 1;
    }
  }
  // Records and ledger nodes share each WriteBatch, so they can only disagree after damage.
  Result<uint64_t> leaves = nodes_->StoredLeaves();
  if (!leaves) return Fail(leaves.error());
  if (*leaves != size) {
    return Fail(ErrorCode::kCorruption, "the log holds " + std::to_string(size) +
                                            " events but the ledger covers " +
                                            std::to_string(*leaves));
  }
  node_cache_.StartFor(size);
  if (Status loaded = nodes_->LoadCache(node_cache_); !loaded) return loaded;
  Result<MerkleFrontier> frontier = MerkleFrontier::Load(*nodes_, size);
  if (!frontier) {
    return Fail(ErrorCode::kCorruption, "cannot rebuild the ledger: " + frontier.error().message);
  }
  work_frontier_ = *frontier;
  frontier_ = std::move(*frontier);
  written_size_ = size;
  size_.store(size, std::memory_order_release);
  return {};
}

Result<bool> RocksEventStore::HasTreeHeads() const {
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions(), Family(family::kTreeHeads)));
  it->SeekToFirst();
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading tree heads");
  return it->Valid();
}

void RocksEventStore::Close() {
  std::lock_guard close_lock(close_mutex_);
  // Only a store opened for writing runs the appender; the first Close stops it, so this flushes
  // once.
  const bool opened_for_writing = appender_.joinable();
  {
    std::lock_guard lock(queue_mutex_);
    stopping_ = true;
  }
  queue_ready_.notify_one();
  if (appender_.joinable()) appender_.join();
  {
    std::lock_guard lock(written_mutex_);
    syncer_stopping_ = true;
  }
  written_ready_.notify_one();
  if (syncer_.joinable()) syncer_.join();
  {
    std::lock_guard lock(state_mutex_);
    closed_ = true;
  }
  size_changed_.notify_all();
  if (opened_for_writing) FlushMemtables();
}

void RocksEventStore::FlushMemtables() {
  // After a failed sync or a write refused for a full disk the WAL stays as it is, and the next
  // open replays it as far as it reads, as after a crash.
  if (!writable()) {
    Log("the memtables were not flushed at close (writes were failing); the next open replays "
        "the write-ahead log");
    return;
  }
  // With the WAL written, RocksDB flushes nothing at close by itself: without this, the next
  // open (contractd's start check, the service, contract-ledger) replays the whole WAL. The
  // flush only turns synced WAL data into table files; the WAL is dropped once they are
  // recorded, and a failed flush leaves it in place.
  const rocksdb::Status flushed = db_->Flush(rocksdb::FlushOptions(), families_);
  if (!flushed.ok()) {
    Log("flushing the memtables at close failed (" + flushed.ToString() +
        "); the next open replays the write-ahead log");
  }
}

rocksdb::ColumnFamilyHandle* RocksEventStore::Family(std::string_view name) const {
  for (size_t i = 0; i < family_names_.size() && i < families_.size(); ++i) {
    if (family_names_[i] == name) return families_[i];
  }
  return nullptr;
}

Ledger& RocksEventStore::ledger() { return *ledger_; }
BlobStore& RocksEventStore::blobs() { return *blobs_; }
const NodeSource& RocksEventStore::nodes() const { return *nodes_; }

std::pair<uint64_t, Hash> RocksEventStore::CurrentHead() const {
  std::lock_guard lock(state_mutex_);
  return {frontier_.size(), frontier_.Root()};
}

uint64_t RocksEventStore::Size() const { return size_.load(std::memory_order_acquire); }

uint64_t RocksEventStore::WaitForSizeAbove(uint64_t size, std::chrono::milliseconds timeout,
                                           std::stop_token stop) const {
  std::unique_lock lock(state_mutex_);
  size_changed_.wait_for(lock, stop, timeout, [&] { return Size() > size || closed_; });
  return Size();
}

Result<StreamVersion> RocksEventStore::CurrentVersion(std::string_view stream_id) const {
  if (streams_ == nullptr) return NoStreamIndex();
  // The index may already hold versions whose sync is pending; readers see only published ones,
  // so the newest entries are skipped while they point past the published size.
  const uint64_t size = Size();
  rocksdb::ReadOptions read;
  read.prefix_same_as_start = true;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read, streams_));
  for (it->SeekForPrev(StreamKey(stream_id, StreamVersion(std::numeric_limits<uint64_t>::max())));
       it->Valid(); it->Prev()) {
    const std::optional<StreamVersion> version =
        StreamKeyVersion(it->key().ToStringView(), stream_id);
    if (!version) break;
    const std::optional<uint64_t> position = DecodeU64(it->value().ToStringView());
    if (!position) return Fail(ErrorCode::kCorruption, "malformed stream index entry");
    if (*position < size) return *version;
  }
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading the stream index");
  return StreamVersion(0);
}

Result<std::string> RocksEventStore::ReadRaw(GlobalPosition position) const {
  if (position.value() >= Size()) {
    return Fail(ErrorCode::kNotFound, "no event at position " + std::to_string(position.value()));
  }
  const U64Key key = EncodeU64(position.value());
  std::string value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), events_, rocksdb::Slice(key.data(), key.size()), &value);
  if (status.IsNotFound()) return MissingEvent(position.value());
  if (!status.ok()) return FailFromRocks(status, "reading the log");
  return value;
}

Result<std::vector<EventRecord>> RocksEventStore::ReadAll(GlobalPosition from,
                                                          size_t max_count) const {
  std::vector<EventRecord> records;
  const uint64_t size = Size();
  if (from.value() >= size || max_count == 0) return records;
  // Only published events: a batch written but not yet acknowledged stays invisible.
  const uint64_t end = from.value() + std::min<uint64_t>(max_count, size - from.value());
  const U64Key lower = EncodeU64(from.value());
  const U64Key upper = EncodeU64(end);
  const rocksdb::Slice upper_bound(upper.data(), upper.size());
  rocksdb::ReadOptions read;
  read.iterate_upper_bound = &upper_bound;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read, events_));
  records.reserve(end - from.value());
  uint64_t expected = from.value();
  for (it->Seek(rocksdb::Slice(lower.data(), lower.size())); it->Valid(); it->Next(), ++expected) {
    if (DecodeU64(it->key().ToStringView()) != expected) return MissingEvent(expected);
    Result<EventRecord> record = ParseStored(it->value().ToStringView(), expected);
    if (!record) return Fail(record.error());
    records.push_back(std::move(*record));
  }
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading the log");
  if (expected != end) return MissingEvent(expected);
  return records;
}

Result<std::vector<EventRecord>> RocksEventStore::ReadStream(std::string_view stream_id,
                                                             StreamVersion from,
                                                             size_t max_count) const {
  if (streams_ == nullptr) return NoStreamIndex();
  std::vector<EventRecord> records;
  const uint64_t size = Size();
  std::vector<U64Key> keys;
  {
    rocksdb::ReadOptions read;
    read.prefix_same_as_start = true;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read, streams_));
    const StreamVersion first(std::max<uint64_t>(from.value(), 1));
    for (it->Seek(StreamKey(stream_id, first)); it->Valid() && keys.size() < max_count;
         it->Next()) {
      if (!StreamKeyVersion(it->key().ToStringView(), stream_id)) break;
      const std::optional<uint64_t> position = DecodeU64(it->value().ToStringView());
      if (!position) return Fail(ErrorCode::kCorruption, "malformed stream index entry");
      if (*position >= size) break;
      keys.push_back(EncodeU64(*position));
    }
    if (!it->status().ok()) return FailFromRocks(it->status(), "reading the stream index");
  }
  if (keys.empty()) return records;
  std::vector<rocksdb::Slice> slices;
  slices.reserve(keys.size());
  for (const U64Key& key : keys) slices.emplace_back(key.data(), key.size());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  db_->MultiGet(rocksdb::ReadOptions(), events_, keys.size(), slices.data(), values.data(),
                statuses.data(), /*sorted_input=*/true);
  records.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint64_t position = *DecodeU64(std::string_view(keys[i].data(), keys[i].size()));
    if (statuses[i].IsNotFound()) return MissingEvent(position);
    if (!statuses[i].ok()) return FailFromRocks(statuses[i], "reading the log");
    Result<EventRecord> record = ParseStored(values[i].ToStringView(), position);
    if (!record) return Fail(record.error());
    records.push_back(std::move(*record));
  }
  return records;
}

}  // namespace esign::eventstore
