#include "projections/entry_reader.h"

#include <algorithm>

#include "projections/contract_index.h"
#include "projections/key_codec.h"

namespace esign::projections {

EntryReader::EntryReader(const ViewReader& rows, std::string_view organization_id)
    : rows_(rows), prefix_(GrantPrefix(organization_id)) {}

bool EntryReader::Walk() {
  for (size_t step = 0; cursor_->Valid(); ++step) {
    const std::string_view at = cursor_->key();
    if (at == key_) return true;
    if (at < key_ || step == kSteps) return false;
    if (!cursor_->Prev()) return false;  // the point read reports what storage says
  }
  return false;
}

Result<std::string_view> EntryReader::PointRead() {
  Result<std::optional<std::string>> row = rows_.Get(key_);
  if (!row) return Fail(row.error());
  if (!*row) {
    return Fail(ErrorCode::kCorruption,
                "contract " + UnescapeKeyPart(std::string_view(key_).substr(prefix_.size())) +
                    " is indexed without a grant");
  }
  point_read_ = std::move(*row);
  return std::string_view(*point_read_);
}

Result<std::string_view> EntryReader::Read(std::string_view escaped_id) {
  key_.assign(prefix_);
  key_.append(escaped_id);
  if (walking_) {
    if (Walk()) {
      wait_after_miss_ = kPointReadsAfterMiss;
      return cursor_->value();
    }
    walking_ = false;
    point_reads_before_walk_ = wait_after_miss_;
    wait_after_miss_ = std::min(wait_after_miss_ * 2, kMostPointReadsAfterMiss);
  } else if (point_reads_before_walk_ == 0) {
    // A seek costs about a point read and places the walk at this entry.
    if (!cursor_) cursor_ = rows_.OpenCursor(prefix_);
    if (Status sought = cursor_->SeekAtOrBelow(key_); !sought) return Fail(sought.error());
    walking_ = true;
    if (cursor_->Valid() && cursor_->key() == key_) return cursor_->value();
  } else {
    --point_reads_before_walk_;
  }
  return PointRead();
}

}  // namespace esign::projections
