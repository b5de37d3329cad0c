#include "projections/contract_queries.h"

#include <memory>
#include <utility>

#include "domain/contract.h"
#include "projections/contract_index.h"
#include "projections/contract_views.h"
#include "projections/key_codec.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

bool InScope(const IndexEntry& entry, const QueryActor& actor, ListScope scope) {
  switch (scope) {
    case ListScope::kReadable:
      return entry.roles != 0;
    case ListScope::kOwned:
      return entry.Has(AccessRole::kController) && entry.created_by == actor.client_id;
    case ListScope::kOrganization:
      return entry.Has(AccessRole::kController);
    case ListScope::kSharedWithMe:
      return entry.Has(AccessRole::kViewer);
  }
  return false;
}

bool Matches(const IndexEntry& entry, const QueryActor& actor, const ListQuery& query) {
  if (query.status && entry.status != *query.status) return false;
  if (query.from_us || query.to_us) {
    const std::optional<int64_t> date = entry.Date(query.date_field);
    if (!date) return false;
    if (query.from_us && *date < *query.from_us) return false;
    if (query.to_us && *date >= *query.to_us) return false;
  }
  if (query.organization_id && entry.controller != *query.organization_id) return false;
  if (query.counterparty_organization_id) {
    bool found = false;
    for (const auto& org : entry.counterparties) {
      found = found || org == *query.counterparty_organization_id;
    }
    if (!found) return false;
  }
  if (query.participant_action && !entry.Has(*query.participant_action)) return false;
  if (query.access_role && !entry.Has(*query.access_role)) return false;
  if (query.q && entry.text.find(*query.q) == std::string::npos) return false;
  // Last, the grant: whatever the filters selected, only what the actor may read remains.
  return InScope(entry, actor, query.scope);
}

}  // namespace

ContractQueries::ContractQueries(const ViewStore& views, std::string cursor_key)
    : views_(views), has_cursor_key_(!cursor_key.empty()), cursors_(std::move(cursor_key)) {}

Result<ContractRow> ContractQueries::ReadRow(const QueryActor& actor, std::string_view contract_id,
                                             bool status) const {
  if (actor.organization_id.empty() || contract_id.empty()) return ContractNotFound();
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const PrefixedReader rows(*snapshot, kContractViewsName);
  Result<std::optional<std::string>> grant = rows.Get(GrantKey(actor.organization_id, contract_id));
  if (!grant) return Fail(grant.error());
  if (!*grant) return ContractNotFound();
  Result<IndexEntry> entry = DecodeIndexEntry(**grant);
  if (!entry) return Fail(entry.error());
  Result<std::optional<std::string>> row =
      rows.Get(status ? StatusRowKey(contract_id) : ContractRowKey(contract_id));
  if (!row) return Fail(row.error());
  if (!*row) {
    return Fail(ErrorCode::kCorruption,
                "contract " + std::string(contract_id) + " has a grant but no row");
  }
  return ContractRow{std::string(contract_id), entry->version, std::move(**row), entry->Roles()};
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
  std::optional<std::string> after;
  if (query.cursor) {
    Result<std::string> position = cursors_.Decode(*query.cursor, fingerprint);
    if (!position) return Fail(position.error());
    after = std::move(*position);
  }
  ContractPage page;
  if (actor.organization_id.empty()) return page;

  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const PrefixedReader rows(*snapshot, kContractViewsName);
  // The status index when the status is fixed, else every grant of the organization; both end
  // in the contract id, so scanning backwards lists newest first.
  const std::string prefix = query.status ? StatusIndexPrefix(actor.organization_id, *query.status)
                                          : GrantPrefix(actor.organization_id);
  const std::string start = after ? prefix + EscapeKeyPart(*after) : std::string();

  std::vector<IndexEntry> matches;
  esign::Status failure;
  esign::Status scanned =
      rows.Scan(prefix, start, true, [&](std::string_view key, std::string_view value) {
        if (after && key == start) return true;  // the last item of the previous page
        Result<IndexEntry> entry = DecodeIndexEntry(value);
        if (!entry) {
          failure = Fail(entry.error());
          return false;
        }
        if (Matches(*entry, actor, query)) matches.push_back(std::move(*entry));
        // One more than a page tells whether another page follows.
        return matches.size() <= query.limit;
      });
  if (!scanned) return Fail(scanned.error());
  if (!failure) return Fail(failure.error());
  if (matches.size() > query.limit) {
    matches.resize(query.limit);
    page.next_cursor = cursors_.Encode(matches.back().contract_id, fingerprint);
  }

  page.items.reserve(matches.size());
  for (IndexEntry& entry : matches) {
    Result<std::optional<std::string>> row = rows.Get(ContractRowKey(entry.contract_id));
    if (!row) return Fail(row.error());
    if (!*row) {
      return Fail(ErrorCode::kCorruption,
                  "contract " + entry.contract_id + " is indexed but has no row");
    }
    page.items.push_back(
        ContractRow{std::move(entry.contract_id), entry.version, std::move(**row), entry.Roles()});
  }
  return page;
}

}  // namespace esign::projections
