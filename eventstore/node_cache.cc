#include "eventstore/node_cache.h"

#include <mutex>
#include <string>

namespace esign::eventstore {
namespace {

std::unexpected<Error> Missing(NodeId id) {
  return Fail(ErrorCode::kNotFound, "ledger node " + std::to_string(id.level) + "/" +
                                        std::to_string(id.index) + " is not stored");
}

}  // namespace

uint32_t NodeCache::min_level() const {
  std::shared_lock lock(mutex_);
  return min_level_;
}

void NodeCache::StartFor(uint64_t leaves) {
  std::unique_lock lock(mutex_);
  // Levels from L upward hold about 2 * leaves / 2^L hashes.
  while (min_level_ < 63 && 2 * (leaves >> min_level_) * sizeof(Hash) > max_bytes_ / 2) {
    ++min_level_;
  }
}

void NodeCache::DropLevelsOverLimit() {
  while (levels_.size() > 1 && held_ * sizeof(Hash) > max_bytes_) {
    held_ -= levels_.front().size();
    levels_.pop_front();
    ++min_level_;
  }
}

Status NodeCache::Add(std::span<const NewNode> nodes) {
  std::unique_lock lock(mutex_);
  for (const NewNode& node : nodes) {
    if (node.id.level < min_level_) continue;
    const size_t slot = node.id.level - min_level_;
    if (levels_.size() <= slot) levels_.resize(slot + 1);
    std::deque<Hash>& level = levels_[slot];
    if (node.id.index < level.size()) continue;
    if (node.id.index > level.size()) {
      return Fail(ErrorCode::kInternal, "ledger node " + std::to_string(node.id.level) + "/" +
                                            std::to_string(node.id.index) +
                                            " arrived before its left neighbour");
    }
    level.push_back(node.hash);
    ++held_;
  }
  DropLevelsOverLimit();
  return {};
}

std::optional<Hash> NodeCache::Find(NodeId id) const {
  std::shared_lock lock(mutex_);
  if (id.level < min_level_) return std::nullopt;
  const size_t slot = id.level - min_level_;
  if (slot >= levels_.size() || id.index >= levels_[slot].size()) return std::nullopt;
  return levels_[slot][id.index];
}

size_t NodeCache::FindMany(std::span<const NodeId> ids, std::span<Hash> hashes,
                           std::span<bool> held) const {
  size_t found = 0;
  std::shared_lock lock(mutex_);
  for (size_t i = 0; i < ids.size(); ++i) {
    const NodeId id = ids[i];
    const size_t slot = id.level - min_level_;
    held[i] = id.level >= min_level_ && slot < levels_.size() && id.index < levels_[slot].size();
    if (held[i]) {
      hashes[i] = levels_[slot][id.index];
      ++found;
    }
  }
  return found;
}

size_t NodeCache::node_count() const {
  std::shared_lock lock(mutex_);
  return held_;
}

Result<Hash> NodeCache::Get(NodeId id) const {
  if (std::optional<Hash> hash = Find(id)) return *hash;
  return Missing(id);
}

Result<std::vector<Hash>> NodeCache::GetMany(const std::vector<NodeId>& ids) const {
  std::vector<Hash> hashes;
  hashes.reserve(ids.size());
  std::shared_lock lock(mutex_);
  for (const NodeId id : ids) {
    const size_t slot = id.level - min_level_;
    if (id.level < min_level_ || slot >= levels_.size() || id.index >= levels_[slot].size()) {
      return Missing(id);
    }
    hashes.push_back(levels_[slot][id.index]);
  }
  return hashes;
}

}  // namespace esign::eventstore
