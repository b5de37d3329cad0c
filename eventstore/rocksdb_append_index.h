// The AppendPlanner's view of stored streams and event ids in RocksDB.
//
// Thread safety: LookupEventIds reuses scratch buffers and is for the appender thread only; the
// other methods may be called from any thread.
#pragma once

#include <vector>

#include <rocksdb/db.h>

#include "eventstore/append_planner.h"

namespace esign::eventstore {

class RocksAppendIndex final : public AppendIndex {
 public:
  RocksAppendIndex(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* streams,
                   rocksdb::ColumnFamilyHandle* event_ids)
      : db_(db), streams_(streams), event_ids_(event_ids) {}

  Result<StreamVersion> LoadVersion(std::string_view stream_id) const override;
  Status LookupEventIds(std::span<const std::string_view> ids,
                        std::vector<std::optional<EventIdEntry>>& out) const override;
  Result<std::optional<GlobalPosition>> PositionAt(std::string_view stream_id,
                                                   StreamVersion version) const override;

 private:
  rocksdb::DB* const db_;
  rocksdb::ColumnFamilyHandle* const streams_;
  rocksdb::ColumnFamilyHandle* const event_ids_;
  mutable std::vector<rocksdb::Slice> keys_;
  mutable std::vector<rocksdb::PinnableSlice> values_;
  mutable std::vector<rocksdb::Status> statuses_;
};

}  // namespace esign::eventstore
