// RelayCheckpoint: how far the Kafka relay has published the log, durably, in the event store's
// own database ("checkpoints" family, beside the projections' checkpoints; not an event of the
// log). The record also names the cluster it holds for: a checkpoint of another cluster (or of an
// earlier embedded cluster, whose topic died with the process) counts as no checkpoint.
// Thread safety: every method may be called from any thread. The database must outlive it.
#pragma once

#include <cstdint>
#include <string>

#include <rocksdb/db.h>

#include "domain/result.h"
#include "eventstore/rocksdb_event_store.h"

namespace esign::webhooks {

class RelayCheckpoint {
 public:
  // kInternal when the store has no checkpoints family. `name` identifies the relay (its topic).
  static Result<RelayCheckpoint> Open(const eventstore::RocksEventStore& store,
                                      const std::string& name);

  // The position of the first event not yet acknowledged by `cluster`; 0 when none is stored or
  // it was stored for another cluster.
  Result<uint64_t> Load(const std::string& cluster) const;
  // Written without a WAL sync: a checkpoint lost in a machine crash only means some events are
  // published again (consumers deduplicate by event id).
  Status Store(const std::string& cluster, uint64_t position);

 private:
  RelayCheckpoint(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family, std::string key)
      : db_(db), family_(family), key_(std::move(key)) {}
  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* family_;
  std::string key_;
};

}  // namespace esign::webhooks
