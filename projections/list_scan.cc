#include "projections/list_scan.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <tuple>
#include <utility>

#include "domain/template.h"
#include "projections/index_cursor.h"
#include "projections/key_codec.h"
#include "projections/row_walker.h"
#include "projections/text_fold.h"

namespace esign::projections {
namespace {

constexpr size_t kMaxTrigramLists = 8;
constexpr size_t kDrivingLists = 2;

bool InScope(const IndexEntry& entry, std::string_view client_id, ListScope scope) {
  switch (scope) {
    case ListScope::kReadable:
      return entry.roles != 0;
    case ListScope::kOwned:
      return entry.Has(AccessRole::kController) && entry.created_by == client_id;
    case ListScope::kOrganization:
      return entry.Has(AccessRole::kController);
    case ListScope::kSharedWithMe:
      return entry.Has(AccessRole::kViewer);
  }
  return false;
}

// The id-ordered index prefixes the filters select; empty when no filter has one.
std::vector<std::string> FilterLists(std::string_view org, std::string_view client_id,
                                     const ListQuery& query) {
  std::vector<std::string> lists;
  if (query.status)
    lists.push_back(PostingPrefix(PostingIndex::kStatus, org, ToString(*query.status)));
  if (query.organization_id) {
    lists.push_back(PostingPrefix(PostingIndex::kController, org, *query.organization_id));
  }
  if (query.counterparty_organization_id) {
    lists.push_back(
        PostingPrefix(PostingIndex::kCounterparty, org, *query.counterparty_organization_id));
  }
  if (query.participant_action) {
    lists.push_back(PostingPrefix(PostingIndex::kAction, org, ToString(*query.participant_action)));
  }
  if (query.access_role) {
    lists.push_back(PostingPrefix(PostingIndex::kRole, org, ToString(*query.access_role)));
  }
  if (query.bulk_send_id) {
    lists.push_back(PostingPrefix(PostingIndex::kBulkSend, org, *query.bulk_send_id));
  }
  switch (query.scope) {
    case ListScope::kReadable:
      break;
    case ListScope::kOwned:
      lists.push_back(PostingPrefix(PostingIndex::kCreator, org, client_id));
      break;
    case ListScope::kOrganization:
      lists.push_back(PostingPrefix(PostingIndex::kRole, org, ToString(AccessRole::kController)));
      break;
    case ListScope::kSharedWithMe:
      lists.push_back(PostingPrefix(PostingIndex::kRole, org, ToString(AccessRole::kViewer)));
      break;
  }
  if (query.q) {
    const std::vector<std::string> trigrams = Trigrams(*query.q);
    // A long q has many trigrams; a spread of them narrows as well, and the entry decides.
    const size_t n = trigrams.size();
    const size_t take = std::min(n, kMaxTrigramLists);
    for (size_t i = 0; i < take; ++i) {
      const size_t at = take == 1 ? 0 : i * (n - 1) / (take - 1);
      lists.push_back(PostingPrefix(PostingIndex::kTrigram, org, trigrams[at]));
    }
  }
  std::sort(lists.begin(), lists.end());
  lists.erase(std::unique(lists.begin(), lists.end()), lists.end());
  return lists;
}

// The entry of one candidate, by walking the organization's grants (row_walker.h).
Result<std::string_view> ReadEntry(RowWalker& grants, std::string_view escaped_id) {
  Result<std::optional<std::string_view>> row = grants.Read(escaped_id);
  if (!row) return Fail(row.error());
  if (!*row) {
    return Fail(ErrorCode::kCorruption,
                "contract " + UnescapeKeyPart(escaped_id) + " is indexed without a grant");
  }
  return **row;
}

// Checks the entry of one candidate; nullopt when it does not match.
Result<std::optional<IndexEntry>> CheckEntry(std::string_view row, std::string_view client_id,
                                             const ListQuery& query) {
  Result<IndexEntry> entry = DecodeIndexEntry(row);
  if (!entry) return Fail(entry.error());
  if (!MatchesListQuery(*entry, client_id, query)) return std::optional<IndexEntry>();
  return std::optional<IndexEntry>(std::move(*entry));
}

struct Outcome {
  std::vector<IndexEntry> matches;
  std::vector<std::string> candidates;  // escaped ids in every list, when entries are not read
  bool complete = false;                // every match below the start was found
  std::optional<ListPosition> stopped;  // the budget ran out here
};

enum class Entries { kRead, kNotRead };

// Which lists of a join take part. The entry read for each candidate checks every filter, so the
// join need not ask every list about every candidate; it keeps the lists that narrow most:
// - The drivers: at most kDrivingLists of the lists, the sparsest ones, i.e. those whose first
//   id at or below the start lies lowest (a list holding 1 id in 1,000 reaches down about 1,000
//   ids; one holding every id, none). Two sparse lists meet on few ids besides their common
//   ones, and with only two, each move of the candidate passes about one id of the other list,
//   which a step reaches without a storage seek. A third list would cost as many moves again and
//   save little: the entry decides.
// - Of the drivers, a list that agreed with kRestAfterAgreements candidates in a row holds about
//   every id the other proposes, so its seeks buy nothing the entry check does not decide
//   anyway. It rests while the entries read keep matching; an entry that fails the filters wakes
//   every resting driver, which must then agree twice as long before resting again.
class JoinLists {
 public:
  explicit JoinLists(std::vector<size_t> drivers, size_t lists, bool may_rest)
      : drivers_(std::move(drivers)),
        active_(drivers_),
        streaks_(lists, 0),
        may_rest_(may_rest),
        rest_after_(kRestAfterAgreements) {}
  const std::vector<size_t>& active() const { return active_; }
  void Agreed(size_t list) { ++streaks_[list]; }
  void Moved(size_t list) { streaks_[list] = 0; }
  // Between candidates: rests the lists that agree all the time, keeping one to drive.
  void Settle() {
    if (!may_rest_) return;
    for (size_t k = active_.size(); k-- > 0 && active_.size() > 1;) {
      if (streaks_[active_[k]] >= rest_after_)
        active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  void EntryFailed() {
    if (active_.size() == drivers_.size()) return;
    active_ = drivers_;
    for (const size_t list : drivers_) streaks_[list] = 0;
    rest_after_ *= 2;
  }

 private:
  static constexpr size_t kRestAfterAgreements = 8;
  std::vector<size_t> drivers_;  // indexes of the lists that may be asked
  std::vector<size_t> active_;   // those asked now, the first drives
  std::vector<size_t> streaks_;
  bool may_rest_;
  size_t rest_after_;
};

// The zig-zag join of `lists`, newest first from `from`, until `want` matches (0: all). With
// Entries::kNotRead, the ids in every list are collected as candidates and nothing else is read.
Result<Outcome> Join(const ListRows& rows, std::string_view org, std::string_view client_id,
                     const ListQuery& query, const std::vector<std::string>& lists,
                     const std::optional<ListPosition>& from, size_t want, ScanBudget& budget,
                     Entries entries = Entries::kRead) {
  std::vector<IndexCursor> cursors;
  cursors.reserve(lists.size());
  for (const std::string& prefix : lists) cursors.emplace_back(rows.Of(prefix), prefix, budget);
  std::optional<std::string> bound;
  bool inclusive = true;
  if (from) {
    bound = EscapeKeyPart(from->contract_id);
    inclusive = from->inclusive;
  }
  Outcome out;
  // Held until the scan has moved past its start: a resumed request always gets further.
  budget.Hold(true);
  const auto stop_at = [&](const std::optional<std::string>& at, bool at_inclusive) {
    if (at) out.stopped = ListPosition{std::nullopt, UnescapeKeyPart(*at), at_inclusive};
    return out;
  };
  // Candidates that are not read must be in every list: then every list drives and none rests.
  std::vector<size_t> drivers(lists.size());
  for (size_t i = 0; i < lists.size(); ++i) drivers[i] = i;
  if (entries == Entries::kRead && lists.size() > kDrivingLists) {
    // Each list's first id at or below the start; the lowest ones belong to the sparsest lists.
    std::vector<std::string> first(lists.size());
    for (size_t i = 0; i < lists.size(); ++i) {
      Result<IndexCursor::Step> step = cursors[i].Seek(bound, inclusive);
      if (!step) return Fail(step.error());
      if (step->outcome == IndexCursor::Outcome::kOutOfBudget) return stop_at(bound, inclusive);
      if (step->outcome == IndexCursor::Outcome::kEnd) {
        out.complete = true;
        return out;
      }
      first[i] = std::move(step->suffix);
    }
    std::stable_sort(drivers.begin(), drivers.end(),
                     [&](size_t a, size_t b) { return first[a] < first[b]; });
    drivers.resize(kDrivingLists);
  }
  JoinLists join(std::move(drivers), lists.size(), entries == Entries::kRead);
  // Without filters the grants drive: the row a candidate was found at is its entry.
  const bool grants_drive = lists.size() == 1 && lists[0] == GrantPrefix(org);
  RowWalker grants(rows.views, GrantPrefix(org));
  while (true) {
    join.Settle();
    const std::vector<size_t>& active = join.active();
    Result<IndexCursor::Step> step = cursors[active[0]].Seek(bound, inclusive);
    if (!step) return Fail(step.error());
    if (step->outcome == IndexCursor::Outcome::kOutOfBudget) return stop_at(bound, inclusive);
    if (step->outcome == IndexCursor::Outcome::kEnd) break;
    std::string candidate = std::move(step->suffix);
    if (from && !from->inclusive) budget.Hold(false);  // anything found is past the start
    // Every id above the candidate is out of some list; find one that is in all.
    size_t agree = 1;
    for (size_t k = 1 % active.size(); agree < active.size(); k = (k + 1) % active.size()) {
      step = cursors[active[k]].Seek(candidate, true);
      if (!step) return Fail(step.error());
      if (step->outcome == IndexCursor::Outcome::kOutOfBudget) return stop_at(candidate, true);
      if (step->outcome == IndexCursor::Outcome::kEnd) {
        out.complete = true;
        return out;
      }
      if (step->suffix == candidate) {
        ++agree;
        join.Agreed(active[k]);
      } else {
        candidate = std::move(step->suffix);
        agree = 1;
        join.Moved(active[k]);
        budget.Hold(false);  // ids down to the new candidate are decided
      }
    }
    // The entry's row is charged here even when it is read later (Entries::kNotRead).
    if (!budget.Take()) return stop_at(candidate, true);
    budget.Hold(false);
    if (entries == Entries::kNotRead) {
      out.candidates.push_back(candidate);
      bound = std::move(candidate);
      inclusive = false;
      continue;
    }
    Result<std::string_view> row = grants_drive ? cursors[0].value() : ReadEntry(grants, candidate);
    if (!row) return Fail(row.error());
    Result<std::optional<IndexEntry>> entry = CheckEntry(*row, client_id, query);
    if (!entry) return Fail(entry.error());
    if (*entry) {
      out.matches.push_back(std::move(**entry));
      if (want != 0 && out.matches.size() >= want) return out;
    } else {
      join.EntryFailed();
    }
    bound = std::move(candidate);
    inclusive = false;
  }
  out.complete = true;
  return out;
}

// The position of a date index key's suffix "<time>/<escaped id>" (checked by the caller).
std::optional<ListPosition> DatedPosition(std::string_view suffix, bool inclusive) {
  const std::optional<int64_t> date = ParseDateIndexTime(suffix.substr(0, kDateIndexTimeDigits));
  if (!date) return std::nullopt;
  return ListPosition{*date, UnescapeKeyPart(suffix.substr(kDateIndexTimeDigits + 1)), inclusive};
}

// The date index of the range's field, from `to` (or `from`, the position) down to `from`.
Result<Outcome> DateScan(const ListRows& rows, std::string_view org, std::string_view client_id,
                         const ListQuery& query, const std::optional<ListPosition>& from,
                         size_t want, ScanBudget& budget) {
  IndexCursor cursor(rows.views, DateIndexPrefix(org, query.date_field), budget);
  RowWalker grants(rows.views, GrantPrefix(org));
  std::optional<std::string> bound;
  bool inclusive = true;
  if (from && from->date) {
    bound = DateIndexTime(*from->date) + "/" + EscapeKeyPart(from->contract_id);
    inclusive = from->inclusive;
  } else if (query.to_us) {
    bound = DateIndexTime(*query.to_us);  // below every key of that time: `to` is exclusive
    inclusive = false;
  }
  const std::optional<std::string> low =
      query.from_us ? std::optional<std::string>(DateIndexTime(*query.from_us)) : std::nullopt;
  Outcome out;
  budget.Hold(true);  // until the first entry is decided: a resumed request always gets further
  while (true) {
    Result<IndexCursor::Step> step = cursor.Seek(bound, inclusive);
    if (!step) return Fail(step.error());
    if (step->outcome == IndexCursor::Outcome::kEnd) break;
    if (step->outcome == IndexCursor::Outcome::kOutOfBudget) {
      if (bound && bound->size() > kDateIndexTimeDigits + 1)
        out.stopped = DatedPosition(*bound, inclusive);
      return out;
    }
    std::string suffix = std::move(step->suffix);
    if (low && suffix < *low) break;
    if (suffix.size() <= kDateIndexTimeDigits + 1 || suffix[kDateIndexTimeDigits] != '/') {
      return Fail(ErrorCode::kCorruption, "malformed date index key");
    }
    if (!budget.Take()) {
      out.stopped = DatedPosition(suffix, true);
      return out;
    }
    budget.Hold(false);
    // By creation date, entries come in the grants' own order; by other dates, mostly not.
    Result<std::string_view> row =
        ReadEntry(grants, std::string_view(suffix).substr(kDateIndexTimeDigits + 1));
    if (!row) return Fail(row.error());
    Result<std::optional<IndexEntry>> entry = CheckEntry(*row, client_id, query);
    if (!entry) return Fail(entry.error());
    if (*entry) {
      out.matches.push_back(std::move(**entry));
      if (want != 0 && out.matches.size() >= want) return out;
    }
    bound = std::move(suffix);
    inclusive = false;
  }
  out.complete = true;
  return out;
}

// Listing order of a dated listing: the date descending, then the id descending.
std::tuple<int64_t, std::string> DatedKey(const IndexEntry& entry, DateField field) {
  return {entry.Date(field).value_or(0), EscapeKeyPart(entry.contract_id)};
}

// The one contract a `q` names by its id: its grant row, when the organization has one and the
// entry passes the other filters.
Result<std::optional<IndexEntry>> NamedContract(const ListRows& rows, std::string_view client_id,
                                                std::string_view organization_id,
                                                const ListQuery& query) {
  RowWalker grants(rows.views, GrantPrefix(organization_id));
  Result<std::optional<std::string_view>> row = grants.Read(EscapeKeyPart(*query.contract_id));
  if (!row) return Fail(row.error());
  if (!*row) return std::optional<IndexEntry>();
  return CheckEntry(**row, client_id, query);
}

// Whether `entry` lies at or before a list's position, in the listing's order: a page that
// starts there does not hold it.
bool AtOrBefore(const IndexEntry& entry, const ListPosition& position, const ListQuery& query) {
  const std::string id = EscapeKeyPart(entry.contract_id);
  const std::string at = EscapeKeyPart(position.contract_id);
  if (!IsDatedListing(query) || !position.date) return position.inclusive ? id > at : id >= at;
  const auto key = DatedKey(entry, query.date_field);
  const auto position_key = std::make_tuple(*position.date, at);
  return position.inclusive ? key > position_key : key >= position_key;
}

}  // namespace

bool UsesTextIndex(const ListQuery& query) { return query.q && !Trigrams(*query.q).empty(); }

bool MatchesListQuery(const IndexEntry& entry, std::string_view client_id, const ListQuery& query) {
  if (query.status && entry.status != *query.status) return false;
  if (query.from_us || query.to_us) {
    const std::optional<int64_t> date = entry.Date(query.date_field);
    if (!date) return false;
    if (query.from_us && *date < *query.from_us) return false;
    if (query.to_us && *date >= *query.to_us) return false;
  }
  if (query.organization_id && entry.controller != *query.organization_id) return false;
  if (query.counterparty_organization_id &&
      std::find(entry.counterparties.begin(), entry.counterparties.end(),
                *query.counterparty_organization_id) == entry.counterparties.end()) {
    return false;
  }
  if (query.participant_action && !entry.Has(*query.participant_action)) return false;
  if (query.access_role && !entry.Has(*query.access_role)) return false;
  if (query.q && entry.text.find(*query.q) == std::string::npos) return false;
  if (query.contract_id && entry.contract_id != *query.contract_id) return false;
  if (query.bulk_send_id &&
      (entry.bulk_send_id != *query.bulk_send_id || !entry.Has(AccessRole::kController))) {
    return false;
  }
  // Last, the grant: whatever the filters selected, only what the actor may read remains.
  return InScope(entry, client_id, query.scope);
}

Result<ListScanResult> ScanList(const ListRows& rows, std::string_view client_id,
                                std::string_view organization_id, const ListQuery& query,
                                const std::optional<ListPosition>& from, size_t budget) {
  const size_t want = query.limit + 1;  // one more than a page tells whether another follows
  ListScanResult result;
  if (query.contract_id) {
    Result<std::optional<IndexEntry>> entry =
        NamedContract(rows, client_id, organization_id, query);
    if (!entry) return Fail(entry.error());
    if (*entry && !(from && AtOrBefore(**entry, *from, query))) {
      result.matches.push_back(std::move(**entry));
    }
    return result;
  }
  std::vector<std::string> lists = FilterLists(organization_id, client_id, query);
  if (!IsDatedListing(query)) {
    if (lists.empty()) lists.push_back(GrantPrefix(organization_id));
    ScanBudget rows_left(budget);
    Result<Outcome> out =
        Join(rows, organization_id, client_id, query, lists, from, want, rows_left);
    if (!out) return Fail(out.error());
    result.matches = std::move(out->matches);
    result.stopped = std::move(out->stopped);
    return result;
  }

  size_t left = budget;
  std::vector<IndexEntry> found;  // by the date index, in listing order
  std::optional<ListPosition> date_from = from;
  if (!lists.empty()) {
    // A few rows of the date index first: where matches are dense in the range (a common status
    // and text within a day), they fill the page and no other list is walked.
    const size_t first_rows = std::min(budget, kListDateFirstRowsPerItem * want);
    ScanBudget first_budget(first_rows);
    Result<Outcome> first =
        DateScan(rows, organization_id, client_id, query, from, want, first_budget);
    if (!first) return Fail(first.error());
    if (first->complete || first->matches.size() >= want) {
      result.matches = std::move(first->matches);
      return result;
    }
    if (first->stopped) {  // else it stopped before any row: the date index starts over below
      left -= first_rows - first_budget.left();
      found = std::move(first->matches);
      date_from = std::move(first->stopped);
    }

    // Few enough ids in every list of the other filters: their entries, sorted by the date. The
    // probe only steps through the index lists and reads no entry until they have ended.
    const size_t probe_rows = std::min(kListProbeRows, left);
    ScanBudget probe(probe_rows);
    Result<Outcome> out = Join(rows, organization_id, client_id, query, lists, std::nullopt, 0,
                               probe, Entries::kNotRead);
    if (!out) return Fail(out.error());
    if (out->complete) {
      std::vector<IndexEntry> all;
      RowWalker grants(rows.views, GrantPrefix(organization_id));
      for (const std::string& id : out->candidates) {
        Result<std::string_view> row = ReadEntry(grants, id);
        if (!row) return Fail(row.error());
        Result<std::optional<IndexEntry>> entry = CheckEntry(*row, client_id, query);
        if (!entry) return Fail(entry.error());
        if (*entry) all.push_back(std::move(**entry));
      }
      const DateField field = query.date_field;
      std::sort(all.begin(), all.end(), [&](const IndexEntry& a, const IndexEntry& b) {
        return DatedKey(a, field) > DatedKey(b, field);
      });
      for (IndexEntry& entry : all) {
        if (from && from->date && AtOrBefore(entry, *from, query)) continue;
        result.matches.push_back(std::move(entry));
        if (result.matches.size() >= want) break;
      }
      return result;
    }
    left -= probe_rows;
  }
  ScanBudget rows_left(left);
  Result<Outcome> out =
      DateScan(rows, organization_id, client_id, query, date_from, want - found.size(), rows_left);
  if (!out) return Fail(out.error());
  result.matches = std::move(found);
  for (IndexEntry& entry : out->matches) result.matches.push_back(std::move(entry));
  result.stopped = std::move(out->stopped);
  return result;
}

}  // namespace esign::projections
