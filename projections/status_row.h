// The status row of a contract (contract_views.h, s/<id>): the status representation with, in
// front of it, what a status read checks first, so the read is one storage read instead of two
// (the reader's grant row, then the status row). The header is the contract's version and the
// access roles of each organization that holds a grant on it, exactly the grants of the same
// commit (contract_index.h):
//   v<version>[/<organization>/<roles>]...\n<status JSON>
// with each organization escaped by EscapeKeyPart (so it holds no '/' and no control byte) and
// <roles> the decimal of IndexEntry::roles. A row written before the header existed starts with
// '{'; ReadStatusRow does not read it, and the caller answers from the grant as before.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace esign::projections {

// `roles_by_organization`: IndexEntry::roles of every organization holding a grant.
std::string EncodeStatusRow(uint64_t version,
                            const std::map<std::string, uint8_t>& roles_by_organization,
                            std::string_view status_json);

struct StatusRowRead {
  uint64_t version = 0;
  uint8_t roles = 0;       // the organization's; 0 when it holds no grant
  size_t json_offset = 0;  // where the status JSON begins in the row
};

// The header read for `organization`; std::nullopt for a row without one (or a damaged one).
std::optional<StatusRowRead> ReadStatusRow(std::string_view row, std::string_view organization);

}  // namespace esign::projections
