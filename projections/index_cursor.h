// IndexCursor: reads the keys of one index prefix backwards (greatest first) for the list scan,
// with Seek to the greatest key below a bound, and charges every row it reads from storage to a
// ScanBudget shared by the whole request. Keys are handled as their suffix after the prefix
// (for the id-ordered indexes: the escaped contract id; for a date index: "<time>/<id>").
//
// One storage iterator (RowCursor) serves the cursor's life: a seek near below the position
// steps back to it, a farther one is one storage seek, and a sequential walk costs one step per
// key. Each row landed on counts one against the budget.
// Thread safety: one request's; the reader must outlive it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "projections/projection.h"

namespace esign::projections {

// How many index rows one request may still read. While held, rows are granted past the end:
// a scan holds the budget until it has moved past its start, so that every request makes
// progress however small the budget (a few more rows than the budget: a seek and a step or two
// per index of the plan).
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
  // The value of the row the last Seek found (kFound), until the next Seek.
  std::string_view value() const { return rows_->value(); }

 private:
  // Whether `suffix` lies below the bound.
  static bool Below(std::string_view suffix, const std::optional<std::string>& bound,
                    bool inclusive);
  // Whether the current position answers for this bound: no key lies between them.
  bool Answers(const std::optional<std::string>& bound, bool inclusive) const;
  Step Current() const;
  Status SeekStorage(const std::optional<std::string>& bound, bool inclusive);

  // A jump to a bound a few rows below the position steps there; a farther one seeks.
  static constexpr size_t kStepsBeforeSeek = 4;

  const ViewReader& reader_;
  std::unique_ptr<RowCursor> rows_;  // opened at the first storage seek
  const size_t prefix_size_;
  ScanBudget& budget_;
  std::string sought_;  // the whole key of the last storage seek
  // Where the cursor is: at the greatest key below `clear_to_` (its end when !rows_->Valid()), or
  // the greatest of all when `clear_to_top_`.
  bool positioned_ = false;
  bool clear_to_top_ = true;
  std::string clear_to_;
  bool clear_inclusive_ = true;
};

}  // namespace esign::projections
