// Content-addressed blobs in the blobs family: key SHA-256 lower-case hex, value the bytes.
//
// Thread safety: may be used from any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <rocksdb/db.h>

#include "eventstore/event_store.h"

namespace esign::eventstore {

class RocksBlobStore final : public BlobStore {
 public:
  RocksBlobStore(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family, bool sync)
      : db_(db), family_(family), sync_(sync) {}

  Result<std::string> Put(std::string_view bytes) override;
  // Unsynced: every family shares one write-ahead log, and RocksDB syncs every log file written
  // before a synced write (or the appender's WAL sync), so the append that follows makes it
  // durable. With a replicated log, as Put.
  Result<std::string> PutBeforeAppend(std::string_view bytes) override;
  Result<std::string> Get(std::string_view sha256_hex) const override;
  Result<bool> Contains(std::string_view sha256_hex) const override;
  Status Delete(std::string_view sha256_hex) override;

  // With a replicated log, puts (bytes) and deletions (nullopt) go through `write`, which
  // publishes them before it writes. Set once, before any use.
  using ReplicatedWrite =
      std::function<Status(const std::string& sha256_hex, std::optional<std::string_view> bytes)>;
  void SetReplicatedWrite(ReplicatedWrite write) { replicated_ = std::move(write); }

 private:
  ReplicatedWrite replicated_;
  rocksdb::DB* const db_;
  rocksdb::ColumnFamilyHandle* const family_;
  const bool sync_;

  Result<std::string> Write(std::string_view bytes, bool sync);
};

}  // namespace esign::eventstore
