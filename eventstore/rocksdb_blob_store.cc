#include "eventstore/rocksdb_blob_store.h"

#include <string>

#include "base/sha256.h"
#include "eventstore/rocksdb_status.h"

namespace esign::eventstore {

Result<std::string> RocksBlobStore::Put(std::string_view bytes) { return Write(bytes, sync_); }

Result<std::string> RocksBlobStore::PutBeforeAppend(std::string_view bytes) {
  return Write(bytes, false);
}

Result<std::string> RocksBlobStore::Write(std::string_view bytes, bool sync) {
  std::string key = Sha256Hex(bytes);
  if (replicated_) {
    if (Status written = replicated_(key, bytes); !written) return Fail(written.error());
    return key;
  }
  rocksdb::WriteOptions write;
  write.sync = sync;
  const rocksdb::Status status = db_->Put(write, family_, key, rocksdb::Slice(bytes));
  if (!status.ok()) return FailFromRocks(status, "storing blob " + key);
  return key;
}

Result<std::string> RocksBlobStore::Get(std::string_view sha256_hex) const {
  std::string value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), family_, rocksdb::Slice(sha256_hex), &value);
  if (status.IsNotFound()) {
    return Fail(ErrorCode::kNotFound, "no blob " + std::string(sha256_hex));
  }
  if (!status.ok()) return FailFromRocks(status, "reading blob " + std::string(sha256_hex));
  return value;
}

Result<bool> RocksBlobStore::Contains(std::string_view sha256_hex) const {
  rocksdb::PinnableSlice value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), family_, rocksdb::Slice(sha256_hex), &value);
  if (status.IsNotFound()) return false;
  if (!status.ok()) return FailFromRocks(status, "reading blob " + std::string(sha256_hex));
  return true;
}

Status RocksBlobStore::Delete(std::string_view sha256_hex) {
  if (replicated_) return replicated_(std::string(sha256_hex), std::nullopt);
  rocksdb::WriteOptions write;
  write.sync = sync_;
  const rocksdb::Status status = db_->Delete(write, family_, rocksdb::Slice(sha256_hex));
  if (!status.ok()) return FailFromRocks(status, "deleting blob " + std::string(sha256_hex));
  return {};
}

}  // namespace esign::eventstore
