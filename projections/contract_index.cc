#include "projections/contract_index.h"

#include <algorithm>
#include <set>

#include <boost/json.hpp>

#include "base/time_text.h"
#include "domain/template.h"
#include "projections/key_codec.h"
#include "projections/text_fold.h"

namespace esign::projections {
namespace {

std::optional<int64_t> Micros(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return ParseTimestampMicros(text);
}

std::optional<int64_t> Micros(const std::optional<std::string>& text) {
  return text ? Micros(*text) : std::nullopt;
}

void PutTime(boost::json::object& out, std::string_view key, const std::optional<int64_t>& micros) {
  if (micros) out[key] = *micros;
}

}  // namespace

std::string SearchTextOf(const ContractState& state) {
  std::string text = state.title;
  for (const Participant& p : state.participants) {
    text.push_back('\n');
    text.append(p.name);
    if (p.email) {
      text.push_back('\n');
      text.append(*p.email);
    }
  }
  return text;
}

// The member of a date field, for a const or a mutable entry.
template <class Entry>
auto& DateMember(Entry& entry, DateField field) {
  switch (field) {
    case DateField::kCreatedAt:
      return entry.created_at;
    case DateField::kUpdatedAt:
      return entry.updated_at;
    case DateField::kSentAt:
      return entry.sent_at;
    case DateField::kCompletedAt:
      return entry.completed_at;
    case DateField::kDeclinedAt:
      return entry.declined_at;
    case DateField::kVoidedAt:
      return entry.voided_at;
    case DateField::kExpiredAt:
      return entry.expired_at;
    case DateField::kExpiresAt:
      return entry.expires_at;
  }
  return entry.created_at;
}

std::optional<int64_t> IndexEntry::Date(DateField field) const { return DateMember(*this, field); }

std::optional<int64_t>& IndexEntry::MutableDate(DateField field) {
  return DateMember(*this, field);
}

std::vector<AccessRole> IndexEntry::Roles() const {
  std::vector<AccessRole> out;
  for (const AccessRole role :
       {AccessRole::kController, AccessRole::kSigner, AccessRole::kViewer}) {
    if (Has(role)) out.push_back(role);
  }
  return out;
}

std::string EncodeIndexEntry(const IndexEntry& entry) {
  boost::json::object out;
  out["id"] = entry.contract_id;
  out["version"] = entry.version;
  out["status"] = ToString(entry.status);
  PutTime(out, "createdAt", entry.created_at);
  PutTime(out, "updatedAt", entry.updated_at);
  PutTime(out, "sentAt", entry.sent_at);
  PutTime(out, "completedAt", entry.completed_at);
  PutTime(out, "declinedAt", entry.declined_at);
  PutTime(out, "voidedAt", entry.voided_at);
  PutTime(out, "expiredAt", entry.expired_at);
  PutTime(out, "expiresAt", entry.expires_at);
  out["controller"] = entry.controller;
  out["createdBy"] = entry.created_by;
  boost::json::array counterparties;
  for (const auto& org : entry.counterparties) counterparties.emplace_back(org);
  out["counterparties"] = std::move(counterparties);
  out["roles"] = entry.roles;
  out["actions"] = entry.actions;
  out["text"] = entry.text;
  if (!entry.bulk_send_id.empty()) out["bulkSendId"] = entry.bulk_send_id;
  return boost::json::serialize(out);
}

namespace {

// An organization's access roles and participant actions on a contract (bits as IndexEntry's).
struct OrganizationRelation {
  uint8_t roles = 0;
  uint8_t actions = 0;
};

std::map<std::string, OrganizationRelation> RelationsOf(const ContractState& state) {
  std::map<std::string, OrganizationRelation> orgs;
  if (!state.exists()) return orgs;
  if (!state.organization_id.empty()) {
    orgs[state.organization_id].roles |= IndexEntry::Bit(AccessRole::kController);
  }
  // Participants see a contract once it is sent to them: a draft is the controller's
  // workspace, and its participants may still be replaced.
  const bool sent = state.status != ContractStatus::kDraft;
  for (const Participant& p : state.participants) {
    if (p.recipient_type != RecipientType::kOrganization || !p.organization_id ||
        p.organization_id->empty()) {
      continue;
    }
    auto& [roles, actions] = orgs[*p.organization_id];
    actions |= IndexEntry::Bit(p.action);
    if (sent && p.action == ParticipantAction::kSign) roles |= IndexEntry::Bit(AccessRole::kSigner);
    if (sent && p.action == ParticipantAction::kView) roles |= IndexEntry::Bit(AccessRole::kViewer);
  }
  return orgs;
}

}  // namespace

uint8_t AccessRolesOf(const ContractState& state, std::string_view organization_id) {
  const std::map<std::string, OrganizationRelation> orgs = RelationsOf(state);
  const auto found = orgs.find(std::string(organization_id));
  return found == orgs.end() ? 0 : found->second.roles;
}

std::map<std::string, IndexEntry> IndexEntriesOf(const ContractState& state,
                                                 std::string_view contract_id) {
  if (!state.exists()) return {};
  return IndexEntriesOf(state, contract_id, FoldText(SearchTextOf(state)));
}

std::map<std::string, IndexEntry> IndexEntriesOf(const ContractState& state,
                                                 std::string_view contract_id,
                                                 std::string folded_text) {
  std::map<std::string, IndexEntry> entries;
  if (!state.exists()) return entries;

  const std::map<std::string, OrganizationRelation> orgs = RelationsOf(state);

  IndexEntry common;
  common.contract_id = std::string(contract_id);
  common.version = state.version;
  common.status = state.status;
  common.created_at = Micros(state.created_at);
  common.updated_at = Micros(state.updated_at);
  common.sent_at = Micros(state.sent_at);
  common.completed_at = Micros(state.completed_at);
  common.declined_at = Micros(state.declined_at);
  common.voided_at = Micros(state.voided_at);
  common.expired_at = Micros(state.expired_at);
  common.expires_at = Micros(state.expires_at);
  common.controller = state.organization_id;
  common.created_by = state.created_by;
  common.bulk_send_id = state.bulk_send_id;
  common.text = std::move(folded_text);

  for (const auto& [org, relation] : orgs) {
    if (relation.roles == 0) continue;  // involved, but without a grant (receive_copy, drafts)
    IndexEntry entry = common;
    entry.roles = relation.roles;
    entry.actions = relation.actions;
    for (const auto& [other, unused] : orgs) {
      if (other != org) entry.counterparties.push_back(other);
    }
    entries.emplace(org, std::move(entry));
  }
  return entries;
}

namespace {

constexpr std::string_view kPostingTags[] = {"g/",  "gs/", "go/",          "gc/", "ga/",
                                             "gr/", "gb/", kTrigramKeyTag, "gk/"};
constexpr DateField kIndexedDates[] = {
    DateField::kCreatedAt,  DateField::kUpdatedAt, DateField::kSentAt,    DateField::kCompletedAt,
    DateField::kDeclinedAt, DateField::kVoidedAt,  DateField::kExpiredAt, DateField::kExpiresAt};

// The keys of one organization's rows of one contract; the organization and the id are escaped
// once for all of them.
class RowKeys {
 public:
  RowKeys(std::string_view organization_id, std::string_view contract_id)
      : org_(EscapeKeyPart(organization_id)), id_(EscapeKeyPart(contract_id)) {}

  std::string Grant() const { return Key(PostingIndex::kGrant, ""); }
  std::string Posting(PostingIndex index, std::string_view value) const {
    return Key(index, value);
  }
  std::string Date(DateField field, int64_t micros) const {
    const std::string_view name = ToString(field);
    std::string key;
    key.reserve(3 + org_.size() + 1 + name.size() + 1 + 16 + 1 + id_.size());
    key.append("gd/").append(org_).append(1, '/').append(name).append(1, '/');
    key.append(DateIndexTime(micros)).append(1, '/').append(id_);
    return key;
  }

 private:
  std::string Key(PostingIndex index, std::string_view value) const {
    const std::string_view tag = kPostingTags[static_cast<size_t>(index)];
    std::string key;
    key.reserve(tag.size() + org_.size() + 1 + value.size() + 1 + id_.size());
    key.append(tag).append(org_).append(1, '/');
    if (index != PostingIndex::kGrant) {
      AppendKeyPart(key, value);
      key.push_back('/');
    }
    key.append(id_);
    return key;
  }

  const std::string org_;
  const std::string id_;
};

// The secondary keys of one organization's entry but its trigrams, sorted.
std::vector<std::string> FilterKeys(const RowKeys& keys, const IndexEntry& entry) {
  std::vector<std::string> out;
  out.push_back(keys.Posting(PostingIndex::kStatus, ToString(entry.status)));
  out.push_back(keys.Posting(PostingIndex::kController, entry.controller));
  for (const std::string& other : entry.counterparties) {
    out.push_back(keys.Posting(PostingIndex::kCounterparty, other));
  }
  for (const ParticipantAction action :
       {ParticipantAction::kSign, ParticipantAction::kView, ParticipantAction::kReceiveCopy}) {
    if (entry.Has(action)) out.push_back(keys.Posting(PostingIndex::kAction, ToString(action)));
  }
  for (const AccessRole role : entry.Roles()) {
    out.push_back(keys.Posting(PostingIndex::kRole, ToString(role)));
  }
  if (entry.Has(AccessRole::kController)) {
    out.push_back(keys.Posting(PostingIndex::kCreator, entry.created_by));
    if (!entry.bulk_send_id.empty()) {
      out.push_back(keys.Posting(PostingIndex::kBulkSend, entry.bulk_send_id));
    }
  }
  for (const DateField field : kIndexedDates) {
    if (const std::optional<int64_t> date = entry.Date(field)) {
      out.push_back(keys.Date(field, *date));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Calls `only_in_a` for each element of sorted `a` not in sorted `b`, `only_in_b` the other way.
template <class T, class A, class B>
void Differences(const std::vector<T>& a, const std::vector<T>& b, A&& only_in_a, B&& only_in_b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    if (j == b.end() || (i != a.end() && *i < *j)) {
      only_in_a(*i++);
    } else if (i == a.end() || *j < *i) {
      only_in_b(*j++);
    } else {
      ++i;
      ++j;
    }
  }
}

// The index rows of one organization from `before` to `after` (either may be absent), but its
// trigrams.
void WriteOrganizationChanges(std::string_view org, const IndexEntry* before,
                              const IndexEntry* after, ViewBatch& batch) {
  const RowKeys keys(org, after != nullptr ? after->contract_id : before->contract_id);
  if (after != nullptr) {
    batch.Put(keys.Grant(), EncodeIndexEntry(*after));
  } else {
    batch.Delete(keys.Grant());
  }
  const auto filter_keys = [&](const IndexEntry* entry) {
    return entry != nullptr ? FilterKeys(keys, *entry) : std::vector<std::string>();
  };
  Differences(
      filter_keys(before), filter_keys(after), [&](const std::string& key) { batch.Delete(key); },
      [&](const std::string& key) { batch.Put(key, std::string()); });
}

// The trigram rows of one organization from `before` to `after` (either may be absent).
void WriteOrganizationTextChanges(std::string_view org, const IndexEntry* before,
                                  const IndexEntry* after, ViewBatch& batch) {
  if (before != nullptr && after != nullptr && before->text == after->text) return;
  const RowKeys keys(org, after != nullptr ? after->contract_id : before->contract_id);
  const auto trigrams = [](const IndexEntry* entry) {
    return entry != nullptr ? IndexedTrigrams(entry->text) : std::vector<std::string_view>();
  };
  Differences(
      trigrams(before), trigrams(after),
      [&](std::string_view trigram) {
        batch.DeleteOnce(keys.Posting(PostingIndex::kTrigram, trigram));
      },
      [&](std::string_view trigram) {
        batch.PutOnce(keys.Posting(PostingIndex::kTrigram, trigram), "");
      });
}

// Calls write(org, before's entry or null, after's entry or null) for every organization of
// either map, in order.
template <class Write>
void ForEachOrganization(const std::map<std::string, IndexEntry>& before,
                         const std::map<std::string, IndexEntry>& after, Write&& write) {
  auto old_it = before.begin();
  auto new_it = after.begin();
  while (old_it != before.end() || new_it != after.end()) {
    if (new_it == after.end() || (old_it != before.end() && old_it->first < new_it->first)) {
      write(old_it->first, &old_it->second, nullptr);
      ++old_it;
    } else if (old_it == before.end() || new_it->first < old_it->first) {
      write(new_it->first, nullptr, &new_it->second);
      ++new_it;
    } else {
      write(new_it->first, &old_it->second, &new_it->second);
      ++old_it;
      ++new_it;
    }
  }
}

}  // namespace

std::string PostingPrefix(PostingIndex index, std::string_view organization_id,
                          std::string_view value) {
  std::string key(kPostingTags[static_cast<size_t>(index)]);
  AppendKeyPart(key, organization_id);
  key.push_back('/');
  if (index != PostingIndex::kGrant) {
    AppendKeyPart(key, value);
    key.push_back('/');
  }
  return key;
}

std::string GrantPrefix(std::string_view organization_id) {
  return PostingPrefix(PostingIndex::kGrant, organization_id, "");
}

std::string GrantKey(std::string_view organization_id, std::string_view contract_id) {
  std::string key = GrantPrefix(organization_id);
  AppendKeyPart(key, contract_id);
  return key;
}

std::string StatusIndexPrefix(std::string_view organization_id, ContractStatus status) {
  return PostingPrefix(PostingIndex::kStatus, organization_id, ToString(status));
}

std::string StatusIndexKey(std::string_view organization_id, ContractStatus status,
                           std::string_view contract_id) {
  std::string key = StatusIndexPrefix(organization_id, status);
  AppendKeyPart(key, contract_id);
  return key;
}

std::string DateIndexPrefix(std::string_view organization_id, DateField field) {
  std::string key = "gd/";
  AppendKeyPart(key, organization_id);
  key.push_back('/');
  key.append(ToString(field));
  key.push_back('/');
  return key;
}

std::string DateIndexTime(int64_t micros) {
  // Flipping the sign bit maps signed order onto unsigned order.
  return HexU64(static_cast<uint64_t>(micros) ^ (uint64_t{1} << 63));
}

std::optional<int64_t> ParseDateIndexTime(std::string_view digits) {
  const std::optional<uint64_t> biased = ParseHexU64(digits);
  if (!biased) return std::nullopt;
  return static_cast<int64_t>(*biased ^ (uint64_t{1} << 63));
}

std::string DateIndexKey(std::string_view organization_id, DateField field, int64_t micros,
                         std::string_view contract_id) {
  std::string key = DateIndexPrefix(organization_id, field);
  key.append(DateIndexTime(micros));
  key.push_back('/');
  AppendKeyPart(key, contract_id);
  return key;
}

void WriteIndexChanges(const std::map<std::string, IndexEntry>& before,
                       const std::map<std::string, IndexEntry>& after, ViewBatch& batch) {
  ForEachOrganization(before, after,
                      [&](std::string_view org, const IndexEntry* old, const IndexEntry* now) {
                        WriteOrganizationChanges(org, old, now, batch);
                      });
}

void WriteTextIndexChanges(const std::map<std::string, IndexEntry>& before,
                           const std::map<std::string, IndexEntry>& after, ViewBatch& batch) {
  ForEachOrganization(before, after,
                      [&](std::string_view org, const IndexEntry* old, const IndexEntry* now) {
                        WriteOrganizationTextChanges(org, old, now, batch);
                      });
}

}  // namespace esign::projections
