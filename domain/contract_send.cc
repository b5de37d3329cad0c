// SendContract, and preparation shared with CreateContract{sendNow}. Preparation freezes what
// signing needs (DESIGN section 8): bound roles with routing orders and signature placements,
// the resolved notification snapshot, the unbound optional roles it drops. Checks, in order:
// notifications; at least one signer; every signer bound; required roles bound; data complete;
// placed fields (for a contract from uploads, a signature field for every signer); routing
// orders.
#include <algorithm>
#include <limits>

#include "base/time_text.h"
#include "domain/contract_rules.h"
#include "domain/placed_field_rules.h"
#include "domain/signing_settings.h"
#include "domain/template_json.h"

namespace esign::contract_rules {
namespace {

int64_t EffectiveRoutingOrder(const Participant& p, const RoleDef* role) {
  if (p.routing_order) return *p.routing_order;
  if (role != nullptr) return role->routing_order;
  return 1;
}

}  // namespace

Result<std::vector<DomainEvent>> DecidePrepareAndSend(const ContractState& state,
                                                      const TemplateVersion& version,
                                                      const DecisionContext& context) {
  if (std::none_of(state.participants.begin(), state.participants.end(),
                   [](const Participant& p) { return p.signs(); })) {
    return Fail(ErrorCode::kValidationFailed, "the contract has no signer", "participants",
                "at least one participant with action sign is required to send");
  }
  for (size_t i = 0; i < state.participants.size(); ++i) {
    const Participant& p = state.participants[i];
    if (p.signs() && state.BindingOf(p.participant_id) == nullptr) {
      return Fail(ErrorCode::kContractRoleBindingInvalid,
                  "signer " + p.participant_id + " is bound to no template role",
                  JoinPath(IndexPath("participants", i), "templateRoleId"),
                  "a signer must be bound to a template role before sending");
    }
  }
  Details unbound;
  std::vector<std::string> dropped;
  for (const auto& role : version.roles) {
    bool bound = std::any_of(
        state.role_bindings.begin(), state.role_bindings.end(),
        [&](const RoleBinding& b) { return b.template_role_id == role.template_role_id; });
    if (bound) continue;
    if (role.required) {
      AddDetail(unbound, "roleBindings",
                "required role " + role.template_role_id + " has no participant");
    } else {
      dropped.push_back(role.template_role_id);
    }
  }
  if (!unbound.empty()) {
    std::string message = "required template role";
    message += unbound.size() > 1 ? "s are" : " is";
    message += " unbound";
    return Fail(Error{ErrorCode::kContractRoleBindingRequiredRoleUnbound, std::move(message),
                      std::move(unbound)});
  }
  if (auto complete = CheckDataCompleteForSend(version, state.data, state.data_form); !complete) {
    return Fail(complete.error());
  }
  if (auto placed = CheckPlacedFieldsForSend(state); !placed) return Fail(placed.error());
  // A draft's expiresAt was in the future when it was given; it must still be.
  Details expiry;
  CheckExpiresAt(state.signing_settings, "signingSettings", context.now, expiry);
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid signing settings", expiry); !ok) {
    return Fail(ok.error());
  }
  const auto expires_at = ExpiryMicros(state.signing_settings, context.now);

  boost::json::array roles;
  boost::json::array routing;
  Details bad_routing;
  int64_t first_turn = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < state.participants.size(); ++i) {
    const Participant& p = state.participants[i];
    const RoleBinding* binding = state.BindingOf(p.participant_id);
    const RoleDef* role = binding ? version.FindRole(binding->template_role_id) : nullptr;
    int64_t order = EffectiveRoutingOrder(p, role);
    if (order < 1 || order > 100) {
      AddDetail(bad_routing, JoinPath(IndexPath("participants", i), "routingOrder"),
                "must be 1..100");
    }
    routing.push_back(
        boost::json::object{{"participantId", p.participant_id}, {"routingOrder", order}});
    if (p.signs()) first_turn = std::min(first_turn, order);
    if (role == nullptr) continue;
    const auto moved = context.signature_placements.find(p.participant_id);
    boost::json::array placements;
    for (const auto& placement :
         moved != context.signature_placements.end() ? moved->second : role->signature_placement) {
      placements.push_back(PlacementToJson(placement));
    }
    roles.push_back(boost::json::object{{"templateRoleId", role->template_role_id},
                                        {"participantId", p.participant_id},
                                        {"action", ToString(role->action)},
                                        {"recipientType", ToString(role->recipient_type)},
                                        {"routingOrder", order},
                                        {"signaturePlacement", std::move(placements)}});
  }
  if (auto ok = FailIfAny(ErrorCode::kContractRoleBindingInvalidRouting,
                          "invalid routing configuration", bad_routing);
      !ok) {
    return Fail(ok.error());
  }

  boost::json::array dropped_json;
  for (const auto& role : dropped) dropped_json.emplace_back(role);
  boost::json::object prepared{
      {"contractId", state.id},
      {"roleBindings", RoleBindingsToJson(state.role_bindings)},
      {"signingSettings", state.signing_settings},
      {"notifications", state.notifications},
      {"notificationSnapshot",
       ResolveNotifications(context.platform_notifications, context.organization_notifications,
                            version.settings.notifications, state.notifications)},
      {"roles", std::move(roles)},
      {"routing", routing},
      {"droppedRoles", std::move(dropped_json)}};
  if (context.rendered_document_sha256) {
    prepared["renderedDocumentSha256"] = *context.rendered_document_sha256;
  }
  if (!context.organization_name.empty()) prepared["organizationName"] = context.organization_name;
  prepared["preparedAt"] = context.now;

  boost::json::array ready;
  for (size_t i = 0; i < state.participants.size(); ++i) {
    const Participant& p = state.participants[i];
    if (p.signs() && routing[i].at("routingOrder").as_int64() == first_turn) {
      ready.emplace_back(p.participant_id);
    }
  }
  return std::vector<DomainEvent>{
      DomainEvent{std::string(event_type::kContractPrepared), std::move(prepared)},
      DomainEvent{std::string(event_type::kContractSent),
                  {{"contractId", state.id},
                   {"sentAt", context.now},
                   {"readyParticipantIds", std::move(ready)},
                   {"expiresAt", expires_at ? FormatTimestamp(*expires_at) : context.now}}}};
}

Result<std::vector<DomainEvent>> DecideSend(const ContractState& state, const SendContract& c,
                                            const DecisionContext& context) {
  if (auto ok = RequireControl(state, context.actor); !ok) return Fail(ok.error());
  if (auto ok = RequirePermission(context.actor, "contracts:send"); !ok) return Fail(ok.error());
  if (auto ok = RequireDraft(state, "sending is possible"); !ok) return Fail(ok.error());
  // Specification 4.8: invalid notifications fail before the contract is sent.
  if (auto ok = ValidateNotificationSettings(c.notifications); !ok) return Fail(ok.error());
  Details validation;
  RejectUnknown(c.unknown, validation);
  ContractState draft = state;
  if (!c.signing_settings.is_null()) {
    if (auto read =
            ReadSigningSettings(c.signing_settings, "signingSettings", context.now, validation)) {
      draft.signing_settings = std::move(*read);
    }
  }
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid send request", validation); !ok) {
    return Fail(ok.error());
  }
  auto version = VersionOf(state, context);
  if (!version) return Fail(version.error());
  if (!c.role_bindings.is_null()) {
    auto requests = ReadRoleBindings(c.role_bindings, "roleBindings", state.participants, false);
    if (!requests) return Fail(requests.error());
    auto bindings = CheckRoleBindings(**version, state.participants, *requests);
    if (!bindings) return Fail(bindings.error());
    draft.role_bindings = std::move(*bindings);
  }
  if (c.notifications.is_object()) {
    draft.notifications =
        MergeNotificationSettings(draft.notifications, c.notifications.get_object());
  }
  return DecidePrepareAndSend(draft, **version, context);
}

}  // namespace esign::contract_rules
