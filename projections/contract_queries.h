// ContractQueries: the read side of the contract API (GET /contracts, /contracts/{id},
// /contracts/{id}/status, /contracts/{id}/evidence/audit-trail), over the committed rows of
// ContractViews. Every answer is read from one snapshot of the view store.
//
// Access: an actor reads a contract only through a grant of its organization (contract_index.h).
// A contract that does not exist and one the actor may not read both answer kContractNotFound,
// so existence does not leak. List applies the filters first and then keeps only contracts the
// actor's organization has a grant on; no filter widens access. A List reads a bounded number
// of index rows (list_scan.h).
//
// Freshness: rows are those the projector has committed. A caller that has just appended events
// and wants to see them waits with Projector::WaitFor first.
//
// Thread safety: every method may be called from any thread. The view store must outlive this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "projections/cursor.h"
#include "projections/list_query.h"
#include "projections/list_scan.h"
#include "projections/view_store.h"

namespace esign::projections {

// Who is reading: the authenticated machine client and the organization it acts for.
struct QueryActor {
  std::string client_id;
  std::string organization_id;
};

// A contract as stored: `json` is the serialized contract (ContractToJson) or status
// (ContractStatusToJson) representation; `version` is the contract's (for ETag / If-Match).
struct ContractRow {
  std::string id;
  uint64_t version = 0;
  std::string json;
  std::vector<AccessRole> access_roles;  // the actor organization's relations to the contract
};

struct ContractPage {
  std::vector<ContractRow> items;          // newest first
  std::optional<std::string> next_cursor;  // absent on the last page
};

// One audit-trail entry, serialized: {position, eventId, type, recordedAt, actor {clientId,
// organizationId, requestId, ip, userAgent}, streamVersion, leafHash}.
struct AuditEntry {
  uint64_t stream_version = 0;
  std::string json;
};

class ContractQueries {
 public:
  // `cursor_key`: the secret that signs paging cursors (cursor.h); List fails with kInternal
  // when it is empty. `scan_budget`: the index rows one List may read (list_scan.h); a page
  // that runs out of them is shorter than its limit and carries a cursor to go on.
  ContractQueries(const ViewStore& views, std::string cursor_key,
                  size_t scan_budget = kListScanBudget);

  Result<ContractRow> Get(const QueryActor& actor, std::string_view contract_id) const;
  Result<ContractRow> Status(const QueryActor& actor, std::string_view contract_id) const;
  // Every event of the contract, oldest first.
  Result<std::vector<AuditEntry>> AuditTrail(const QueryActor& actor,
                                             std::string_view contract_id) const;
  // kInvalidCursor for a cursor that was altered or made for another listing. A page may hold
  // fewer items than the limit and still have a next cursor (the scan budget ran out).
  Result<ContractPage> List(const QueryActor& actor, const ListQuery& query) const;

 private:
  Result<ContractRow> ReadRow(const QueryActor& actor, std::string_view contract_id,
                              bool status) const;

  const ViewStore& views_;
  const bool has_cursor_key_;
  const CursorCodec cursors_;
  const size_t scan_budget_;
};

}  // namespace esign::projections
