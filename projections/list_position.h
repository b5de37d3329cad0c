// Where a contract listing resumes: the position a cursor carries (cursor.h signs it).
//
// A listing is in one order: newest first by creation (contract id descending), or, when it has
// a from/to range, by the range's date descending and then id descending. The position is a
// point in that order; `inclusive` says whether the point itself still has to be examined (a
// scan that ran out of budget there) or has been decided (the last item of a page).
//
// Bytes: 0x00 | 'i' or 'x' (inclusive, exclusive) | [16 hex digits of the date (DateIndexTime)
// and '/', dated listings only] | contract id. Cursors made before this format carry the bare
// id of the last item (never starting with 0x00): they still resume an undated listing; a dated
// listing, whose order was different then, answers kInvalidCursor.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::projections {

struct ListPosition {
  std::optional<int64_t> date;  // dated listings only: microseconds since the epoch
  std::string contract_id;
  bool inclusive = false;
};

std::string EncodeListPosition(const ListPosition& position);
// `dated`: whether the listing is ordered by a date. kInvalidCursor (field "cursor") when the
// bytes are no position of such a listing.
Result<ListPosition> DecodeListPosition(std::string_view bytes, bool dated);

}  // namespace esign::projections
