// The list query of GET /contracts (specification section 4.1) and its parsing from the request's
// query parameters. ParseListQuery is pure and checks every parameter, reporting all problems
// at once as kValidationFailed with one ErrorDetail per parameter (field = its name). What each
// value means is in docs/projections.md; ContractQueries::List runs the query.
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
#include "domain/json_util.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign::projections {

// Which contracts of those the actor may read.
enum class ListScope {
  kReadable,      // every contract the actor's organization holds any grant on (default)
  kOwned,         // created by the actor's own client
  kOrganization,  // controlled by the actor's organization
  kSharedWithMe,  // the actor's organization holds a viewer grant
};
std::string_view ToString(ListScope scope);

// The actor organization's relation to a contract; each is a read grant.
enum class AccessRole { kController, kSigner, kViewer };
std::string_view ToString(AccessRole role);
std::optional<AccessRole> ParseAccessRole(std::string_view text);

enum class DateField {
  kCreatedAt,
  kUpdatedAt,
  kSentAt,
  kCompletedAt,
  kDeclinedAt,
  kVoidedAt,
  kExpiredAt,
  kExpiresAt,  // the deadline fixed at send, whether or not it has passed
};
std::string_view ToString(DateField field);
std::optional<DateField> ParseDateField(std::string_view text);

std::optional<ContractStatus> ParseContractStatus(std::string_view text);

inline constexpr size_t kDefaultListLimit = 50;
inline constexpr size_t kMaxListLimit = 200;

struct ListQuery {
  ListScope scope = ListScope::kReadable;
  std::optional<ContractStatus> status;
  DateField date_field = DateField::kCreatedAt;
  std::optional<int64_t> from_us;              // inclusive, microseconds since the epoch
  std::optional<int64_t> to_us;                // exclusive
  std::optional<std::string> organization_id;  // the controller
  std::optional<std::string> counterparty_organization_id;  // another organization involved
  std::optional<ParticipantAction> participant_action;      // the actor organization's own
  std::optional<AccessRole> access_role;                    // the actor organization's relation
  std::optional<std::string> q;  // folded (text_fold.h); a substring of the folded search text
  // A `q` that is a contract id ("ctr_" and letters, digits or '_', in any case) asks for that
  // contract, whole, and is kept here instead of in `q`: its grant key finds it (one read), so
  // ids need no trigrams (ContractIdOfSearch).
  std::optional<std::string> contract_id;
  std::optional<std::string> bulk_send_id;  // the contracts a bulk send made (the controller's)
  size_t limit = kDefaultListLimit;
  std::optional<std::string> cursor;  // opaque, checked by ContractQueries::List
};

using QueryParams = std::map<std::string, std::string, std::less<>>;

// The contract id a folded `q` names, or nullopt when it is text: "ctr_" followed by ASCII
// letters, digits and '_' only. Ids are generated upper case after the prefix
// (domain/id_generator.h) and folding lowered them, so the rest is raised again.
std::optional<std::string> ContractIdOfSearch(std::string_view folded_q);

// Parameters with an empty value count as absent. Unknown parameters are rejected.
Result<ListQuery> ParseListQuery(const QueryParams& params);

// The `limit` parameter of any list: an integer from 1 to kMaxListLimit; nothing, with a detail
// added, otherwise.
std::optional<size_t> ParseListLimit(std::string_view text, Details& details);
// The same from the parameters in request order; a parameter given twice is rejected.
Result<ListQuery> ParseListQuery(const std::vector<std::pair<std::string, std::string>>& params);

// A canonical text of everything that selects the rows of a listing (the actor and every filter,
// not limit or cursor): a cursor is valid only for the listing whose fingerprint it was made for.
std::string QueryFingerprint(std::string_view client_id, std::string_view organization_id,
                             const ListQuery& query);

}  // namespace esign::projections
