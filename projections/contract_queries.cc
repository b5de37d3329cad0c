#include "projections/contract_queries.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/contract.h"
#include "projections/contract_index.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/grant_access.h"
#include "projections/key_codec.h"
#include "projections/list_position.h"
#include "projections/list_scan.h"
#include "projections/status_row.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

// The access roles of IndexEntry::roles' bits.
std::vector<AccessRole> RolesOf(uint8_t bits) {
  IndexEntry entry;
  entry.roles = bits;
  return entry.Roles();
}

}  // namespace

ContractQueries::ContractQueries(const ViewStore& views, std::string cursor_key, size_t scan_budget)
    : views_(views),
      has_cursor_key_(!cursor_key.empty()),
      cursors_(std::move(cursor_key)),
      scan_budget_(scan_budget) {}

Result<ContractRow> ContractQueries::ReadRow(const QueryActor& actor, std::string_view contract_id,
                                             bool status) const {
  if (actor.organization_id.empty() || contract_id.empty()) return ContractNotFound();
  if (status) {
    // One read: the status row says which organizations hold a grant (status_row.h).
    Result<std::optional<std::string>> row =
        PrefixedReader(views_, kContractViewsName).Get(StatusRowKey(contract_id));
    if (!row) return Fail(row.error());
    if (!*row) return ContractNotFound();
    if (const std::optional<StatusRowRead> read = ReadStatusRow(**row, actor.organization_id)) {
      if (read->roles == 0) return ContractNotFound();
      (*row)->erase(0, read->json_offset);
      return ContractRow{std::string(contract_id), read->version, std::move(**row),
                         RolesOf(read->roles)};
    }
    // A row written before the header: the grant, then the row, as for a contract.
  }
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const PrefixedReader rows(*snapshot, kContractViewsName);
  Result<std::optional<std::string>> grant = rows.Get(GrantKey(actor.organization_id, contract_id));
  if (!grant) return Fail(grant.error());
  if (!*grant) return ContractNotFound();
  Result<GrantAccess> access = ReadGrantAccess(**grant);
  if (!access) return Fail(access.error());
  Result<std::optional<std::string>> row =
      rows.Get(status ? StatusRowKey(contract_id) : ContractRowKey(contract_id));
  if (!row) return Fail(row.error());
  if (!*row) {
    return Fail(ErrorCode::kCorruption,
                "contract " + std::string(contract_id) + " has a grant but no row");
  }
  if (status && !(*row)->empty() && (*row)->front() != '{') {
    // Written with a header since the first read: skip it.
    const size_t json = (*row)->find('\n');
    (*row)->erase(0, json == std::string::npos ? 0 : json + 1);
  }
  return ContractRow{std::string(contract_id), access->version, std::move(**row),
                     RolesOf(access->roles)};
}

Result<ContractRow> ContractQueries::Get(const QueryActor& actor,
                                         std::string_view contract_id) const {
  return ReadRow(actor, contract_id, false);
}

Result<ContractRow> ContractQueries::Status(const QueryActor& actor,
                                            std::string_view contract_id) const {
  return ReadRow(actor, contract_id, true);
}

Result<std::vector<AuditEntry>> ContractQueries::AuditTrail(const QueryActor& actor,
                                                            std::string_view contract_id) const {
  if (actor.organization_id.empty() || contract_id.empty()) return ContractNotFound();
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const PrefixedReader rows(*snapshot, kContractViewsName);
  Result<std::optional<std::string>> grant = rows.Get(GrantKey(actor.organization_id, contract_id));
  if (!grant) return Fail(grant.error());
  if (!*grant) return ContractNotFound();
  const std::string prefix = AuditPrefix(contract_id);
  std::vector<AuditEntry> entries;
  esign::Status failure;
  esign::Status scanned =
      rows.Scan(prefix, "", false, [&](std::string_view key, std::string_view value) {
        const std::optional<uint64_t> version = ParseHexU64(key.substr(prefix.size()));
        if (!version) {
          failure = Fail(ErrorCode::kCorruption, "malformed audit key " + std::string(key));
          return false;
        }
        entries.push_back(AuditEntry{*version, std::string(value)});
        return true;
      });
  if (!scanned) return Fail(scanned.error());
  if (!failure) return Fail(failure.error());
  return entries;
}

Result<ContractPage> ContractQueries::List(const QueryActor& actor, const ListQuery& query) const {
  if (!has_cursor_key_) return Fail(ErrorCode::kInternal, "no cursor key is configured");
  if (query.limit < 1 || query.limit > kMaxListLimit) {
    return Fail(ErrorCode::kValidationFailed, "invalid query parameters", "limit",
                "must be an integer from 1 to " + std::to_string(kMaxListLimit));
  }
  const std::string fingerprint = QueryFingerprint(actor.client_id, actor.organization_id, query);
  std::optional<ListPosition> after;
  if (query.cursor) {
    Result<std::string> position = cursors_.Decode(*query.cursor, fingerprint);
    if (!position) return Fail(position.error());
    Result<ListPosition> decoded = DecodeListPosition(*position, IsDatedListing(query));
    if (!decoded) return Fail(decoded.error());
    after = std::move(*decoded);
  }
  ContractPage page;
  if (actor.organization_id.empty()) return page;

  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const PrefixedReader rows(*snapshot, kContractViewsName);
  const PrefixedReader text_rows(*snapshot, kContractTextIndexName);
  Result<ListScanResult> scan = ScanList({rows, text_rows}, actor.client_id, actor.organization_id,
                                         query, after, scan_budget_);
  if (!scan) return Fail(scan.error());
  std::vector<IndexEntry>& matches = scan->matches;
  if (matches.size() > query.limit) {
    matches.resize(query.limit);
    const IndexEntry& last = matches.back();
    page.next_cursor =
        cursors_.Encode(EncodeListPosition(ListPosition{
                            IsDatedListing(query) ? last.Date(query.date_field) : std::nullopt,
                            last.contract_id, false}),
                        fingerprint);
  } else if (scan->stopped) {
    // The budget ran out first: the next page goes on from where this scan stopped.
    page.next_cursor = cursors_.Encode(EncodeListPosition(*scan->stopped), fingerprint);
  }

  // The page's rows in one look-up: neighbours in the listing are neighbours in storage.
  std::vector<std::string> keys;
  keys.reserve(matches.size());
  for (const IndexEntry& entry : matches) keys.push_back(ContractRowKey(entry.contract_id));
  Result<std::vector<std::optional<std::string>>> found = rows.MultiGet(keys);
  if (!found) return Fail(found.error());
  page.items.reserve(matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    IndexEntry& entry = matches[i];
    std::optional<std::string>& row = (*found)[i];
    if (!row) {
      return Fail(ErrorCode::kCorruption,
                  "contract " + entry.contract_id + " is indexed but has no row");
    }
    page.items.push_back(
        ContractRow{std::move(entry.contract_id), entry.version, std::move(*row), entry.Roles()});
  }
  return page;
}

}  // namespace esign::projections
