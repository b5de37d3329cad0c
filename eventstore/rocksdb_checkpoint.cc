#include "eventstore/rocksdb_checkpoint.h"

#include <memory>

#include <rocksdb/utilities/checkpoint.h>

#include "eventstore/rocksdb_status.h"

namespace esign::eventstore {

Status CheckpointDatabase(rocksdb::DB& db, const std::string& target_dir) {
  rocksdb::Checkpoint* raw = nullptr;
  if (const rocksdb::Status made = rocksdb::Checkpoint::Create(&db, &raw); !made.ok()) {
    return FailFromRocks(made, "preparing a checkpoint of " + db.GetName());
  }
  const std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  // log_size_for_flush 0: always flush, so the copy holds every write in SST files.
  const rocksdb::Status created = checkpoint->CreateCheckpoint(target_dir, 0);
  if (!created.ok()) {
    return FailFromRocks(created, "checkpointing " + db.GetName() + " to " + target_dir);
  }
  return {};
}

}  // namespace esign::eventstore
