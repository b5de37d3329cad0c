#include "projections/rebuild.h"

#include <algorithm>
#include <utility>

#include "projections/projection_runner.h"

namespace esign::projections {

Result<uint64_t> Rebuild(const eventstore::EventStore& log,
                         const std::vector<Projection*>& projections, ViewStore& target,
                         size_t batch_size) {
  ProjectionRunner runner(target, projections);
  if (Status loaded = runner.Load(); !loaded) return Fail(loaded.error());
  const uint64_t end = log.Size();
  batch_size = std::max<size_t>(batch_size, 1);
  while (runner.position() < end) {
    const size_t count =
        static_cast<size_t>(std::min<uint64_t>(batch_size, end - runner.position()));
    Result<std::vector<eventstore::EventRecord>> events =
        log.ReadAll(GlobalPosition(runner.position()), count);
    if (!events) return Fail(events.error());
    if (events->empty()) {
      return Fail(ErrorCode::kCorruption,
                  "the log ends at " + std::to_string(runner.position()) + ", before its size");
    }
    if (Status applied = runner.Apply(*events); !applied) return Fail(applied.error());
  }
  return runner.position();
}

namespace {

// Every row of a reader, in key order, read in chunks so neither store is held in memory whole
// nor scanned once per row.
class RowsInOrder {
 public:
  explicit RowsInOrder(const RowReader& rows) : rows_(rows) {}

  // Moves to the next row (the first one on the first call).
  Status Next() {
    if (++index_ < chunk_.size()) return {};
    if (exhausted_) {
      has_row_ = false;
      return {};
    }
    std::string after = chunk_.empty() ? std::string() : chunk_.back().first;
    const bool skip_first = !chunk_.empty();
    chunk_.clear();
    index_ = 0;
    Status scanned =
        rows_.Scan("", after, false, [&](std::string_view key, std::string_view value) {
          if (skip_first && key == after) return true;
          chunk_.emplace_back(std::string(key), std::string(value));
          return chunk_.size() < kChunkRows;
        });
    if (!scanned) return scanned;
    exhausted_ = chunk_.size() < kChunkRows;
    has_row_ = !chunk_.empty();
    return {};
  }
  bool has_row() const { return has_row_; }
  const std::string& key() const { return chunk_[index_].first; }
  const std::string& value() const { return chunk_[index_].second; }

 private:
  static constexpr size_t kChunkRows = 1024;
  const RowReader& rows_;
  std::vector<std::pair<std::string, std::string>> chunk_;
  size_t index_ = 0;
  bool exhausted_ = false;
  bool has_row_ = false;
};

}  // namespace

Result<std::optional<std::string>> FirstDifference(const RowReader& a, const RowReader& b) {
  RowsInOrder left(a);
  RowsInOrder right(b);
  if (Status s = left.Next(); !s) return Fail(s.error());
  if (Status s = right.Next(); !s) return Fail(s.error());
  while (left.has_row() || right.has_row()) {
    if (!left.has_row()) return right.key();
    if (!right.has_row()) return left.key();
    if (left.key() != right.key()) return std::min(left.key(), right.key());
    if (left.value() != right.value()) return left.key();
    if (Status s = left.Next(); !s) return Fail(s.error());
    if (Status s = right.Next(); !s) return Fail(s.error());
  }
  return std::nullopt;
}

}  // namespace esign::projections
