// CreateContract: the rules of specification section 4.2 (1-7) and section 7, in the order
// that makes each failure report the code the specification names:
//   permissions (rule 4) -> notifications (rule 7) -> request shape, title, template, data,
//   participants and channels (rule 5), signing settings, sendNow -> sendNow without roles
//   (rule 3) -> role bindings (rules 1-2) -> contract.created (+ prepare and send).
#include <set>

#include "base/json_read.h"
#include "domain/contract_rules.h"
#include "domain/field_value.h"
#include "domain/signing_settings.h"

namespace esign::contract_rules {
namespace {

constexpr int64_t kMaxTitleLength = 300;

// What in the request needs contracts:send besides contracts:create (rule 4), or "".
std::string WhatNeedsSend(const CreateContract& c) {
  if (c.participants.is_array()) {
    const auto& items = c.participants.get_array();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].is_object() && Member(items[i].get_object(), "templateRoleId") != nullptr) {
        return JoinPath(IndexPath("participants", i), "templateRoleId");
      }
    }
  }
  if (!c.role_bindings.is_null()) return "roleBindings";
  if (!c.signing_settings.is_null()) return "signingSettings";
  if (c.send_now.is_bool() && c.send_now.get_bool()) return "sendNow";
  return "";
}

}  // namespace

Result<std::vector<DomainEvent>> DecideCreate(const ContractState& state, const CreateContract& c,
                                              const DecisionContext& context) {
  if (state.exists()) {
    return Fail(ErrorCode::kContractStateConflict, "contract " + state.id + " already exists");
  }
  if (context.contract_id.empty()) {
    return Fail(ErrorCode::kInternal, "no contract id was generated for the new contract");
  }
  if (auto ok = RequirePermission(context.actor, "contracts:create"); !ok) return Fail(ok.error());
  if (std::string field = WhatNeedsSend(c); !field.empty()) {
    auto ok = RequirePermission(context.actor, "contracts:send", field,
                                "requires the contracts:send permission");
    if (!ok) return Fail(ok.error());
  }
  if (auto ok = ValidateNotificationSettings(c.notifications); !ok) return Fail(ok.error());

  Details validation;
  RejectUnknown(c.unknown, validation);
  if (!c.title.is_string() || c.title.get_string().empty()) {
    AddDetail(validation, "title", "required non-empty string");
  } else if (CountCharacters(c.title.get_string()) > kMaxTitleLength) {
    AddDetail(validation, "title", "at most " + std::to_string(kMaxTitleLength) + " characters");
  }
  if (!c.template_id.is_string() || c.template_id.get_string().empty()) {
    AddDetail(validation, "templateId", "required non-empty string");
  }
  if (!c.template_version_id.is_null() &&
      (!c.template_version_id.is_string() || c.template_version_id.get_string().empty())) {
    AddDetail(validation, "templateVersionId", "must be a non-empty string");
  }
  if (!validation.empty()) {
    return Fail(Error{ErrorCode::kValidationFailed, "invalid contract", std::move(validation)});
  }

  std::string template_id(c.template_id.get_string());
  if (context.tmpl == nullptr || context.tmpl->template_id != template_id) {
    return Fail(ErrorCode::kTemplateNotFound, "template " + template_id + " not found",
                "templateId", "unknown template");
  }
  const TemplateVersion* version = context.template_version;
  if (version == nullptr) {
    std::optional<std::string_view> wanted;
    if (c.template_version_id.is_string()) wanted = c.template_version_id.get_string();
    auto selected = SelectTemplateVersion(*context.tmpl, wanted);
    if (!selected) return Fail(selected.error());
    version = *selected;
  }

  DataChanges changes;
  bool direct = !c.field_values.is_null() || !c.table_data.is_null();
  if (!c.data.is_null() && direct) {
    AddDetail(validation, "data", "give either data or fieldValues/tableData, not both");
  } else if (!c.data.is_null()) {
    ReadSectionData(*version, c.data, "data", changes, validation);
  } else {
    if (!c.field_values.is_null()) {
      ReadFieldValues(*version, c.field_values, "fieldValues", changes, validation);
    }
    if (!c.table_data.is_null()) {
      ReadTableData(*version, c.table_data, "tableData", changes, validation);
    }
  }

  Details routing;
  size_t next_fresh = 0;
  std::vector<ParticipantRequest> requests;
  if (!c.participants.is_null()) {
    requests = ReadParticipants(c.participants, "participants", context.participant_ids,
                                &next_fresh, validation, routing);
  }

  boost::json::object signing_settings = DefaultSigningSettings();
  if (!c.signing_settings.is_null()) {
    if (auto read =
            ReadSigningSettings(c.signing_settings, "signingSettings", context.now, validation)) {
      signing_settings = std::move(*read);
    }
  }
  bool send_now = false;
  if (!c.send_now.is_null()) {
    if (c.send_now.is_bool()) {
      send_now = c.send_now.get_bool();
    } else {
      AddDetail(validation, "sendNow", "must be a boolean");
    }
  }
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid contract", validation); !ok) {
    return Fail(ok.error());
  }
  if (auto ok = FailIfAny(ErrorCode::kContractRoleBindingInvalidRouting,
                          "invalid routing configuration", routing);
      !ok) {
    return Fail(ok.error());
  }

  std::vector<Participant> participants;
  std::set<std::string> ids;
  for (size_t i = 0; i < requests.size(); ++i) {
    const std::string& id = requests[i].participant.participant_id;
    if (id.empty()) {
      return Fail(ErrorCode::kInternal, "not enough pre-generated participant ids");
    }
    if (!ids.insert(id).second) {
      return Fail(ErrorCode::kValidationFailed, "invalid contract",
                  JoinPath(IndexPath("participants", i), "participantId"),
                  "duplicate participantId");
    }
    participants.push_back(requests[i].participant);
  }

  // Rule 3: sending at once needs every signer's role, from the participant or a binding.
  if (send_now && c.role_bindings.is_null()) {
    for (size_t i = 0; i < requests.size(); ++i) {
      if (requests[i].participant.signs() && !requests[i].template_role_id) {
        return Fail(ErrorCode::kContractRoleBindingInvalid,
                    "every signer needs a templateRoleId when sendNow is true",
                    JoinPath(IndexPath("participants", i), "templateRoleId"),
                    "required when sendNow is true");
      }
    }
  }

  std::vector<BindingRequest> binding_requests;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (!requests[i].template_role_id) continue;
    std::string path = IndexPath("participants", i);
    binding_requests.push_back(BindingRequest{
        RoleBinding{*requests[i].template_role_id, requests[i].participant.participant_id},
        JoinPath(path, "templateRoleId"), path});
  }
  if (!c.role_bindings.is_null()) {
    auto explicit_bindings = ReadRoleBindings(c.role_bindings, "roleBindings", participants, true);
    if (!explicit_bindings) return Fail(explicit_bindings.error());
    for (auto& request : *explicit_bindings) binding_requests.push_back(std::move(request));
  }
  auto bindings = CheckRoleBindings(*version, participants, binding_requests);
  if (!bindings) return Fail(bindings.error());

  ContractData data;
  ApplyDataChanges(data, changes);
  // Normalized through a merge so that nulls (inherit) are not stored.
  boost::json::object notifications;
  if (c.notifications.is_object()) {
    notifications = MergeNotificationSettings({}, c.notifications.get_object());
  }
  boost::json::array participants_json;
  for (const auto& p : participants) participants_json.push_back(ParticipantToEventJson(p));
  DomainEvent created{
      std::string(event_type::kContractCreated),
      {{"contractId", context.contract_id},
       {"title", c.title},
       {"templateId", context.tmpl->template_id},
       {"templateVersionId", version->template_version_id},
       {"organizationSigningMode", ToString(version->settings.organization_signing_mode)},
       {"organizationId", context.actor.organization_id},
       {"createdBy", context.actor.client_id},
       {"fieldValues", FieldValuesToJson(data.field_values)},
       {"tableData", data.table_data},
       {"participants", std::move(participants_json)},
       {"roleBindings", RoleBindingsToJson(*bindings)},
       {"signingSettings", std::move(signing_settings)},
       {"notifications", std::move(notifications)},
       {"createdAt", context.now}}};
  // Moved, not listed: an initializer list would copy the event's JSON twice.
  std::vector<DomainEvent> events;
  events.push_back(std::move(created));
  if (send_now) {
    ContractState draft = Apply(state, events.front());
    auto sent = DecidePrepareAndSend(draft, *version, context);
    if (!sent) return Fail(sent.error());
    for (auto& event : *sent) events.push_back(std::move(event));
  }
  return events;
}

}  // namespace esign::contract_rules
