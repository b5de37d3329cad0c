// CreateContract: the rules of specification section 4.2 (1-7) and section 7, in the order
// that makes each failure report the code the specification names:
//   permissions (rule 4) -> notifications (rule 7) -> request shape, title, template, data,
//   participants and channels (rule 5), signing settings, sendNow -> sendNow without roles
//   (rule 3) -> role bindings (rules 1-2) -> contract.created (+ prepare and send).
// A contract from uploads (`documents` instead of `templateId`, DESIGN section 20) takes the same
// path up to the participants; then its documents and placed fields are checked
// (placed_field_rules.h) and each participant is bound to its own implicit role. A contract from
// a template version made from uploads takes the template's path up to the role bindings, then
// becomes a contract from documents: the version's, with each role's fields given to its
// participant. A contract from a rendered version whose roles have fields gets them the same way,
// on the pages the version renders.
#include <algorithm>
#include <set>

#include "base/json_read.h"
#include "domain/contract_rules.h"
#include "domain/field_value.h"
#include "domain/placed_field_rules.h"
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

// Creating a contract from uploads names no template.
void RejectTemplateMembers(const CreateContract& c, Details& validation) {
  for (const auto& [member, key] :
       {std::pair{&c.template_id, "templateId"},
        std::pair{&c.template_version_id, "templateVersionId"}, std::pair{&c.data, "data"},
        std::pair{&c.field_values, "fieldValues"}, std::pair{&c.table_data, "tableData"},
        std::pair{&c.role_bindings, "roleBindings"}}) {
    if (!member->is_null()) {
      AddDetail(validation, key,
                "not with documents: a contract is made from a template or "
                "from uploaded documents");
    }
  }
}

Result<const TemplateVersion*> SelectVersion(const CreateContract& c,
                                             const DecisionContext& context) {
  std::string template_id(c.template_id.get_string());
  if (context.tmpl == nullptr || context.tmpl->template_id != template_id) {
    return Fail(ErrorCode::kTemplateNotFound, "template " + template_id + " not found",
                "templateId", "unknown template");
  }
  if (context.template_version != nullptr) return context.template_version;
  std::optional<std::string_view> wanted;
  if (c.template_version_id.is_string()) wanted = c.template_version_id.get_string();
  return SelectTemplateVersion(*context.tmpl, wanted);
}

void ReadCreateData(const TemplateVersion& version, const CreateContract& c, DataChanges& changes,
                    Details& validation) {
  bool direct = !c.field_values.is_null() || !c.table_data.is_null();
  if (!c.data.is_null() && direct) {
    AddDetail(validation, "data", "give either data or fieldValues/tableData, not both");
  } else if (!c.data.is_null()) {
    ReadSectionData(version, c.data, "data", changes, validation);
  } else {
    if (!c.field_values.is_null()) {
      ReadFieldValues(version, c.field_values, "fieldValues", changes, validation);
    }
    if (!c.table_data.is_null()) {
      ReadTableData(version, c.table_data, "tableData", changes, validation);
    }
  }
}

// Normalized through a merge so that nulls (inherit) are not stored.
boost::json::object CreateNotifications(const CreateContract& c) {
  if (!c.notifications.is_object()) return {};
  return MergeNotificationSettings({}, c.notifications.get_object());
}

boost::json::array ParticipantsToEventJson(const std::vector<Participant>& participants) {
  boost::json::array out;
  for (const auto& p : participants) out.push_back(ParticipantToEventJson(p));
  return out;
}

// contract.created, then, with sendNow, preparation and sending against `version` (for a
// contract from uploads: its implicit roles).
// A contract that a bulk send made names its job (domain/bulk_send.h).
void NoteBulkSend(const CreateContract& c, DomainEvent& created) {
  if (!c.bulk_send_id.empty()) created.data["bulkSendId"] = c.bulk_send_id;
}

Result<std::vector<DomainEvent>> WithSendNow(const ContractState& state, DomainEvent created,
                                             const TemplateVersion* version,
                                             const DecisionContext& context, bool send_now) {
  // Moved, not listed: an initializer list would copy the event's JSON twice.
  std::vector<DomainEvent> events;
  events.push_back(std::move(created));
  if (send_now) {
    ContractState draft = Apply(state, events.front());
    TemplateVersion uploads_version;
    if (draft.from_uploads()) {
      uploads_version = UploadsTemplateVersion(draft);
      version = &uploads_version;
    }
    auto sent = DecidePrepareAndSend(draft, *version, context);
    if (!sent) return Fail(sent.error());
    for (auto& event : *sent) events.push_back(std::move(event));
  }
  return events;
}

// What a contract from documents is made of, besides the request.
struct DocumentsContract {
  std::vector<Participant> participants;
  std::vector<ContractDocument> documents;
  std::vector<PlacedField> fields;
  boost::json::object signing_settings;
  const TemplateVersion* version = nullptr;    // the template version it comes from, if any
  std::vector<RoleBinding> template_bindings;  // to that version's roles
};

// contract.created of a contract from documents: each participant bound to its own implicit role
// (placed_field_rules.h); the template version it came from, if any, is named for the record.
Result<std::vector<DomainEvent>> CreateWithDocuments(const ContractState& state,
                                                     const CreateContract& c,
                                                     const DecisionContext& context,
                                                     DocumentsContract made, bool send_now) {
  boost::json::array documents_json;
  for (const auto& document : made.documents) {
    documents_json.push_back(ContractDocumentToJson(document));
  }
  boost::json::array fields_json;
  for (const auto& field : made.fields) fields_json.push_back(PlacedFieldToJson(field));
  const OrganizationSigningMode mode = made.version != nullptr
                                           ? made.version->settings.organization_signing_mode
                                           : OrganizationSigningMode::kAutomatic;
  DomainEvent created{std::string(event_type::kContractCreated),
                      {{"contractId", context.contract_id},
                       {"title", c.title},
                       {"documents", std::move(documents_json)},
                       {"fields", std::move(fields_json)},
                       {"organizationSigningMode", ToString(mode)},
                       {"organizationId", context.actor.organization_id},
                       {"createdBy", context.actor.client_id},
                       {"fieldValues", boost::json::array{}},
                       {"tableData", boost::json::object{}},
                       {"participants", ParticipantsToEventJson(made.participants)},
                       {"roleBindings", RoleBindingsToJson(UploadsRoleBindings(
                                            made.participants, made.template_bindings))},
                       {"signingSettings", std::move(made.signing_settings)},
                       {"notifications", CreateNotifications(c)},
                       {"createdAt", context.now}}};
  if (made.version != nullptr) {
    created.data["templateId"] = context.tmpl->template_id;
    created.data["templateVersionId"] = made.version->template_version_id;
  }
  NoteBulkSend(c, created);
  return WithSendNow(state, std::move(created), nullptr, context, send_now);
}

Result<std::vector<DomainEvent>> CreateFromUploads(const ContractState& state,
                                                   const CreateContract& c,
                                                   const DecisionContext& context,
                                                   DocumentsContract made, bool send_now) {
  Details validation;
  made.fields = ReadPlacedFields(c.fields, c.form_field_mapping, context.uploads, made.documents,
                                 made.participants, validation);
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid contract", validation); !ok) {
    return Fail(ok.error());
  }
  return CreateWithDocuments(state, c, context, std::move(made), send_now);
}

const RoleBinding* BindingOfRole(const std::vector<RoleBinding>& bindings,
                                 std::string_view role_id) {
  for (const auto& binding : bindings) {
    if (binding.template_role_id == role_id) return &binding;
  }
  return nullptr;
}

// A version that places fields (made from uploads, or whose roles have `fields`) binds its roles
// when a contract is created, since the fields name participants: every signer is bound now, and
// every required role. `why` says which kind of version asks it.
Status RequireRolesBoundAtCreation(const TemplateVersion& version,
                                   const std::vector<Participant>& participants,
                                   const std::vector<RoleBinding>& bindings, std::string_view why) {
  for (size_t i = 0; i < participants.size(); ++i) {
    const Participant& p = participants[i];
    const bool bound = std::any_of(bindings.begin(), bindings.end(), [&](const RoleBinding& b) {
      return b.participant_id == p.participant_id;
    });
    if (!bound && p.signs()) {
      return Fail(
          ErrorCode::kContractRoleBindingInvalid,
          "signer " + p.participant_id + " is bound to no template role",
          JoinPath(IndexPath("participants", i), "templateRoleId"),
          std::string(why) + ": each signer is bound to a role when the contract is created");
    }
  }
  Details unbound;
  for (const auto& role : version.roles) {
    if (role.required && BindingOfRole(bindings, role.template_role_id) == nullptr) {
      AddDetail(unbound, "roleBindings",
                "required role " + role.template_role_id + " has no participant");
    }
  }
  return FailIfAny(ErrorCode::kContractRoleBindingRequiredRoleUnbound,
                   "required template roles are unbound", unbound);
}

// Each role's fields given to the participant bound to it; an optional role left out takes its
// fields with it.
std::vector<PlacedField> FieldsOfBoundRoles(const TemplateVersion& version,
                                            const std::vector<RoleBinding>& bindings) {
  std::vector<PlacedField> fields;
  for (const PlacedField& field : version.fields) {
    const RoleBinding* binding = BindingOfRole(bindings, field.participant_id);
    if (binding == nullptr) continue;
    PlacedField placed = field;
    placed.participant_id = binding->participant_id;
    fields.push_back(std::move(placed));
  }
  return fields;
}

// A contract from a template version made from uploads: the version's documents, and each role's
// fields given to the participant bound to it. As for a contract from uploads, its fields name
// its participants, which are therefore fixed at creation (RequireRolesBoundAtCreation), and a
// participant's routing order is its role's unless it gives its own.
Result<std::vector<DomainEvent>> CreateFromUploadsVersion(
    const ContractState& state, const CreateContract& c, const DecisionContext& context,
    DocumentsContract made, const std::vector<RoleBinding>& bindings, bool send_now) {
  const TemplateVersion& version = *made.version;
  if (auto ok = RequireRolesBoundAtCreation(version, made.participants, bindings,
                                            "the template is made from documents");
      !ok) {
    return Fail(ok.error());
  }
  for (Participant& p : made.participants) {
    for (const auto& binding : bindings) {
      if (binding.participant_id == p.participant_id && !p.routing_order) {
        p.routing_order = version.FindRole(binding.template_role_id)->routing_order;
      }
    }
  }
  made.documents = version.documents;
  made.fields = FieldsOfBoundRoles(version, bindings);
  made.template_bindings = bindings;
  return CreateWithDocuments(state, c, context, std::move(made), send_now);
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
  const bool from_uploads = !c.documents.is_null();
  if (from_uploads) {
    RejectTemplateMembers(c, validation);
  } else {
    if (!c.template_id.is_string() || c.template_id.get_string().empty()) {
      AddDetail(validation, "templateId", "required non-empty string (or documents)");
    }
    if (!c.template_version_id.is_null() &&
        (!c.template_version_id.is_string() || c.template_version_id.get_string().empty())) {
      AddDetail(validation, "templateVersionId", "must be a non-empty string");
    }
    for (const auto& [member, key] :
         {std::pair{&c.fields, "fields"}, std::pair{&c.form_field_mapping, "formFieldMapping"}}) {
      if (!member->is_null()) AddDetail(validation, key, "only with documents");
    }
  }
  if (!validation.empty()) {
    return Fail(Error{ErrorCode::kValidationFailed, "invalid contract", std::move(validation)});
  }

  // The document source: a template version, or uploads.
  const TemplateVersion* version = nullptr;
  std::vector<ContractDocument> documents;
  DataChanges changes;
  if (from_uploads) {
    auto read = ReadContractDocuments(c.documents, context.uploads, validation);
    if (!read) return Fail(read.error());
    documents = std::move(*read);
  } else {
    auto selected = SelectVersion(c, context);
    if (!selected) return Fail(selected.error());
    version = *selected;
    ReadCreateData(*version, c, changes, validation);
  }

  Details routing;
  size_t next_fresh = 0;
  std::vector<ParticipantRequest> requests;
  if (!c.participants.is_null()) {
    requests = ReadParticipants(c.participants, "participants", context.participant_ids,
                                &next_fresh, validation, routing);
  }
  if (from_uploads) {
    for (size_t i = 0; i < requests.size(); ++i) {
      if (requests[i].template_role_id) {
        AddDetail(validation, JoinPath(IndexPath("participants", i), "templateRoleId"),
                  "a contract from documents has no template roles: give action, routingOrder "
                  "and recipientType on the participant");
      }
    }
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

  if (from_uploads) {
    return CreateFromUploads(state, c, context,
                             DocumentsContract{.participants = std::move(participants),
                                               .documents = std::move(documents),
                                               .signing_settings = std::move(signing_settings)},
                             send_now);
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
  if (version->from_uploads()) {
    return CreateFromUploadsVersion(
        state, c, context,
        DocumentsContract{.participants = std::move(participants),
                          .signing_settings = std::move(signing_settings),
                          .version = version},
        *bindings, send_now);
  }

  // Its roles' fields, on the pages it renders: they too name participants.
  if (!version->fields.empty()) {
    if (auto ok = RequireRolesBoundAtCreation(*version, participants, *bindings,
                                              "the template's roles have fields");
        !ok) {
      return Fail(ok.error());
    }
  }
  ContractData data;
  ApplyDataChanges(data, changes);
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
       {"participants", ParticipantsToEventJson(participants)},
       {"roleBindings", RoleBindingsToJson(*bindings)},
       {"signingSettings", std::move(signing_settings)},
       {"notifications", CreateNotifications(c)},
       {"createdAt", context.now}}};
  if (!version->fields.empty()) {
    boost::json::array fields;
    for (const auto& field : FieldsOfBoundRoles(*version, *bindings)) {
      fields.push_back(PlacedFieldToJson(field));
    }
    created.data["fields"] = std::move(fields);
  }
  if (!c.data.is_null()) created.data["dataForm"] = kSectionsDataForm;
  NoteBulkSend(c, created);
  return WithSendNow(state, std::move(created), version, context, send_now);
}

}  // namespace esign::contract_rules
