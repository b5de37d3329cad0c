// EntryReader: the grant entries (g/<org>/<id>) of a list scan's candidates, which arrive newest
// first. Where the candidates lie close together among the organization's grants (a dense list:
// every draft of an organization that mostly holds drafts), a step back from the last entry
// reaches the next one for about a fifth of a point read; where they lie far apart, a point read
// each. The reader walks while its steps arrive; after a miss it reads points, twice as many
// after each miss in a row, before it seeks and walks again.
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

class EntryReader {
 public:
  EntryReader(const ViewReader& rows, std::string_view organization_id);

  // The entry of the contract whose escaped id is given, valid until the next Read; kCorruption
  // when the organization has no grant row for it.
  Result<std::string_view> Read(std::string_view escaped_id);

 private:
  Result<std::string_view> PointRead();
  bool Walk();  // true when the walk reached key_

  // Steps tried from the last entry before the walk counts as a miss.
  static constexpr size_t kSteps = 4;
  static constexpr size_t kPointReadsAfterMiss = 8;
  static constexpr size_t kMostPointReadsAfterMiss = 1024;

  const ViewReader& rows_;
  const std::string prefix_;
  std::unique_ptr<RowCursor> cursor_;  // opened at the first walk
  std::string key_;
  std::optional<std::string> point_read_;
  bool walking_ = false;
  size_t point_reads_before_walk_ = 0;
  size_t wait_after_miss_ = kPointReadsAfterMiss;
};

}  // namespace esign::projections
