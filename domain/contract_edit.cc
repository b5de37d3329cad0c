// The draft-only edits: data, table data, participants, role bindings (DESIGN section 8: any of
// them on a sent contract is kContractStateConflict, as on a contract from uploads, whose fields
// name its participants, and participants or role bindings on one whose template roles have
// fields). Checks, in order: control, permission, state, request shape and values.
#include <set>

#include "base/json_read.h"
#include "domain/contract_rules.h"
#include "domain/signing_settings.h"

namespace esign::contract_rules {
namespace {

// What an edit changes: the data, or who fills which role (which placed fields name).
enum class EditOf { kData, kParticipants };

Status CheckEditable(const ContractState& state, const DecisionContext& context,
                     std::string_view permission, std::string_view what, EditOf edit) {
  if (auto ok = RequireControl(state, context.actor); !ok) return ok;
  if (auto ok = RequirePermission(context.actor, permission); !ok) return ok;
  if (auto ok = RequireDraft(state, what); !ok) return ok;
  if (state.from_uploads()) {
    // Its fields name its participants: an edit of either would leave boxes without a signer.
    return Fail(ErrorCode::kContractStateConflict,
                "a contract from uploaded documents keeps the participants and fields it was "
                "created with; create a new draft to change them",
                "documents", "from uploads");
  }
  if (edit == EditOf::kParticipants && !state.fields.empty()) {
    return Fail(ErrorCode::kContractStateConflict,
                "a contract whose template roles have fields keeps the participants and role "
                "bindings it was created with; create a new draft to change them",
                "fields", "its template roles' fields name its participants");
  }
  return {};
}

// The common start of every edit: the checks above, then the contract's template version; members
// the request should not have are noted in `validation`.
Result<const TemplateVersion*> BeginEdit(const ContractState& state, const DecisionContext& context,
                                         std::string_view permission, std::string_view what,
                                         const boost::json::object& unknown, Details& validation,
                                         EditOf edit = EditOf::kData) {
  if (auto ok = CheckEditable(state, context, permission, what, edit); !ok) {
    return Fail(ok.error());
  }
  auto version = VersionOf(state, context);
  if (!version) return Fail(version.error());
  RejectUnknown(unknown, validation);
  return version;
}

boost::json::array Keys(const boost::json::object& object) {
  boost::json::array out;
  for (const auto& member : object) out.emplace_back(member.key());
  return out;
}

}  // namespace

Result<std::vector<DomainEvent>> DecideUpdateData(const ContractState& state, const UpdateData& c,
                                                  const DecisionContext& context) {
  Details validation;
  auto version =
      BeginEdit(state, context, "contracts:update", "data can be changed", c.unknown, validation);
  if (!version) return Fail(version.error());
  DataChanges changes;
  if (c.field_values.is_null()) {
    AddDetail(validation, "fieldValues", "required");
  } else {
    ReadFieldValues(**version, c.field_values, "fieldValues", changes, validation);
  }
  if (!c.table_data.is_null()) {
    ReadTableData(**version, c.table_data, "tableData", changes, validation);
  }
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid contract data", validation); !ok) {
    return Fail(ok.error());
  }
  ContractData data = state.data;
  ApplyDataChanges(data, changes);
  return std::vector<DomainEvent>{
      DomainEvent{std::string(event_type::kDataUpdated),
                  {{"contractId", state.id},
                   {"fieldValues", FieldValuesToJson(data.field_values)},
                   {"tableData", data.table_data},
                   {"changedFields", Keys(changes.fields)},
                   {"changedTables", Keys(changes.tables)},
                   {"updatedAt", context.now}}}};
}

Result<std::vector<DomainEvent>> DecideUpdateTableData(const ContractState& state,
                                                       const UpdateTableData& c,
                                                       const DecisionContext& context) {
  Details validation;
  auto version = BeginEdit(state, context, "contracts:update", "table data can be changed",
                           c.unknown, validation);
  if (!version) return Fail(version.error());
  DataChanges changes;
  if (c.table_data.is_null()) {
    AddDetail(validation, "tableData", "required");
  } else {
    ReadTableData(**version, c.table_data, "tableData", changes, validation);
  }
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid table data", validation); !ok) {
    return Fail(ok.error());
  }
  ContractData data = state.data;
  ApplyDataChanges(data, changes);
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kTableDataUpdated),
                                              {{"contractId", state.id},
                                               {"tableData", data.table_data},
                                               {"changedTables", Keys(changes.tables)},
                                               {"updatedAt", context.now}}}};
}

Result<std::vector<DomainEvent>> DecideReplaceParticipants(const ContractState& state,
                                                           const ReplaceParticipants& c,
                                                           const DecisionContext& context) {
  Details validation;
  auto version = BeginEdit(state, context, "contracts:update", "participants can be replaced",
                           c.unknown, validation, EditOf::kParticipants);
  if (!version) return Fail(version.error());
  // Assigning roles through participants is role assignment: it needs contracts:send, as at
  // creation (specification 4.2 rule 4).
  if (c.participants.is_array()) {
    const auto& items = c.participants.get_array();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].is_object() && Member(items[i].get_object(), "templateRoleId") != nullptr) {
        auto ok = RequirePermission(context.actor, "contracts:send",
                                    JoinPath(IndexPath("participants", i), "templateRoleId"),
                                    "requires the contracts:send permission");
        if (!ok) return Fail(ok.error());
        break;
      }
    }
  }
  Details routing;
  std::vector<ParticipantRequest> requests;
  size_t next_fresh = 0;
  if (c.participants.is_null()) {
    AddDetail(validation, "participants", "required");
  } else {
    requests = ReadParticipants(c.participants, "participants", context.participant_ids,
                                &next_fresh, validation, routing);
  }
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid participants", validation); !ok) {
    return Fail(ok.error());
  }
  if (auto ok = FailIfAny(ErrorCode::kContractRoleBindingInvalidRouting,
                          "invalid routing configuration", routing);
      !ok) {
    return Fail(ok.error());
  }

  std::vector<Participant> participants;
  std::set<std::string> ids;
  std::vector<BindingRequest> binding_requests;
  std::set<std::string> claimed_roles;
  for (size_t i = 0; i < requests.size(); ++i) {
    const Participant& p = requests[i].participant;
    if (p.participant_id.empty()) {
      return Fail(ErrorCode::kInternal, "not enough pre-generated participant ids");
    }
    if (!ids.insert(p.participant_id).second) {
      return Fail(ErrorCode::kValidationFailed, "invalid participants",
                  JoinPath(IndexPath("participants", i), "participantId"),
                  "duplicate participantId");
    }
    participants.push_back(p);
    if (requests[i].template_role_id) {
      std::string path = IndexPath("participants", i);
      binding_requests.push_back(
          BindingRequest{RoleBinding{*requests[i].template_role_id, p.participant_id},
                         JoinPath(path, "templateRoleId"), path});
      claimed_roles.insert(*requests[i].template_role_id);
    }
  }
  // A binding survives when its participant stays and neither side is re-assigned here.
  for (const auto& binding : state.role_bindings) {
    for (size_t i = 0; i < requests.size(); ++i) {
      if (requests[i].participant.participant_id != binding.participant_id) continue;
      if (!requests[i].template_role_id && !claimed_roles.contains(binding.template_role_id)) {
        std::string path = IndexPath("participants", i);
        binding_requests.push_back(BindingRequest{binding, path, path});
      }
    }
  }
  auto bindings = CheckRoleBindings(**version, participants, binding_requests);
  if (!bindings) return Fail(bindings.error());

  boost::json::array participants_json;
  for (const auto& p : participants) participants_json.push_back(ParticipantToEventJson(p));
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kParticipantsReplaced),
                                              {{"contractId", state.id},
                                               {"participants", std::move(participants_json)},
                                               {"roleBindings", RoleBindingsToJson(*bindings)},
                                               {"updatedAt", context.now}}}};
}

Result<std::vector<DomainEvent>> DecideUpdateRoleBindings(const ContractState& state,
                                                          const UpdateRoleBindings& c,
                                                          const DecisionContext& context) {
  Details validation;
  auto version = BeginEdit(state, context, "contracts:send", "role bindings can be changed",
                           c.unknown, validation, EditOf::kParticipants);
  if (!version) return Fail(version.error());
  if (c.role_bindings.is_null()) AddDetail(validation, "roleBindings", "required");
  boost::json::object signing_settings = state.signing_settings;
  if (!c.signing_settings.is_null()) {
    if (auto read =
            ReadSigningSettings(c.signing_settings, "signingSettings", context.now, validation)) {
      signing_settings = std::move(*read);
    }
  }
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid role bindings", validation); !ok) {
    return Fail(ok.error());
  }
  auto requests = ReadRoleBindings(c.role_bindings, "roleBindings", state.participants, false);
  if (!requests) return Fail(requests.error());
  auto bindings = CheckRoleBindings(**version, state.participants, *requests);
  if (!bindings) return Fail(bindings.error());
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kRoleBindingsUpdated),
                                              {{"contractId", state.id},
                                               {"roleBindings", RoleBindingsToJson(*bindings)},
                                               {"signingSettings", std::move(signing_settings)},
                                               {"updatedAt", context.now}}}};
}

}  // namespace esign::contract_rules
