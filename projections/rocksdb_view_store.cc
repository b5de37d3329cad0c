#include "projections/rocksdb_view_store.h"

#include <algorithm>
#include <vector>

#include <rocksdb/write_batch.h>

#include "eventstore/rocksdb_options.h"
#include "eventstore/rocksdb_status.h"
#include "projections/key_codec.h"

namespace esign::projections {
namespace {

std::string EncodeCheckpoint(uint64_t value) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
  return out;
}

std::optional<uint64_t> DecodeCheckpoint(std::string_view bytes) {
  if (bytes.size() != 8) return std::nullopt;
  uint64_t value = 0;
  for (const char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return value;
}

rocksdb::Slice ToSlice(std::string_view text) { return {text.data(), text.size()}; }

}  // namespace

// One iterator over the rows of a prefix, kept for the cursor's life.
class RocksViewStore::IteratorCursor final : public RowCursor {
 public:
  IteratorCursor(const RocksViewStore& store, const rocksdb::Snapshot* snapshot,
                 std::string_view prefix)
      : lower_(prefix), upper_(PrefixSuccessor(prefix)) {
    rocksdb::ReadOptions options;
    options.snapshot = snapshot;
    // Bounds keep the iterator inside the prefix (see ScanAt). The slices point into this object.
    lower_slice_ = ToSlice(lower_);
    upper_slice_ = ToSlice(upper_);
    options.iterate_lower_bound = &lower_slice_;
    if (!upper_.empty()) options.iterate_upper_bound = &upper_slice_;
    it_.reset(store.db_->NewIterator(options, store.rows_));
  }

  Status SeekAtOrBelow(std::string_view key) override {
    if (key.empty() || (!upper_.empty() && key >= upper_)) {
      it_->SeekToLast();
    } else {
      it_->SeekForPrev(ToSlice(key));
    }
    return Checked();
  }
  Status Prev() override {
    it_->Prev();
    return Checked();
  }
  bool Valid() const override { return it_->Valid(); }
  std::string_view key() const override { return it_->key().ToStringView(); }
  std::string_view value() const override { return it_->value().ToStringView(); }

 private:
  Status Checked() const {
    if (!it_->status().ok()) return eventstore::FailFromRocks(it_->status(), "reading view rows");
    return {};
  }

  const std::string lower_;
  const std::string upper_;
  rocksdb::Slice lower_slice_;
  rocksdb::Slice upper_slice_;
  std::unique_ptr<rocksdb::Iterator> it_;
};

// Reads at one RocksDB snapshot, released on destruction.
class RocksViewStore::SnapshotReader final : public RowReader {
 public:
  explicit SnapshotReader(const RocksViewStore& store)
      : store_(store), snapshot_(store.db_->GetSnapshot()) {}
  ~SnapshotReader() override { store_.db_->ReleaseSnapshot(snapshot_); }
  SnapshotReader(const SnapshotReader&) = delete;
  SnapshotReader& operator=(const SnapshotReader&) = delete;

  Result<std::optional<std::string>> Get(std::string_view key) const override {
    return store_.GetAt(snapshot_, key);
  }
  Status Scan(std::string_view prefix, std::string_view start, bool reverse,
              const Visitor& visit) const override {
    return store_.ScanAt(snapshot_, prefix, start, reverse, visit);
  }
  Result<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys) const override {
    return store_.MultiGetAt(snapshot_, keys);
  }
  std::unique_ptr<RowCursor> OpenCursor(std::string_view prefix) const override {
    return store_.OpenCursorAt(snapshot_, prefix);
  }

 private:
  const RocksViewStore& store_;
  const rocksdb::Snapshot* const snapshot_;
};

Result<std::unique_ptr<RocksViewStore>> RocksViewStore::Open(
    const eventstore::RocksEventStore& store) {
  return Open(store.db(), store.Family(eventstore::family::kProjections),
              store.Family(eventstore::family::kCheckpoints));
}

Result<std::unique_ptr<RocksViewStore>> RocksViewStore::Open(
    rocksdb::DB* db, rocksdb::ColumnFamilyHandle* rows, rocksdb::ColumnFamilyHandle* checkpoints) {
  if (db == nullptr || rows == nullptr || checkpoints == nullptr) {
    return Fail(ErrorCode::kInternal, "the database has no projections or checkpoints family");
  }
  return std::unique_ptr<RocksViewStore>(new RocksViewStore(db, rows, checkpoints));
}

Result<std::optional<std::string>> RocksViewStore::Get(std::string_view key) const {
  return GetAt(nullptr, key);
}

Status RocksViewStore::Scan(std::string_view prefix, std::string_view start, bool reverse,
                            const Visitor& visit) const {
  return ScanAt(nullptr, prefix, start, reverse, visit);
}

std::unique_ptr<RowCursor> RocksViewStore::OpenCursor(std::string_view prefix) const {
  return OpenCursorAt(nullptr, prefix);
}

std::unique_ptr<RowCursor> RocksViewStore::OpenCursorAt(const rocksdb::Snapshot* snapshot,
                                                        std::string_view prefix) const {
  return std::make_unique<IteratorCursor>(*this, snapshot, prefix);
}

Result<std::optional<std::string>> RocksViewStore::GetAt(const rocksdb::Snapshot* snapshot,
                                                         std::string_view key) const {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  std::string value;
  const rocksdb::Status status = db_->Get(options, rows_, ToSlice(key), &value);
  if (status.IsNotFound()) return std::nullopt;
  if (!status.ok()) return eventstore::FailFromRocks(status, "reading a view row");
  return value;
}

Result<std::vector<std::optional<std::string>>> RocksViewStore::MultiGetAt(
    const rocksdb::Snapshot* snapshot, const std::vector<std::string>& keys) const {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  std::vector<rocksdb::Slice> slices;
  slices.reserve(keys.size());
  for (const std::string& key : keys) slices.push_back(ToSlice(key));
  std::vector<rocksdb::PinnableSlice> found(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  db_->MultiGet(options, rows_, keys.size(), slices.data(), found.data(), statuses.data());
  std::vector<std::optional<std::string>> values;
  values.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (statuses[i].IsNotFound()) {
      values.emplace_back();
    } else if (!statuses[i].ok()) {
      return eventstore::FailFromRocks(statuses[i], "reading view rows");
    } else {
      values.emplace_back(found[i].ToString());
    }
  }
  return values;
}

Status RocksViewStore::ScanAt(const rocksdb::Snapshot* snapshot, std::string_view prefix,
                              std::string_view start, bool reverse, const Visitor& visit) const {
  const std::string upper = PrefixSuccessor(prefix);
  const rocksdb::Slice lower_slice = ToSlice(prefix);
  const rocksdb::Slice upper_slice = ToSlice(upper);
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  // Bounds keep the iterator inside the prefix: it stops there instead of reading past it.
  options.iterate_lower_bound = &lower_slice;
  if (!upper.empty()) options.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options, rows_));
  if (!reverse) {
    it->Seek(start.empty() || start < prefix ? lower_slice : ToSlice(start));
  } else if (start.empty() || (!upper.empty() && start >= upper)) {
    it->SeekToLast();
  } else {
    it->SeekForPrev(ToSlice(start));
  }
  for (; it->Valid(); reverse ? it->Prev() : it->Next()) {
    if (!visit(it->key().ToStringView(), it->value().ToStringView())) break;
  }
  if (!it->status().ok()) return eventstore::FailFromRocks(it->status(), "scanning view rows");
  return {};
}

Result<uint64_t> RocksViewStore::Checkpoint(std::string_view projection) const {
  std::string value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), checkpoints_, ToSlice(projection), &value);
  if (status.IsNotFound()) return 0;
  if (!status.ok()) return eventstore::FailFromRocks(status, "reading a checkpoint");
  const std::optional<uint64_t> decoded = DecodeCheckpoint(value);
  if (!decoded) {
    return Fail(ErrorCode::kCorruption,
                "malformed checkpoint of projection " + std::string(projection));
  }
  return *decoded;
}

Status RocksViewStore::Commit(const ViewCommit& commit) {
  // Sized up front: the batch's buffer grows by copying, and a commit holds a thousand events.
  size_t bytes = 64 + commit.once_rows.bytes() + 16 * commit.once_rows.size();
  for (const auto& [key, value] : commit.rows)
    bytes += key.size() + (value ? value->size() : 0) + 16;
  for (const auto& [name, position] : commit.checkpoints) bytes += name.size() + 8 + 16;
  rocksdb::WriteBatch batch(bytes);
  // In key order: the memtable's skip list remembers where the previous insert went, so a key
  // next to it is placed in a few comparisons. In hash order, every key of a commit (a hundred
  // trigram keys per new contract) pays a full descent of a list of millions of keys.
  std::vector<OnceRows::Row> all = commit.once_rows.Rows();
  all.reserve(all.size() + commit.rows.size());
  for (const auto& [key, value] : commit.rows) {
    all.push_back({key, value ? std::optional<std::string_view>(*value) : std::nullopt});
  }
  std::sort(all.begin(), all.end(),
            [](const OnceRows::Row& a, const OnceRows::Row& b) { return a.key < b.key; });
  for (const OnceRows::Row& row : all) {
    const rocksdb::Status status = row.value
                                       ? batch.Put(rows_, ToSlice(row.key), ToSlice(*row.value))
                                       : batch.Delete(rows_, ToSlice(row.key));
    if (!status.ok()) return eventstore::FailFromRocks(status, "batching view rows");
  }
  for (const auto& [name, position] : commit.checkpoints) {
    const rocksdb::Status status =
        batch.Put(checkpoints_, ToSlice(name), ToSlice(EncodeCheckpoint(position)));
    if (!status.ok()) return eventstore::FailFromRocks(status, "batching checkpoints");
  }
  rocksdb::WriteOptions options;
  // Not synced: see the header. The WAL still orders this batch after every log write before
  // it, and the next synced log append makes it durable as well.
  options.sync = false;
  const rocksdb::Status status = db_->Write(options, &batch);
  if (!status.ok()) return eventstore::FailFromRocks(status, "committing views");
  return {};
}

Status RocksViewStore::DeletePrefix(std::string_view prefix) {
  // Empty for an empty prefix or one of 0xff bytes, which no projection deletes.
  const std::string end = PrefixSuccessor(prefix);
  if (end.empty()) return Fail(ErrorCode::kInternal, "no key follows the prefix to delete");
  const rocksdb::Status status =
      db_->DeleteRange(rocksdb::WriteOptions(), rows_, ToSlice(prefix), ToSlice(end));
  if (!status.ok()) return eventstore::FailFromRocks(status, "deleting view rows");
  return {};
}

std::unique_ptr<const RowReader> RocksViewStore::Snapshot() const {
  return std::make_unique<SnapshotReader>(*this);
}

}  // namespace esign::projections
