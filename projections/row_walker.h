// RowWalker: reads the rows of one key prefix by key, for keys asked in mostly descending order:
// a list scan's candidates' entries (g/<org>/<id>, newest first) and its page's contract rows.
// Where the keys asked lie close together (a dense list: every draft of an organization that
// mostly holds drafts), a step back from the last row reaches the next one for about a fifth of
// a point read; where they lie far apart, a point read each. The walker steps while its steps
// arrive; after a miss it reads points, twice as many after each miss in a row, before it seeks
// and walks again.
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

class RowWalker {
 public:
  RowWalker(const ViewReader& rows, std::string prefix);

  // The value of the row `prefix + suffix`, valid until the next Read; nullopt when there is
  // none.
  Result<std::optional<std::string_view>> Read(std::string_view suffix);

 private:
  Result<std::optional<std::string_view>> PointRead();
  bool Walk();  // true when the walk reached key_

  // Steps tried from the last row before the walk counts as a miss.
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
