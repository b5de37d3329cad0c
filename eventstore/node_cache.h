// Perfect Merkle nodes from a given level upward, held in memory. Nodes never change once written
// and arrive left to right on each level, so each level is a dense array indexed by node index.
// The in-memory store keeps every level here (min_level 0); the RocksDB store keeps the upper
// levels, which every proof touches, and reads the lower ones from disk. With a byte limit the
// cache never grows past it: when an Add would pass it, the lowest level held is dropped (it is
// half of what is held) and the cache covers one level fewer from then on.
//
// Thread safety: Add takes an exclusive lock, readers a shared one; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <shared_mutex>
#include <span>
#include <vector>

#include "domain/result.h"
#include "eventstore/merkle.h"

namespace esign::eventstore {

class NodeCache final : public NodeSource {
 public:
  explicit NodeCache(uint32_t min_level, size_t max_bytes = SIZE_MAX)
      : min_level_(min_level), max_bytes_(max_bytes) {}

  // The lowest level held; rises as levels are dropped.
  uint32_t min_level() const;
  // Before the first Add: starts at the lowest level whose nodes, for a log of `leaves` events,
  // take at most half of the byte limit (the log may then double before a level is dropped).
  void StartFor(uint64_t leaves);

  // Adds nodes of levels >= min_level; below it they are ignored. Each level must grow by its next
  // index (a node already held is ignored); kInternal on a gap.
  Status Add(std::span<const NewNode> nodes);
  std::optional<Hash> Find(NodeId id) const;
  // Finds many under one lock: sets hashes[i] and held[i] = true for every ids[i] held here.
  // Returns how many were held.
  size_t FindMany(std::span<const NodeId> ids, std::span<Hash> hashes, std::span<bool> held) const;
  // Hashes held in memory, for sizing.
  size_t node_count() const;

  // NodeSource over the cached levels only; kNotFound for anything else.
  Result<Hash> Get(NodeId id) const override;
  Result<std::vector<Hash>> GetMany(const std::vector<NodeId>& ids) const override;

 private:
  // Drops the lowest level while more than max_bytes_ are held and a level above it is held.
  void DropLevelsOverLimit();

  mutable std::shared_mutex mutex_;
  uint32_t min_level_;  // guarded by mutex_
  const size_t max_bytes_;
  size_t held_ = 0;                      // hashes held; guarded by mutex_
  std::deque<std::deque<Hash>> levels_;  // [level - min_level][index]; guarded by mutex_
};

}  // namespace esign::eventstore
