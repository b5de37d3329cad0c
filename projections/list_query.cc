#include "projections/list_query.h"

#include <charconv>

#include "base/time_text.h"
#include "domain/json_util.h"
#include "projections/key_codec.h"
#include "projections/text_fold.h"

namespace esign::projections {
namespace {

constexpr size_t kMaxIdLength = 128;
constexpr size_t kMaxSearchLength = 200;
constexpr size_t kMaxCursorLength = 1024;

constexpr std::string_view kKnownParams[] = {"scope",
                                             "status",
                                             "dateField",
                                             "from",
                                             "to",
                                             "organizationId",
                                             "counterpartyOrganizationId",
                                             "participantAction",
                                             "accessRole",
                                             "q",
                                             "bulkSendId",
                                             "limit",
                                             "cursor"};

bool HasControlBytes(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

std::optional<ListScope> ParseScope(std::string_view text) {
  if (text == "readable") return ListScope::kReadable;
  if (text == "owned") return ListScope::kOwned;
  if (text == "organization") return ListScope::kOrganization;
  if (text == "shared_with_me") return ListScope::kSharedWithMe;
  return std::nullopt;
}

constexpr DateField kDateFields[] = {
    DateField::kCreatedAt,  DateField::kUpdatedAt, DateField::kSentAt,    DateField::kCompletedAt,
    DateField::kDeclinedAt, DateField::kVoidedAt,  DateField::kExpiredAt, DateField::kExpiresAt};
constexpr ContractStatus kStatuses[] = {ContractStatus::kDraft,    ContractStatus::kSent,
                                        ContractStatus::kSigning,  ContractStatus::kCompleted,
                                        ContractStatus::kDeclined, ContractStatus::kVoided,
                                        ContractStatus::kExpired};

// "must be one of a, b, c", from the values' names.
template <class T, size_t N>
std::string OneOf(const T (&values)[N]) {
  std::string text = "must be one of ";
  for (size_t i = 0; i < N; ++i) {
    if (i > 0) text += ", ";
    text += ToString(values[i]);
  }
  return text;
}

void ReadIdentifier(const QueryParams& params, std::string_view name,
                    std::optional<std::string>& out, Details& details) {
  const auto it = params.find(name);
  if (it == params.end() || it->second.empty()) return;
  if (it->second.size() > kMaxIdLength || HasControlBytes(it->second)) {
    AddDetail(details, std::string(name),
              "must be at most " + std::to_string(kMaxIdLength) + " printable characters");
    return;
  }
  out = it->second;
}

std::optional<int64_t> ReadTime(const QueryParams& params, std::string_view name,
                                Details& details) {
  const auto it = params.find(name);
  if (it == params.end() || it->second.empty()) return std::nullopt;
  std::optional<int64_t> micros = ParseTimestampMicros(it->second);
  if (!micros) {
    AddDetail(details, std::string(name),
              "must be an ISO 8601 timestamp such as 2026-01-15T10:00:00Z, or a date 2026-01-15");
  }
  return micros;
}

}  // namespace

std::string_view ToString(ListScope scope) {
  switch (scope) {
    case ListScope::kReadable:
      return "readable";
    case ListScope::kOwned:
      return "owned";
    case ListScope::kOrganization:
      return "organization";
    case ListScope::kSharedWithMe:
      return "shared_with_me";
  }
  return "readable";
}

std::string_view ToString(AccessRole role) {
  switch (role) {
    case AccessRole::kController:
      return "controller";
    case AccessRole::kSigner:
      return "signer";
    case AccessRole::kViewer:
      return "viewer";
  }
  return "viewer";
}

std::optional<AccessRole> ParseAccessRole(std::string_view text) {
  if (text == "controller") return AccessRole::kController;
  if (text == "signer") return AccessRole::kSigner;
  if (text == "viewer") return AccessRole::kViewer;
  return std::nullopt;
}

std::string_view ToString(DateField field) {
  switch (field) {
    case DateField::kCreatedAt:
      return "createdAt";
    case DateField::kUpdatedAt:
      return "updatedAt";
    case DateField::kSentAt:
      return "sentAt";
    case DateField::kCompletedAt:
      return "completedAt";
    case DateField::kDeclinedAt:
      return "declinedAt";
    case DateField::kVoidedAt:
      return "voidedAt";
    case DateField::kExpiredAt:
      return "expiredAt";
    case DateField::kExpiresAt:
      return "expiresAt";
  }
  return "createdAt";
}

std::optional<DateField> ParseDateField(std::string_view text) {
  for (const DateField field : kDateFields) {
    if (text == ToString(field)) return field;
  }
  return std::nullopt;
}

std::optional<ContractStatus> ParseContractStatus(std::string_view text) {
  for (const ContractStatus status : kStatuses) {
    if (text == ToString(status)) return status;
  }
  return std::nullopt;
}

std::optional<size_t> ParseListLimit(std::string_view text, Details& details) {
  size_t limit = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), limit);
  if (error != std::errc() || end != text.data() + text.size() || limit < 1 ||
      limit > kMaxListLimit) {
    AddDetail(details, "limit", "must be an integer from 1 to " + std::to_string(kMaxListLimit));
    return std::nullopt;
  }
  return limit;
}

Result<ListQuery> ParseListQuery(const QueryParams& params) {
  ListQuery query;
  Details details;
  for (const auto& [name, value] : params) {
    bool known = false;
    for (const std::string_view candidate : kKnownParams) known = known || name == candidate;
    if (!known) AddDetail(details, name, "unknown parameter");
  }
  const auto value_of = [&](std::string_view name) -> std::optional<std::string_view> {
    const auto it = params.find(name);
    if (it == params.end() || it->second.empty()) return std::nullopt;
    return std::string_view(it->second);
  };

  if (const auto text = value_of("scope")) {
    if (const auto scope = ParseScope(*text)) {
      query.scope = *scope;
    } else {
      AddDetail(details, "scope", "must be one of owned, organization, shared_with_me, readable");
    }
  }
  if (const auto text = value_of("status")) {
    query.status = ParseContractStatus(*text);
    if (!query.status) {
      AddDetail(details, "status", OneOf(kStatuses));
    }
  }
  if (const auto text = value_of("dateField")) {
    if (const auto field = ParseDateField(*text)) {
      query.date_field = *field;
    } else {
      AddDetail(details, "dateField", OneOf(kDateFields));
    }
  }
  query.from_us = ReadTime(params, "from", details);
  query.to_us = ReadTime(params, "to", details);
  if (query.from_us && query.to_us && *query.to_us <= *query.from_us) {
    AddDetail(details, "to", "must be later than from");
  }
  ReadIdentifier(params, "organizationId", query.organization_id, details);
  ReadIdentifier(params, "counterpartyOrganizationId", query.counterparty_organization_id, details);
  ReadIdentifier(params, "bulkSendId", query.bulk_send_id, details);
  if (const auto text = value_of("participantAction")) {
    query.participant_action = ParseParticipantAction(*text);
    if (!query.participant_action) {
      AddDetail(details, "participantAction", "must be one of sign, view, receive_copy");
    }
  }
  if (const auto text = value_of("accessRole")) {
    query.access_role = ParseAccessRole(*text);
    if (!query.access_role) {
      AddDetail(details, "accessRole", "must be one of controller, signer, viewer");
    }
  }
  if (const auto text = value_of("q")) {
    if (text->size() > kMaxSearchLength || HasControlBytes(*text)) {
      AddDetail(details, "q",
                "must be at most " + std::to_string(kMaxSearchLength) + " printable characters");
    } else {
      std::string folded = FoldText(*text);
      query.contract_id = ContractIdOfSearch(folded);
      if (!query.contract_id) query.q = std::move(folded);
    }
  }
  if (const auto text = value_of("limit")) {
    if (const auto limit = ParseListLimit(*text, details)) query.limit = *limit;
  }
  if (const auto text = value_of("cursor")) {
    if (text->size() > kMaxCursorLength) {
      AddDetail(details, "cursor", "too long");
    } else {
      query.cursor = std::string(*text);
    }
  }
  if (!details.empty()) {
    return std::unexpected(
        Error{ErrorCode::kValidationFailed, "invalid query parameters", std::move(details)});
  }
  return query;
}

std::optional<std::string> ContractIdOfSearch(std::string_view folded_q) {
  constexpr std::string_view kPrefix = "ctr_";
  if (!folded_q.starts_with(kPrefix) || folded_q.size() == kPrefix.size()) return std::nullopt;
  std::string id(kPrefix);
  for (const char c : folded_q.substr(kPrefix.size())) {
    const bool letter = c >= 'a' && c <= 'z';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !digit && c != '_') return std::nullopt;
    id.push_back(letter ? static_cast<char>(c - 'a' + 'A') : c);
  }
  return id;
}

Result<ListQuery> ParseListQuery(const std::vector<std::pair<std::string, std::string>>& params) {
  QueryParams map;
  for (const auto& [name, value] : params) {
    if (!map.emplace(name, value).second) {
      return Fail(ErrorCode::kValidationFailed, "invalid query parameters", name,
                  "given more than once");
    }
  }
  return ParseListQuery(map);
}

std::string QueryFingerprint(std::string_view client_id, std::string_view organization_id,
                             const ListQuery& query) {
  boost::json::object out;
  out["client"] = client_id;
  out["org"] = organization_id;
  out["scope"] = ToString(query.scope);
  if (query.status) out["status"] = ToString(*query.status);
  out["dateField"] = ToString(query.date_field);
  if (query.from_us) out["from"] = *query.from_us;
  if (query.to_us) out["to"] = *query.to_us;
  if (query.organization_id) out["organizationId"] = *query.organization_id;
  if (query.counterparty_organization_id) {
    out["counterpartyOrganizationId"] = *query.counterparty_organization_id;
  }
  if (query.participant_action) out["participantAction"] = ToString(*query.participant_action);
  if (query.access_role) out["accessRole"] = ToString(*query.access_role);
  if (query.q) out["q"] = *query.q;
  if (query.contract_id) out["contractId"] = *query.contract_id;
  if (query.bulk_send_id) out["bulkSendId"] = *query.bulk_send_id;
  return CanonicalJson(out);
}

}  // namespace esign::projections
