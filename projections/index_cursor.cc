#include "projections/index_cursor.h"

namespace esign::projections {

IndexCursor::IndexCursor(const ViewReader& rows, std::string prefix, ScanBudget& budget)
    : reader_(rows), prefix_size_(prefix.size()), budget_(budget) {
  sought_ = std::move(prefix);
}

bool IndexCursor::Below(std::string_view suffix, const std::optional<std::string>& bound,
                        bool inclusive) {
  return !bound || (inclusive ? suffix <= *bound : suffix < *bound);
}

bool IndexCursor::Answers(const std::optional<std::string>& bound, bool inclusive) const {
  if (!positioned_) return false;
  if (rows_->Valid() && !Below(rows_->key().substr(prefix_size_), bound, inclusive)) return false;
  // The bound must not reach above the range known to hold no key.
  if (clear_to_top_) return true;
  if (!bound) return false;
  if (*bound != clear_to_) return *bound < clear_to_;
  return clear_inclusive_ || !inclusive;
}

IndexCursor::Step IndexCursor::Current() const {
  if (!rows_->Valid()) return Step{Outcome::kEnd, {}};
  return Step{Outcome::kFound, std::string(rows_->key().substr(prefix_size_))};
}

Status IndexCursor::SeekStorage(const std::optional<std::string>& bound, bool inclusive) {
  sought_.resize(prefix_size_);
  if (bound) sought_.append(*bound);
  // Opened at the first seek: a request that ends at another list's first seek opens no more.
  if (!rows_) rows_ = reader_.OpenCursor(std::string_view(sought_).substr(0, prefix_size_));
  // The prefix alone is below every key of the index: the greatest of all is an empty seek.
  Status sought = rows_->SeekAtOrBelow(bound ? std::string_view(sought_) : std::string_view());
  if (!sought) return sought;
  positioned_ = true;
  clear_to_top_ = !bound;
  if (bound) clear_to_.assign(*bound);
  clear_inclusive_ = inclusive;
  if (!inclusive && rows_->Valid() && rows_->key() == sought_) {
    if (!budget_.Take()) return {};
    return rows_->Prev();
  }
  return {};
}

Result<IndexCursor::Step> IndexCursor::Seek(const std::optional<std::string>& bound,
                                            bool inclusive) {
  if (Answers(bound, inclusive)) return Current();
  if (budget_.exhausted()) return Step{Outcome::kOutOfBudget, {}};
  // Below the position by a few rows: step there (each step is known to skip no key).
  if (positioned_ && rows_->Valid() && bound &&
      !Below(rows_->key().substr(prefix_size_), bound, inclusive)) {
    for (size_t step = 0; step < kStepsBeforeSeek && rows_->Valid(); ++step) {
      if (!budget_.Take()) return Step{Outcome::kOutOfBudget, {}};
      clear_to_top_ = false;
      clear_to_.assign(rows_->key().substr(prefix_size_));  // reuses its buffer
      clear_inclusive_ = false;
      if (Status moved = rows_->Prev(); !moved) return Fail(moved.error());
      if (Answers(bound, inclusive)) return Current();
    }
  }
  if (!budget_.Take()) return Step{Outcome::kOutOfBudget, {}};
  if (Status moved = SeekStorage(bound, inclusive); !moved) return Fail(moved.error());
  if (!Answers(bound, inclusive)) return Step{Outcome::kOutOfBudget, {}};
  return Current();
}

}  // namespace esign::projections
