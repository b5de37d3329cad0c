// The access grants and list index of contracts: for each organization that may read a
// contract, one IndexEntry carrying everything the list filters look at, so a list query reads
// only the entries of the actor's organization and never the contracts themselves until a page is
// chosen.
//
// Grants (DESIGN section 8): the controller (the contract's organizationId) from creation on;
// once the contract is sent, signer for an organization `sign` participant's organizationId and
// viewer for an organization `view` participant's. Individual participants have an e-mail, not an
// organization, and grant no API principal; `receive_copy` grants nothing.
//
// Keys (under "contracts/"), with each organization id and value escaped by EscapeKeyPart:
//   g/<org>/<contractId>                   the grant and index entry (every readable contract)
// and the secondary indexes of the list filters, whose values are empty (the entry is read
// from the grant key):
//   gs/<org>/<status>/<contractId>         by status
//   go/<org>/<controller>/<contractId>     by controlling organization (organizationId)
//   gc/<org>/<counterparty>/<contractId>   by each counterparty organization
//   ga/<org>/<action>/<contractId>         by each participant action of <org>
//   gr/<org>/<role>/<contractId>           by each access role of <org>
//   gb/<org>/<clientId>/<contractId>       by creating client, when <org> controls (scope owned)
//   gt/<org>/<trigram>/<contractId>        by each trigram of the folded search text; these are
//                                          the text index's rows (contract_text_index.h), under
//                                          its own name, committed apart from the others
//   gd/<org>/<dateField>/<time>/<contractId>  by each date the contract has; <time> is 16 hex
//                                          digits of the microseconds with the sign bit flipped,
//                                          so key order is time order
// Contract ids are time-ordered, so a reverse scan of an id-ordered index lists newest first.
// Pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/contract_state.h"
#include "domain/result.h"
#include "projections/list_query.h"
#include "projections/projection.h"

namespace esign::projections {

struct IndexEntry {
  std::string contract_id;
  uint64_t version = 0;
  ContractStatus status = ContractStatus::kDraft;
  // Microseconds since the epoch; absent until the contract gets there.
  std::optional<int64_t> created_at;
  std::optional<int64_t> updated_at;
  std::optional<int64_t> sent_at;
  std::optional<int64_t> completed_at;
  std::optional<int64_t> declined_at;
  std::optional<int64_t> voided_at;
  std::optional<int64_t> expired_at;
  std::optional<int64_t> expires_at;        // from the send on, until the contract ends or not
  std::string controller;                   // the controlling organization
  std::string created_by;                   // the creating client
  std::vector<std::string> counterparties;  // other organizations involved, sorted
  uint8_t roles = 0;                        // bit per AccessRole of this organization
  uint8_t actions = 0;                      // bit per ParticipantAction of this organization
  std::string text;          // folded (FoldText) title, participant names and e-mails
  std::string bulk_send_id;  // the bulk send that made the contract; empty for the others

  bool Has(AccessRole role) const { return (roles & Bit(role)) != 0; }
  bool Has(ParticipantAction action) const { return (actions & Bit(action)) != 0; }
  std::optional<int64_t> Date(DateField field) const;
  std::optional<int64_t>& MutableDate(DateField field);
  std::vector<AccessRole> Roles() const;

  template <class E>
  static uint8_t Bit(E value) {
    return static_cast<uint8_t>(1u << static_cast<unsigned>(value));
  }
};

std::string EncodeIndexEntry(const IndexEntry& entry);
Result<IndexEntry> DecodeIndexEntry(std::string_view bytes);

// The access roles (bit per AccessRole) `organization_id` holds on the contract in `state`; 0 when
// it holds none (a draft's participants, receive_copy). IndexEntriesOf grants exactly these, so a
// past state answers what a live read would have answered then (contract_as_of.h).
uint8_t AccessRolesOf(const ContractState& state, std::string_view organization_id);

// Organization id -> its entry, for every organization with a grant on the contract.
std::map<std::string, IndexEntry> IndexEntriesOf(const ContractState& state,
                                                 std::string_view contract_id);
// The same with the folded search text given: FoldText(SearchTextOf(state)), by a caller that
// knows it already (the text rarely changes when a contract moves on).
std::map<std::string, IndexEntry> IndexEntriesOf(const ContractState& state,
                                                 std::string_view contract_id,
                                                 std::string folded_text);
// The search text before folding: the title, each participant's name and e-mail, one per line.
// Not the id: a `q` that is a contract id finds it through its grant key (list_query.h).
std::string SearchTextOf(const ContractState& state);

std::string GrantKey(std::string_view organization_id, std::string_view contract_id);
std::string GrantPrefix(std::string_view organization_id);
std::string StatusIndexKey(std::string_view organization_id, ContractStatus status,
                           std::string_view contract_id);
std::string StatusIndexPrefix(std::string_view organization_id, ContractStatus status);

// The id-ordered indexes of one organization; the keys of each end in the contract id.
enum class PostingIndex {
  kGrant,         // g/<org>/ (the value is ignored)
  kStatus,        // gs/<org>/<status>/
  kController,    // go/<org>/<organization>/
  kCounterparty,  // gc/<org>/<organization>/
  kAction,        // ga/<org>/<action>/
  kRole,          // gr/<org>/<role>/
  kCreator,       // gb/<org>/<clientId>/
  kTrigram,       // gt/<org>/<trigram>/
  kBulkSend,      // gk/<org>/<bulkSendId>/ (the controller's entries only)
};
std::string PostingPrefix(PostingIndex index, std::string_view organization_id,
                          std::string_view value);
// The tag of the trigram keys, which are the text index's rows.
inline constexpr std::string_view kTrigramKeyTag = "gt/";
// Whether a key (or prefix) of these rows is one of the text index's.
inline bool IsTextIndexKey(std::string_view key) { return key.starts_with(kTrigramKeyTag); }

// gd/<org>/<dateField>/ and its keys; DateKeyTime is the <time> part of a key's time onwards.
std::string DateIndexPrefix(std::string_view organization_id, DateField field);
inline constexpr size_t kDateIndexTimeDigits = 16;
std::string DateIndexTime(int64_t micros);
std::optional<int64_t> ParseDateIndexTime(std::string_view digits);
std::string DateIndexKey(std::string_view organization_id, DateField field, int64_t micros,
                         std::string_view contract_id);

// Writes to `batch` what takes a contract's index rows but its trigrams from those of `before`
// (as committed) to those of `after`: the grant row of every organization of `after` (its entry
// changed), the secondary keys new in `after`, and deletes of the rows of `before` that no longer
// hold. A secondary key that holds in both is not rewritten (its value is empty): a status change
// writes a handful of keys.
void WriteIndexChanges(const std::map<std::string, IndexEntry>& before,
                       const std::map<std::string, IndexEntry>& after, ViewBatch& batch);
// The same for the trigram rows alone (gt/), which the text index writes (contract_text_index.h);
// the trigrams of an unchanged text are not even listed.
void WriteTextIndexChanges(const std::map<std::string, IndexEntry>& before,
                           const std::map<std::string, IndexEntry>& after, ViewBatch& batch);

}  // namespace esign::projections
