// MemoryViewStore: the in-memory twin of RocksViewStore, for tests and for rebuilds that need no
// durability. Same semantics; everything is lost with the object.
// Thread safety: every method may be called from any thread. A snapshot holds a shared lock until
// it is destroyed, so commits wait for it: never commit from a thread that holds a snapshot.
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>

#include "projections/view_store.h"

namespace esign::projections {

class MemoryViewStore final : public ViewStore {
 public:
  MemoryViewStore() = default;

  Result<std::optional<std::string>> Get(std::string_view key) const override;
  Status Scan(std::string_view prefix, std::string_view start, bool reverse,
              const Visitor& visit) const override;
  Result<uint64_t> Checkpoint(std::string_view projection) const override;
  Status Commit(const ViewCommit& commit) override;
  Status DeletePrefix(std::string_view prefix) override;
  std::unique_ptr<const RowReader> Snapshot() const override;

  size_t RowCount() const;

 private:
  using Rows = std::map<std::string, std::string, std::less<>>;
  class LockedReader;

  static Status ScanRows(const Rows& rows, std::string_view prefix, std::string_view start,
                         bool reverse, const Visitor& visit);

  mutable std::shared_mutex mutex_;
  Rows rows_;                                                 // guarded by mutex_
  std::map<std::string, uint64_t, std::less<>> checkpoints_;  // guarded by mutex_
};

}  // namespace esign::projections
