#include "projections/index_cursor.h"

#include <algorithm>

namespace esign::projections {

IndexCursor::IndexCursor(const ViewReader& rows, std::string prefix, ScanBudget& budget)
    : rows_(rows), prefix_(std::move(prefix)), budget_(budget) {}

bool IndexCursor::Covers(const std::optional<std::string>& bound, bool inclusive) const {
  if (!has_chunk_) return false;
  if (!chunk_start_) return true;
  if (!bound) return false;
  // The chunk holds every suffix below its start; the bound must not reach above that.
  if (*bound != *chunk_start_) return *bound < *chunk_start_;
  return chunk_start_inclusive_ || !inclusive;
}

Status IndexCursor::Read(const std::optional<std::string>& bound, bool inclusive) {
  // Stepping on from the end of the last chunk reads a larger one; a jump starts small.
  const bool continues =
      has_chunk_ && !chunk_.empty() && bound && !inclusive && *bound == chunk_.back();
  chunk_size_ = continues ? std::min(chunk_size_ * 2, kLargestChunk) : kFirstChunk;
  chunk_.clear();
  chunk_start_ = bound;
  chunk_start_inclusive_ = inclusive;
  reached_end_ = true;
  has_chunk_ = true;
  const std::string start = bound ? prefix_ + *bound : std::string();
  esign::Status scanned =
      rows_.Scan(prefix_, start, true, [&](std::string_view key, std::string_view /*value*/) {
        if (bound && !inclusive && key == start) return true;
        if (chunk_.size() >= chunk_size_ || !budget_.Take()) {
          reached_end_ = false;
          return false;
        }
        chunk_.emplace_back(key.substr(prefix_.size()));
        return true;
      });
  if (!scanned) has_chunk_ = false;
  return scanned;
}

Result<IndexCursor::Step> IndexCursor::Seek(const std::optional<std::string>& bound,
                                            bool inclusive) {
  if (Covers(bound, inclusive)) {
    // Greatest first: the first suffix below the bound, by bisection (chunks reach 512 rows).
    const auto it =
        std::partition_point(chunk_.begin(), chunk_.end(), [&](const std::string& suffix) {
          return bound && (inclusive ? suffix > *bound : suffix >= *bound);
        });
    if (it != chunk_.end()) return Step{Outcome::kFound, *it};
    if (reached_end_) return Step{Outcome::kEnd, {}};
  }
  if (budget_.exhausted()) return Step{Outcome::kOutOfBudget, {}};
  if (Status read = Read(bound, inclusive); !read) return Fail(read.error());
  if (!chunk_.empty()) return Step{Outcome::kFound, chunk_.front()};
  return Step{reached_end_ ? Outcome::kEnd : Outcome::kOutOfBudget, {}};
}

}  // namespace esign::projections
