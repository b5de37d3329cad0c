#include "eventstore/rocksdb_ledger.h"

#include <array>
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"

namespace esign::eventstore {
namespace {

std::string NodeName(NodeId id) {
  return std::to_string(id.level) + "/" + std::to_string(id.index);
}

Result<Hash> DecodeHash(const rocksdb::Slice& value, NodeId id) {
  std::optional<Hash> hash = DecodeNodeHash(value.ToStringView());
  if (!hash) return Fail(ErrorCode::kCorruption, "malformed ledger node " + NodeName(id));
  return *hash;
}

}  // namespace

Result<Hash> RocksNodeSource::Get(NodeId id) const {
  if (std::optional<Hash> cached = cache_.Find(id)) return *cached;
  const NodeKey key = EncodeNodeKey(id);
  rocksdb::PinnableSlice value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), family_, rocksdb::Slice(key.data(), key.size()), &value);
  if (status.IsNotFound()) {
    return Fail(ErrorCode::kNotFound, "ledger node " + NodeName(id) + " is not stored");
  }
  if (!status.ok()) return FailFromRocks(status, "reading ledger node " + NodeName(id));
  return DecodeHash(value, id);
}

Result<std::vector<Hash>> RocksNodeSource::GetMany(const std::vector<NodeId>& ids) const {
  std::vector<Hash> hashes(ids.size());
  // A proof needs about 2 log2(size) nodes: fixed buffers keep the common case allocation-free.
  constexpr size_t kInline = 128;
  if (ids.size() > kInline) return NodeSource::GetMany(ids);
  std::array<bool, kInline> held;
  if (cache_.FindMany(ids, hashes, std::span(held.data(), ids.size())) == ids.size()) {
    return hashes;
  }
  std::array<size_t, kInline> slots;
  std::array<NodeKey, kInline> keys;
  std::array<rocksdb::Slice, kInline> slices;
  size_t missing = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (held[i]) continue;
    slots[missing] = i;
    keys[missing] = EncodeNodeKey(ids[i]);
    slices[missing] = rocksdb::Slice(keys[missing].data(), keys[missing].size());
    ++missing;
  }
  std::array<rocksdb::PinnableSlice, kInline> values;
  std::array<rocksdb::Status, kInline> statuses;
  db_->MultiGet(rocksdb::ReadOptions(), family_, missing, slices.data(), values.data(),
                statuses.data());
  for (size_t m = 0; m < missing; ++m) {
    const NodeId id = ids[slots[m]];
    if (statuses[m].IsNotFound()) {
      return Fail(ErrorCode::kNotFound, "ledger node " + NodeName(id) + " is not stored");
    }
    if (!statuses[m].ok()) return FailFromRocks(statuses[m], "reading ledger node " + NodeName(id));
    Result<Hash> hash = DecodeHash(values[m], id);
    if (!hash) return Fail(hash.error());
    hashes[slots[m]] = *hash;
  }
  return hashes;
}

Status RocksNodeSource::LoadCache(NodeCache& cache) const {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), family_));
  const NodeKey first = EncodeNodeKey(NodeId{cache.min_level(), 0});
  std::vector<NewNode> chunk;
  for (it->Seek(rocksdb::Slice(first.data(), first.size())); it->Valid(); it->Next()) {
    const std::optional<NodeId> id = DecodeNodeKey(it->key().ToStringView());
    if (!id) return Fail(ErrorCode::kCorruption, "malformed ledger node key");
    Result<Hash> hash = DecodeHash(it->value(), *id);
    if (!hash) return Fail(hash.error());
    chunk.push_back(NewNode{*id, *hash});
    if (chunk.size() == 4096) {
      if (Status added = cache.Add(chunk); !added) {
        return Fail(ErrorCode::kCorruption, added.error().message);
      }
      chunk.clear();
    }
  }
  if (!it->status().ok()) return FailFromRocks(it->status(), "loading ledger nodes");
  if (Status added = cache.Add(chunk); !added) {
    return Fail(ErrorCode::kCorruption, added.error().message);
  }
  return {};
}

Result<uint64_t> RocksNodeSource::StoredLeaves() const {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), family_));
  const NodeKey last = EncodeNodeKey(NodeId{0, std::numeric_limits<uint64_t>::max()});
  it->SeekForPrev(rocksdb::Slice(last.data(), last.size()));
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading ledger nodes");
  if (!it->Valid()) return uint64_t{0};
  const std::optional<NodeId> id = DecodeNodeKey(it->key().ToStringView());
  if (!id) return Fail(ErrorCode::kCorruption, "malformed ledger node key");
  return id->level == 0 ? id->index + 1 : 0;
}

Status RocksTreeHeadLog::Store(const SignedTreeHead& head) {
  if (replicated_) return replicated_(head);
  rocksdb::WriteOptions write;
  write.sync = true;
  const U64Key key = EncodeU64(head.size);
  const rocksdb::Status status = db_->Put(write, family_, rocksdb::Slice(key.data(), key.size()),
                                          SerializeStoredTreeHead(head));
  if (!status.ok()) return FailFromRocks(status, "storing a tree head");
  return {};
}

Result<std::vector<SignedTreeHead>> RocksTreeHeadLog::LoadAll() const {
  std::vector<SignedTreeHead> heads;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), family_));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Result<SignedTreeHead> head = ParseStoredTreeHead(it->value().ToStringView());
    if (!head) return Fail(ErrorCode::kCorruption, "malformed tree head: " + head.error().message);
    heads.push_back(std::move(*head));
  }
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading tree heads");
  return heads;
}

}  // namespace esign::eventstore
