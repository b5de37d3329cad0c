// A projection: a read model built only from events. The Projector (projector.h) feeds every
// event of the log, in order, to each registered projection; a projection writes its rows into a
// ViewBatch, and the batch is committed together with the projection's checkpoint in one
// RocksDB WriteBatch, so a view is never ahead of or behind its checkpoint.
//
// Rows of a projection live under its own key space (the batch and reader prefix every key with
// "<Name()>/"), so projections cannot step on each other's rows.
// Thread safety: Apply and Committed are called from the projector's thread only; readers of a
// projection's in-memory state (if it keeps any) must be safe against that thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/result.h"
#include "eventstore/event_record.h"
#include "projections/get_each_key.h"
#include "projections/row_cursor.h"

namespace esign::projections {

// Rows of one projection, read-only.
class ViewReader {
 public:
  virtual ~ViewReader() = default;
  virtual Result<std::optional<std::string>> Get(std::string_view key) const = 0;
  // Rows whose key starts with `prefix`, in key order (descending when `reverse`), beginning at
  // `start` (inclusive; empty = the first row of the prefix in that direction). `visit` returns
  // false to stop.
  virtual Status Scan(
      std::string_view prefix, std::string_view start, bool reverse,
      const std::function<bool(std::string_view key, std::string_view value)>& visit) const = 0;
  // Get of each key, answers in the keys' order (looked up together where the store can).
  virtual Result<std::vector<std::optional<std::string>>> MultiGet(
      const std::vector<std::string>& keys) const;
  // A cursor over the rows whose key starts with `prefix` (keys as Scan reports them).
  virtual std::unique_ptr<RowCursor> OpenCursor(std::string_view prefix) const;
};

inline Result<std::vector<std::optional<std::string>>> ViewReader::MultiGet(
    const std::vector<std::string>& keys) const {
  return GetEachKey(*this, keys);
}

inline std::unique_ptr<RowCursor> ViewReader::OpenCursor(std::string_view prefix) const {
  return std::make_unique<ScanningCursor<ViewReader>>(*this, prefix);
}

// The pending writes of one projection for the events being applied. Get sees the batch's own
// writes first, then the committed rows.
class ViewBatch {
 public:
  virtual ~ViewBatch() = default;
  virtual void Put(std::string_view key, std::string_view value) = 0;
  // The same for a value the caller no longer needs: an implementation may keep it without a copy.
  virtual void Put(std::string_view key, std::string&& value) { Put(key, std::string_view(value)); }
  void Put(std::string_view key, const char* value) { Put(key, std::string_view(value)); }
  virtual void Delete(std::string_view key) = 0;
  // A row the batch writes at most once and never reads back (Get need not see it), which a
  // store may keep more cheaply (once_rows.h); by default Put and Delete.
  virtual void PutOnce(std::string_view key, std::string_view value) { Put(key, value); }
  virtual void DeleteOnce(std::string_view key) { Delete(key); }
  virtual Result<std::optional<std::string>> Get(std::string_view key) const = 0;
};

class Projection {
 public:
  virtual ~Projection() = default;
  // Stable name: its key space and checkpoint. Changing it rebuilds the view from the log.
  virtual std::string_view Name() const = 0;
  // Applies one event. Events of no interest are ignored (return success).
  virtual Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) = 0;
  // After the last Apply of a batch and before its commit: writes what the projection deferred,
  // so rows of an entity that several events of the batch changed are computed once.
  virtual Status Flush(ViewBatch& /*batch*/) { return {}; }
  // After a batch of applied events is durable; a projection that keeps in-memory state
  // (caches, small directories) publishes it here.
  virtual void Committed() {}
  // Once at start, before any Apply, with the committed rows: loads in-memory state.
  virtual Status Load(const ViewReader& /*rows*/) { return {}; }
};

}  // namespace esign::projections
