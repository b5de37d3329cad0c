#include "webhooks/relay_checkpoint.h"

#include "eventstore/rocksdb_options.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"

namespace esign::webhooks {

Result<RelayCheckpoint> RelayCheckpoint::Open(const eventstore::RocksEventStore& store,
                                              const std::string& name) {
  rocksdb::ColumnFamilyHandle* family = store.Family(eventstore::family::kCheckpoints);
  if (family == nullptr) return Fail(ErrorCode::kInternal, "the store has no checkpoints family");
  // The projections name their checkpoints after themselves; this prefix keeps the relay apart.
  return RelayCheckpoint(store.db(), family, "relay/" + name);
}

Result<uint64_t> RelayCheckpoint::Load(const std::string& cluster) const {
  std::string value;
  const rocksdb::Status status = db_->Get(rocksdb::ReadOptions(), family_, key_, &value);
  if (status.IsNotFound()) return 0;
  if (!status.ok()) return eventstore::FailFromRocks(status, "reading the relay checkpoint");
  // Big-endian position, then the cluster's name.
  if (value.size() < 8) return Fail(ErrorCode::kCorruption, "relay checkpoint too short");
  if (std::string_view(value).substr(8) != cluster) return 0;
  return eventstore::DecodeU64(std::string_view(value).substr(0, 8)).value_or(0);
}

Status RelayCheckpoint::Store(const std::string& cluster, uint64_t position) {
  const eventstore::U64Key encoded = eventstore::EncodeU64(position);
  std::string value(encoded.begin(), encoded.end());
  value += cluster;
  const rocksdb::Status status = db_->Put(rocksdb::WriteOptions(), family_, key_, value);
  if (!status.ok()) return eventstore::FailFromRocks(status, "writing the relay checkpoint");
  return {};
}

}  // namespace esign::webhooks
