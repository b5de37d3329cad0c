#include "eventstore/rocksdb_append_index.h"

#include <limits>
#include <memory>

#include "eventstore/rocksdb_status.h"

namespace esign::eventstore {

Result<StreamVersion> RocksAppendIndex::LoadVersion(std::string_view stream_id) const {
  rocksdb::ReadOptions read;
  read.prefix_same_as_start = true;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read, streams_));
  const std::string last =
      StreamKey(stream_id, StreamVersion(std::numeric_limits<uint64_t>::max()));
  it->SeekForPrev(last);
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading the stream index");
  if (!it->Valid()) return StreamVersion(0);
  return StreamKeyVersion(it->key().ToStringView(), stream_id).value_or(StreamVersion(0));
}

Status RocksAppendIndex::LookupEventIds(std::span<const std::string_view> ids,
                                        std::vector<std::optional<EventIdEntry>>& out) const {
  out.assign(ids.size(), std::nullopt);
  if (ids.empty()) return {};
  keys_.assign(ids.begin(), ids.end());
  if (values_.size() < ids.size()) values_.resize(ids.size());
  statuses_.resize(ids.size());
  db_->MultiGet(rocksdb::ReadOptions(), event_ids_, ids.size(), keys_.data(), values_.data(),
                statuses_.data());
  Status result;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (statuses_[i].ok()) {
      out[i] = DecodeEventIdEntry(values_[i].ToStringView());
      if (!out[i] && result) {
        result = Fail(ErrorCode::kCorruption,
                      "malformed event id entry for '" + std::string(ids[i]) + "'");
      }
    } else if (!statuses_[i].IsNotFound() && result) {
      result = FailFromRocks(statuses_[i], "reading the event id index");
    }
    values_[i].Reset();
  }
  return result;
}

Result<std::optional<GlobalPosition>> RocksAppendIndex::PositionAt(std::string_view stream_id,
                                                                   StreamVersion version) const {
  rocksdb::PinnableSlice value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), streams_, StreamKey(stream_id, version), &value);
  if (status.IsNotFound()) return std::optional<GlobalPosition>();
  if (!status.ok()) return FailFromRocks(status, "reading the stream index");
  const std::optional<uint64_t> position = DecodeU64(value.ToStringView());
  if (!position) return Fail(ErrorCode::kCorruption, "malformed stream index entry");
  return std::optional(GlobalPosition(*position));
}

}  // namespace esign::eventstore
