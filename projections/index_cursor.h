// IndexCursor: reads the keys of one index prefix backwards (greatest first) for the list scan,
// with Seek to the greatest key below a bound, and charges every row it reads from storage to a
// ScanBudget shared by the whole request. Keys are handled as their suffix after the prefix
// (for the id-ordered indexes: the escaped contract id; for a date index: "<time>/<id>").
//
// Rows are read in chunks of one Scan each: a cursor that steps through its index reads ever
// larger chunks (16 doubling to 512), one that seeks far away starts small again, so a seek costs
// one storage seek and a sequential walk costs about one row read per key.
// Thread safety: one request's; the reader must outlive it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "projections/projection.h"

namespace esign::projections {

// How many index rows one request may still read. While held, rows are granted past the end:
// a scan holds the budget until it has moved past its start, so that every request makes
// progress however small the budget (a few more rows than the budget, bounded by one chunk per
// index of the plan).
class ScanBudget {
 public:
  explicit ScanBudget(size_t rows) : left_(rows) {}
  bool exhausted() const { return left_ == 0 && !held_; }
  size_t left() const { return left_; }
  void Hold(bool held) { held_ = held; }
  // Takes one row; false when none was left.
  bool Take() {
    if (left_ == 0) return held_;
    --left_;
    return true;
  }

 private:
  size_t left_;
  bool held_ = false;
};

class IndexCursor {
 public:
  enum class Outcome { kFound, kEnd, kOutOfBudget };
  struct Step {
    Outcome outcome = Outcome::kEnd;
    std::string suffix;  // when kFound
  };

  IndexCursor(const ViewReader& rows, std::string prefix, ScanBudget& budget);

  // The greatest suffix below `bound` (at or below it when `inclusive`; no bound: the greatest
  // of all).
  Result<Step> Seek(const std::optional<std::string>& bound, bool inclusive);

 private:
  // Whether the chunk read answers for this bound: it was read from a start at or above it.
  bool Covers(const std::optional<std::string>& bound, bool inclusive) const;
  Status Read(const std::optional<std::string>& bound, bool inclusive);

  static constexpr size_t kFirstChunk = 16;
  static constexpr size_t kLargestChunk = 512;

  const ViewReader& rows_;
  const std::string prefix_;
  ScanBudget& budget_;
  // The last chunk: suffixes, greatest first, which are every suffix from the chunk's start
  // down to its last one (down to the end of the index when `reached_end_`).
  std::vector<std::string> chunk_;
  std::optional<std::string> chunk_start_;  // no value: from the greatest
  bool chunk_start_inclusive_ = true;
  bool reached_end_ = false;
  bool has_chunk_ = false;
  size_t chunk_size_ = kFirstChunk;
};

}  // namespace esign::projections
