#include "projections/row_walker.h"

#include <algorithm>
#include <utility>

namespace esign::projections {

RowWalker::RowWalker(const ViewReader& rows, std::string prefix)
    : rows_(rows), prefix_(std::move(prefix)) {}

bool RowWalker::Walk() {
  for (size_t step = 0; cursor_->Valid(); ++step) {
    const std::string_view at = cursor_->key();
    if (at == key_) return true;
    if (at < key_ || step == kSteps) return false;
    if (!cursor_->Prev()) return false;  // the point read reports what storage says
  }
  return false;
}

Result<std::optional<std::string_view>> RowWalker::PointRead() {
  Result<std::optional<std::string>> row = rows_.Get(key_);
  if (!row) return Fail(row.error());
  if (!*row) return std::optional<std::string_view>();
  point_read_ = std::move(*row);
  return std::optional<std::string_view>(*point_read_);
}

Result<std::optional<std::string_view>> RowWalker::Read(std::string_view suffix) {
  key_.assign(prefix_);
  key_.append(suffix);
  if (walking_) {
    if (Walk()) {
      wait_after_miss_ = kPointReadsAfterMiss;
      return std::optional<std::string_view>(cursor_->value());
    }
    walking_ = false;
    point_reads_before_walk_ = wait_after_miss_;
    wait_after_miss_ = std::min(wait_after_miss_ * 2, kMostPointReadsAfterMiss);
  } else if (point_reads_before_walk_ == 0) {
    // A seek costs about a point read and places the walk at this row.
    if (!cursor_) cursor_ = rows_.OpenCursor(prefix_);
    if (Status sought = cursor_->SeekAtOrBelow(key_); !sought) return Fail(sought.error());
    walking_ = true;
    if (cursor_->Valid() && cursor_->key() == key_) {
      return std::optional<std::string_view>(cursor_->value());
    }
  } else {
    --point_reads_before_walk_;
  }
  return PointRead();
}

}  // namespace esign::projections
