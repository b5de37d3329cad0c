#include "domain/contract_state.h"

#include <algorithm>

#include "domain/template_json.h"

namespace esign {

std::string_view ToString(ContractStatus status) {
  switch (status) {
    case ContractStatus::kDraft:
      return "draft";
    case ContractStatus::kSent:
      return "sent";
    case ContractStatus::kSigning:
      return "signing";
    case ContractStatus::kCompleted:
      return "completed";
    case ContractStatus::kDeclined:
      return "declined";
    case ContractStatus::kVoided:
      return "voided";
    case ContractStatus::kExpired:
      return "expired";
  }
  return "draft";
}

const Participant* ContractState::FindParticipant(std::string_view participant_id) const {
  for (const auto& p : participants) {
    if (p.participant_id == participant_id) return &p;
  }
  return nullptr;
}

Participant* ContractState::FindParticipant(std::string_view participant_id) {
  for (auto& p : participants) {
    if (p.participant_id == participant_id) return &p;
  }
  return nullptr;
}

const RoleBinding* ContractState::BindingOf(std::string_view participant_id) const {
  for (const auto& b : role_bindings) {
    if (b.participant_id == participant_id) return &b;
  }
  return nullptr;
}

const PreparedRole* ContractState::PreparedRoleOf(std::string_view participant_id) const {
  for (const auto& r : prepared_roles) {
    if (r.participant_id == participant_id) return &r;
  }
  return nullptr;
}

const SigningSession* ContractState::FindSession(std::string_view session_id) const {
  for (const auto& s : sessions) {
    if (s.session_id == session_id) return &s;
  }
  return nullptr;
}

SigningSession* ContractState::FindSession(std::string_view session_id) {
  for (auto& s : sessions) {
    if (s.session_id == session_id) return &s;
  }
  return nullptr;
}

size_t ContractState::UnsignedSignerCount() const {
  return std::count_if(participants.begin(), participants.end(), [](const Participant& p) {
    return p.signs() && p.progress != ParticipantProgress::kSigned;
  });
}

int64_t ContractState::LatestRevision() const {
  int64_t latest = 0;
  for (const auto& r : artifact_revisions) latest = std::max(latest, r.revision);
  return latest;
}

namespace {

void PutOptional(boost::json::object& out, std::string_view key,
                 const std::optional<std::string>& value) {
  if (value) {
    out[key] = *value;
  } else {
    out[key] = nullptr;
  }
}

void PutReminders(boost::json::object& out, const Participant& p) {
  out["reminderCount"] = p.reminder_count;
  PutOptional(out, "lastRemindedAt", p.last_reminded_at);
}

// The dates of the contract's life, shared by the contract (top level) and the status
// (lifecycle).
void PutLifecycleDates(boost::json::object& out, const ContractState& state) {
  PutOptional(out, "sentAt", state.sent_at);
  PutOptional(out, "expiresAt", state.expires_at);
  PutOptional(out, "completedAt", state.completed_at);
  PutOptional(out, "declinedAt", state.declined_at);
  PutOptional(out, "voidedAt", state.voided_at);
  PutOptional(out, "expiredAt", state.expired_at);
}

boost::json::object ParticipantToJson(const ContractState& state, const Participant& p) {
  boost::json::object out = ParticipantToEventJson(p);
  // The method only: what the log keeps of an access code is no one's business but the service's.
  out.erase("accessCode");
  out.erase("accessCodeHash");
  if (p.signs()) out["authentication"] = ToString(p.authentication);
  if (const RoleBinding* binding = state.BindingOf(p.participant_id)) {
    out["templateRoleId"] = binding->template_role_id;
  }
  if (p.effective_routing_order) out["routingOrder"] = *p.effective_routing_order;
  out["state"] = ToString(p.progress);
  PutOptional(out, "signedAt", p.signed_at);
  PutOptional(out, "declinedAt", p.declined_at);
  if (p.decline_reason) out["declineReason"] = *p.decline_reason;
  if (p.signs()) PutReminders(out, p);
  return out;
}

}  // namespace

boost::json::array ContractDocumentListToJson(const ContractState& state) {
  boost::json::array items;
  int64_t first_page = 1;
  for (size_t i = 0; i < state.documents.size(); ++i) {
    const ContractDocument& document = state.documents[i];
    const auto pages = static_cast<int64_t>(document.pages.size());
    items.push_back({{"documentIndex", i},
                     {"documentId", document.document_id},
                     {"name", document.name},
                     {"sha256", document.sha256},
                     {"uploadSha256", document.upload_sha256},
                     {"pageCount", pages},
                     {"firstPage", first_page},
                     {"lastPage", first_page + pages - 1},
                     {"pages", DocumentPagesToJson(document.pages)}});
    first_page += pages;
  }
  return items;
}

boost::json::object ContractToJson(const ContractState& state) {
  boost::json::object out;
  out["id"] = state.id;
  out["status"] = ToString(state.status);
  out["version"] = state.version;
  out["title"] = state.title;
  if (state.from_uploads()) {
    // The template version it came from, if any.
    out["templateId"] =
        state.template_id.empty() ? boost::json::value() : boost::json::value(state.template_id);
    out["templateVersionId"] = state.template_version_id.empty()
                                   ? boost::json::value()
                                   : boost::json::value(state.template_version_id);
    out["documents"] = ContractDocumentListToJson(state);
    boost::json::array fields;
    for (const auto& field : state.fields) fields.push_back(PlacedFieldToJson(field));
    out["fields"] = std::move(fields);
  } else {
    out["templateId"] = state.template_id;
    out["templateVersionId"] = state.template_version_id;
    if (!state.fields.empty()) {
      // Its template roles' fields, on the pages it renders.
      boost::json::array fields;
      for (const auto& field : state.fields) fields.push_back(PlacedFieldToJson(field));
      out["fields"] = std::move(fields);
    }
  }
  out["organizationSigningMode"] = ToString(state.organization_signing_mode);
  out["organizationId"] = state.organization_id;
  out["fieldValues"] = FieldValuesToJson(state.data.field_values);
  out["tableData"] = state.data.table_data;
  boost::json::array participants;
  for (const auto& p : state.participants) participants.push_back(ParticipantToJson(state, p));
  out["participants"] = std::move(participants);
  out["roleBindings"] = RoleBindingsToJson(state.role_bindings);
  out["signingSettings"] = state.signing_settings;
  out["notifications"] = state.notifications;
  if (state.prepared_at) {
    boost::json::array roles;
    for (const auto& role : state.prepared_roles) {
      boost::json::array placements;
      for (const auto& placement : role.signature_placement) {
        placements.push_back(PlacementToJson(placement));
      }
      roles.push_back(boost::json::object{{"templateRoleId", role.template_role_id},
                                          {"participantId", role.participant_id},
                                          {"routingOrder", role.routing_order},
                                          {"signaturePlacement", std::move(placements)}});
    }
    out["preparedRoles"] = std::move(roles);
    boost::json::array dropped;
    for (const auto& role : state.dropped_roles) dropped.emplace_back(role);
    out["droppedRoles"] = std::move(dropped);
    out["notificationSnapshot"] = state.notification_snapshot;
  }
  if (state.rendered_document_sha256) {
    out["renderedDocumentSha256"] = *state.rendered_document_sha256;
  }
  if (state.signed_pdf_key) out["signedPdfKey"] = *state.signed_pdf_key;
  out["createdBy"] = state.created_by;
  if (!state.bulk_send_id.empty()) out["bulkSendId"] = state.bulk_send_id;
  out["createdAt"] = state.created_at;
  out["updatedAt"] = state.updated_at;
  PutLifecycleDates(out, state);
  if (state.void_reason) out["voidReason"] = *state.void_reason;
  return out;
}

boost::json::object ContractStatusToJson(const ContractState& state) {
  boost::json::object out;
  out["id"] = state.id;
  out["status"] = ToString(state.status);
  out["organizationSigningMode"] = ToString(state.organization_signing_mode);
  out["version"] = state.version;
  boost::json::object lifecycle;
  lifecycle["createdAt"] = state.created_at;
  PutLifecycleDates(lifecycle, state);
  if (state.void_reason) lifecycle["voidReason"] = *state.void_reason;
  out["lifecycle"] = std::move(lifecycle);
  boost::json::array participants;
  for (const auto& p : state.participants) {
    boost::json::object item;
    item["participantId"] = p.participant_id;
    item["action"] = ToString(p.action);
    item["recipientType"] = ToString(p.recipient_type);
    item["name"] = p.name;
    if (p.email) item["email"] = *p.email;
    if (p.organization_id) item["organizationId"] = *p.organization_id;
    if (p.effective_routing_order) {
      item["routingOrder"] = *p.effective_routing_order;
    } else if (p.routing_order) {
      item["routingOrder"] = *p.routing_order;
    } else {
      item["routingOrder"] = nullptr;
    }
    item["state"] = ToString(p.progress);
    PutOptional(item, "signedAt", p.signed_at);
    PutOptional(item, "declinedAt", p.declined_at);
    if (p.signs()) PutReminders(item, p);
    participants.push_back(std::move(item));
  }
  out["participants"] = std::move(participants);
  return out;
}

}  // namespace esign
