// The RocksDB side of the ledger: perfect nodes in the ledger_nodes family (upper levels served
// from a NodeCache) and signed heads in the tree_heads family.
//
// Thread safety: both classes may be used from any thread.
#pragma once

#include <functional>
#include <vector>

#include <rocksdb/db.h>

#include "eventstore/merkle_ledger.h"
#include "eventstore/node_cache.h"

namespace esign::eventstore {

class RocksNodeSource final : public NodeSource {
 public:
  RocksNodeSource(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family, const NodeCache& cache)
      : db_(db), family_(family), cache_(cache) {}

  Result<Hash> Get(NodeId id) const override;
  // Cached nodes from memory under one lock, the others in one MultiGet.
  Result<std::vector<Hash>> GetMany(const std::vector<NodeId>& ids) const override;

  // Fills `cache` with the stored nodes it covers.
  Status LoadCache(NodeCache& cache) const;
  // Leaves (level-0 nodes) stored: one past the last leaf's index.
  Result<uint64_t> StoredLeaves() const;

 private:
  rocksdb::DB* const db_;
  rocksdb::ColumnFamilyHandle* const family_;
  const NodeCache& cache_;
};

class RocksTreeHeadLog final : public TreeHeadLog {
 public:
  RocksTreeHeadLog(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family)
      : db_(db), family_(family) {}

  // A synced write: a head handed out must survive a crash.
  Status Store(const SignedTreeHead& head) override;
  // With a replicated log, heads are stored through `write`, which publishes them before it
  // writes. Set once, before any use.
  void SetReplicatedWrite(std::function<Status(const SignedTreeHead&)> write) {
    replicated_ = std::move(write);
  }
  Result<std::vector<SignedTreeHead>> LoadAll() const override;

 private:
  rocksdb::DB* const db_;
  rocksdb::ColumnFamilyHandle* const family_;
  std::function<Status(const SignedTreeHead&)> replicated_;
};

}  // namespace esign::eventstore
