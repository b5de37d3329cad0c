// RocksViewStore: view rows and checkpoints in the event store's own database, in its
// "projections" (rows by full key) and "checkpoints" (projection name -> big-endian u64) column
// families.
//
// Commits are one WriteBatch over both families, written with WriteOptions.sync = false: views
// are rebuilt from the log, which is synced before any event becomes readable, and rows and
// checkpoint share one batch, so a crash can lose only a suffix of commits; the projector then
// re-applies those events from the older checkpoint. A view is never ahead of its checkpoint and
// never ahead of the durable log. A sync per commit would only add latency to every write.
//
// Thread safety: every method may be called from any thread. The store's database must outlive
// this object (destroy it before the RocksEventStore).
#pragma once

#include <memory>

#include <rocksdb/db.h>

#include "eventstore/rocksdb_event_store.h"
#include "projections/view_store.h"

namespace esign::projections {

class RocksViewStore final : public ViewStore {
 public:
  // kInternal when the database lacks the two families.
  static Result<std::unique_ptr<RocksViewStore>> Open(const eventstore::RocksEventStore& store);
  static Result<std::unique_ptr<RocksViewStore>> Open(rocksdb::DB* db,
                                                      rocksdb::ColumnFamilyHandle* rows,
                                                      rocksdb::ColumnFamilyHandle* checkpoints);

  Result<std::optional<std::string>> Get(std::string_view key) const override;
  Status Scan(std::string_view prefix, std::string_view start, bool reverse,
              const Visitor& visit) const override;
  std::unique_ptr<RowCursor> OpenCursor(std::string_view prefix) const override;
  Result<uint64_t> Checkpoint(std::string_view projection) const override;
  Status Commit(const ViewCommit& commit) override;
  Status DeletePrefix(std::string_view prefix) override;
  std::unique_ptr<const RowReader> Snapshot() const override;

 private:
  class SnapshotReader;
  class IteratorCursor;

  RocksViewStore(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* rows,
                 rocksdb::ColumnFamilyHandle* checkpoints)
      : db_(db), rows_(rows), checkpoints_(checkpoints) {}

  Result<std::optional<std::string>> GetAt(const rocksdb::Snapshot* snapshot,
                                           std::string_view key) const;
  Status ScanAt(const rocksdb::Snapshot* snapshot, std::string_view prefix, std::string_view start,
                bool reverse, const Visitor& visit) const;
  Result<std::vector<std::optional<std::string>>> MultiGetAt(
      const rocksdb::Snapshot* snapshot, const std::vector<std::string>& keys) const;
  std::unique_ptr<RowCursor> OpenCursorAt(const rocksdb::Snapshot* snapshot,
                                          std::string_view prefix) const;

  rocksdb::DB* const db_;
  rocksdb::ColumnFamilyHandle* const rows_;
  rocksdb::ColumnFamilyHandle* const checkpoints_;
};

}  // namespace esign::projections
