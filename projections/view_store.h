// ViewStore: where the rows of every projection and their checkpoints live. Keys are full keys,
// "<projection name>/<key>"; a projection sees only its own part through ViewReader / ViewBatch
// (view_batch.h), which add the prefix.
//
// A commit is atomic: the rows of every projection touched by a batch of events and their new
// checkpoints are written together or not at all, so a view is never ahead of or behind its
// checkpoint. The checkpoint of a projection is the number of log events it has applied, i.e. the
// position of the next event it needs.
//
// Two implementations: RocksViewStore (rocksdb_view_store.h), in the event store's database, and
// MemoryViewStore (memory_view_store.h), for tests and offline rebuilds.
// Thread safety: every method may be called from any thread. Commits are expected from one
// thread (the projector's) but are safe from several.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "domain/result.h"
#include "projections/get_each_key.h"
#include "projections/once_rows.h"
#include "projections/row_cursor.h"

namespace esign::projections {

// Reads rows by full key.
class RowReader {
 public:
  using Visitor = std::function<bool(std::string_view key, std::string_view value)>;

  virtual ~RowReader() = default;
  virtual Result<std::optional<std::string>> Get(std::string_view key) const = 0;
  // Rows whose key starts with `prefix`, in key order (descending when `reverse`), beginning at
  // `start` (inclusive; empty: the first row of the prefix in that direction). `visit` returns
  // false to stop.
  virtual Status Scan(std::string_view prefix, std::string_view start, bool reverse,
                      const Visitor& visit) const = 0;
  // Get of each key, answers in the keys' order. A store may look them up together (RocksDB
  // shares the block and filter look-ups of keys in the same file).
  virtual Result<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys) const;
  // A cursor over the rows whose key starts with `prefix`, unpositioned. A store may keep one
  // storage iterator for it (RocksDB) instead of one per Scan.
  virtual std::unique_ptr<RowCursor> OpenCursor(std::string_view prefix) const;
};

inline Result<std::vector<std::optional<std::string>>> RowReader::MultiGet(
    const std::vector<std::string>& keys) const {
  return GetEachKey(*this, keys);
}

inline std::unique_ptr<RowCursor> RowReader::OpenCursor(std::string_view prefix) const {
  return std::make_unique<ScanningCursor<RowReader>>(*this, prefix);
}

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// Pending row writes by full key; std::nullopt deletes the row.
using RowWrites =
    std::unordered_map<std::string, std::optional<std::string>, StringHash, std::equal_to<>>;

// What one commit writes. A key is in `rows` or in `once_rows`, never in both.
struct ViewCommit {
  RowWrites rows;
  OnceRows once_rows;
  std::map<std::string, uint64_t, std::less<>> checkpoints;  // projection name -> next position
};

class ViewStore : public RowReader {
 public:
  // 0 for a projection that has never committed.
  virtual Result<uint64_t> Checkpoint(std::string_view projection) const = 0;
  virtual Status Commit(const ViewCommit& commit) = 0;
  // Deletes every row whose key starts with `prefix`: rows that no projection writes any more
  // (a view that moved to a projection of its own). Not for a projection's live rows.
  virtual Status DeletePrefix(std::string_view prefix) = 0;
  // A reader over one consistent state of every row: commits made after this call are not
  // visible through it. Release it promptly (it may hold back commits or old data).
  virtual std::unique_ptr<const RowReader> Snapshot() const = 0;
};

// The prefix of a projection's rows: "<name>/".
inline std::string ProjectionPrefix(std::string_view name) {
  std::string prefix(name);
  prefix.push_back('/');
  return prefix;
}

}  // namespace esign::projections
