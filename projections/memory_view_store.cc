#include "projections/memory_view_store.h"

#include <mutex>

#include "projections/key_codec.h"

namespace esign::projections {

// Reads under a shared lock taken at construction: the state cannot change while it lives.
class MemoryViewStore::LockedReader final : public RowReader {
 public:
  explicit LockedReader(const MemoryViewStore& store) : store_(store), lock_(store.mutex_) {}

  Result<std::optional<std::string>> Get(std::string_view key) const override {
    const auto it = store_.rows_.find(key);
    if (it == store_.rows_.end()) return std::nullopt;
    return it->second;
  }
  Status Scan(std::string_view prefix, std::string_view start, bool reverse,
              const Visitor& visit) const override {
    return ScanRows(store_.rows_, prefix, start, reverse, visit);
  }

 private:
  const MemoryViewStore& store_;
  std::shared_lock<std::shared_mutex> lock_;
};

Result<std::optional<std::string>> MemoryViewStore::Get(std::string_view key) const {
  std::shared_lock lock(mutex_);
  const auto it = rows_.find(key);
  if (it == rows_.end()) return std::nullopt;
  return it->second;
}

Status MemoryViewStore::Scan(std::string_view prefix, std::string_view start, bool reverse,
                             const Visitor& visit) const {
  std::shared_lock lock(mutex_);
  return ScanRows(rows_, prefix, start, reverse, visit);
}

Status MemoryViewStore::ScanRows(const Rows& rows, std::string_view prefix, std::string_view start,
                                 bool reverse, const Visitor& visit) {
  const auto in_prefix = [&](const std::string& key) {
    return std::string_view(key).starts_with(prefix);
  };
  if (!reverse) {
    auto it = rows.lower_bound(start.empty() || start < prefix ? prefix : start);
    for (; it != rows.end() && in_prefix(it->first); ++it) {
      if (!visit(it->first, it->second)) break;
    }
    return {};
  }
  // Step back from the first row past the range: every key in [prefix, its successor) starts
  // with the prefix, so the first one that does not ends the scan.
  const std::string upper = PrefixSuccessor(prefix);
  auto it = upper.empty() ? rows.end() : rows.lower_bound(upper);
  if (!start.empty() && (upper.empty() || start < upper)) it = rows.upper_bound(start);
  while (it != rows.begin()) {
    --it;
    if (!in_prefix(it->first)) break;
    if (!visit(it->first, it->second)) break;
  }
  return {};
}

Result<uint64_t> MemoryViewStore::Checkpoint(std::string_view projection) const {
  std::shared_lock lock(mutex_);
  const auto it = checkpoints_.find(projection);
  return it == checkpoints_.end() ? 0 : it->second;
}

Status MemoryViewStore::Commit(const ViewCommit& commit) {
  std::unique_lock lock(mutex_);
  for (const auto& [key, value] : commit.rows) {
    if (value) {
      rows_.insert_or_assign(key, *value);
    } else if (const auto it = rows_.find(key); it != rows_.end()) {
      rows_.erase(it);
    }
  }
  for (const OnceRows::Row& row : commit.once_rows.Rows()) {
    if (row.value) {
      rows_.insert_or_assign(std::string(row.key), std::string(*row.value));
    } else if (const auto it = rows_.find(row.key); it != rows_.end()) {
      rows_.erase(it);
    }
  }
  for (const auto& [name, position] : commit.checkpoints) {
    checkpoints_.insert_or_assign(name, position);
  }
  return {};
}

Status MemoryViewStore::DeletePrefix(std::string_view prefix) {
  std::unique_lock lock(mutex_);
  auto it = rows_.lower_bound(prefix);
  while (it != rows_.end() && it->first.starts_with(prefix)) it = rows_.erase(it);
  return {};
}

std::unique_ptr<const RowReader> MemoryViewStore::Snapshot() const {
  return std::make_unique<LockedReader>(*this);
}

size_t MemoryViewStore::RowCount() const {
  std::shared_lock lock(mutex_);
  return rows_.size();
}

}  // namespace esign::projections
