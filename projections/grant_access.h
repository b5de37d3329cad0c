// What a read of one contract needs from the reader organization's grant row (contract_index.h,
// g/<org>/<contractId>): the contract's version and the organization's access roles. A grant row
// is the whole list-index entry; decoding it in full (DecodeIndexEntry) built a JSON tree of every
// member and took about a sixth of a status read. This reads the members in order without
// building anything and stops once both are seen; a row it cannot read that way is decoded in
// full, so a change of the entry's encoding costs time, never a wrong answer.
// Pure function; safe from any thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "domain/result.h"

namespace esign::projections {

struct GrantAccess {
  uint64_t version = 0;
  uint8_t roles = 0;  // bit per AccessRole, as IndexEntry::roles
};

// kCorruption for a row that is no index entry.
Result<GrantAccess> ReadGrantAccess(std::string_view grant_row);

}  // namespace esign::projections
