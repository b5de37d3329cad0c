// ScanList: finds the entries of one page of GET /contracts in the list indexes of the actor's
// organization (contract_index.h), with a bounded cost whatever the filters.
//
// Plan, chosen per request:
// - Every filter with an id-ordered index contributes it (status, organizationId,
//   counterpartyOrganizationId, participantAction, accessRole, the scope, and up to 8 trigrams
//   of q when it has 3 characters or more); without any, the organization's grants. The two
//   sparsest lists (those whose first id below the start lies lowest) are intersected by a
//   zig-zag join backwards (each list seeks to the greatest id at or below the candidate of the
//   other), so the most selective list sets the pace: its few ids are the only candidates the
//   other is asked about. Each candidate's entry is then checked against every filter (the
//   indexes narrow, the entry decides: the other lists' filters, dates, q as a substring, the
//   scope).
// - With a from/to range the listing is ordered by that date, and the date index can drive: one
//   seek to `to`, then backwards until `from`, each entry checked. If other filters have indexes,
//   the date index first reads a few rows per item of the page (kListDateFirstRowsPerItem): when
//   matches are dense in the range, they fill the page at once. Otherwise the join counts the ids
//   in every list of the other filters, on a small part of the budget (kListProbeRows) and
//   without reading entries: when the lists end within it, the entries of those ids are read,
//   sorted by the date and paged. Otherwise the date index goes on where it stopped.
// Budget: a request reads at most `budget` index rows (kListScanBudget), each seek or step and
// each entry read counting one. When the budget runs out before the page is full, the scan
// returns what it found and the position where it stopped, from which the next page resumes.
// Thread safety: a pure function of the reader's rows.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "projections/contract_index.h"
#include "projections/list_position.h"
#include "projections/list_query.h"
#include "projections/projection.h"

namespace esign::projections {

inline constexpr size_t kListScanBudget = 10000;
inline constexpr size_t kListProbeRows = 1000;
inline constexpr size_t kListDateFirstRowsPerItem = 4;

struct ListScanResult {
  std::vector<IndexEntry> matches;      // in listing order, at most limit + 1
  std::optional<ListPosition> stopped;  // the budget ran out here with fewer than limit + 1
};

// The rows a list reads, both of one snapshot: the contract views' ("contracts/" removed) and the
// text index's ("contract-text-2/" removed), whose trigram lists a `q` walks.
struct ListRows {
  const ViewReader& views;
  const ViewReader& text;
  // The rows holding an index prefix (PostingPrefix, DateIndexPrefix).
  const ViewReader& Of(std::string_view prefix) const {
    return IsTextIndexKey(prefix) ? text : views;
  }
};

// `from`: where the previous page ended.
Result<ListScanResult> ScanList(const ListRows& rows, std::string_view client_id,
                                std::string_view organization_id, const ListQuery& query,
                                const std::optional<ListPosition>& from,
                                size_t budget = kListScanBudget);

// Whether an entry of the actor's organization passes every filter of the query and its scope.
bool MatchesListQuery(const IndexEntry& entry, std::string_view client_id, const ListQuery& query);

// Whether the scan reads the text index: a q of three code points or more.
bool UsesTextIndex(const ListQuery& query);

// Whether the listing is ordered by a date (it has a from/to range).
inline bool IsDatedListing(const ListQuery& query) { return query.from_us || query.to_us; }

}  // namespace esign::projections
