// Apply: folds one event into the state. Reads only the event's data, never a template or the
// clock, so replaying the log rebuilds exactly the state the live service had.
#include <algorithm>
#include <limits>

#include "base/json_read.h"
#include "base/time_text.h"
#include "domain/contract.h"
#include "domain/signing_settings.h"

namespace esign {
namespace {

std::vector<Participant> Participants(const boost::json::object& data) {
  std::vector<Participant> out;
  const auto* value = data.if_contains("participants");
  if (value == nullptr || !value->is_array()) return out;
  for (const auto& item : value->get_array()) {
    if (item.is_object()) out.push_back(ParticipantFromEventJson(item.get_object()));
  }
  return out;
}

std::vector<SignaturePlacement> Placements(const boost::json::value* value) {
  std::vector<SignaturePlacement> out;
  if (value == nullptr || !value->is_array()) return out;
  for (const auto& item : value->get_array()) {
    if (!item.is_object()) continue;
    const auto& o = item.get_object();
    auto number = [&](std::string_view key) {
      const auto* v = o.if_contains(key);
      return v != nullptr && v->is_number() ? v->to_number<double>() : 0.0;
    };
    out.push_back(SignaturePlacement{IntegerMember(o, "page").value_or(1), number("x"), number("y"),
                                     number("width"), number("height")});
  }
  return out;
}

void ApplyPrepared(ContractState& state, const boost::json::object& d) {
  state.role_bindings = RoleBindingsFromJson(d.contains("roleBindings") ? d.at("roleBindings")
                                                                        : boost::json::value());
  state.signing_settings = ObjectMemberOrEmpty(d, "signingSettings");
  state.notifications = ObjectMemberOrEmpty(d, "notifications");
  state.notification_snapshot = ObjectMemberOrEmpty(d, "notificationSnapshot");
  state.prepared_roles.clear();
  if (const auto* roles = d.if_contains("roles"); roles != nullptr && roles->is_array()) {
    for (const auto& item : roles->get_array()) {
      if (!item.is_object()) continue;
      const auto& o = item.get_object();
      PreparedRole role;
      role.template_role_id = StringMemberOrEmpty(o, "templateRoleId");
      role.participant_id = StringMemberOrEmpty(o, "participantId");
      role.action = ParseParticipantAction(StringMemberOrEmpty(o, "action"))
                        .value_or(ParticipantAction::kSign);
      role.recipient_type = ParseRecipientType(StringMemberOrEmpty(o, "recipientType"))
                                .value_or(RecipientType::kIndividual);
      role.routing_order = IntegerMember(o, "routingOrder").value_or(1);
      role.signature_placement = Placements(o.if_contains("signaturePlacement"));
      state.prepared_roles.push_back(std::move(role));
    }
  }
  if (const auto* routing = d.if_contains("routing"); routing != nullptr && routing->is_array()) {
    for (const auto& item : routing->get_array()) {
      if (!item.is_object()) continue;
      if (Participant* p =
              state.FindParticipant(StringMemberOrEmpty(item.get_object(), "participantId"))) {
        p->effective_routing_order = IntegerMember(item.get_object(), "routingOrder").value_or(1);
      }
    }
  }
  state.dropped_roles.clear();
  if (const auto* dropped = d.if_contains("droppedRoles");
      dropped != nullptr && dropped->is_array()) {
    for (const auto& item : dropped->get_array()) {
      if (item.is_string()) state.dropped_roles.emplace_back(item.get_string());
    }
  }
  const auto rendered = StringMember(d, "renderedDocumentSha256");
  state.rendered_document_sha256 = rendered ? std::optional<std::string>(*rendered) : std::nullopt;
  state.prepared_at = StringMemberOrEmpty(d, "preparedAt");
  state.updated_at = StringMemberOrEmpty(d, "preparedAt");
}

SigningSession SessionFromCreated(const boost::json::object& d) {
  SigningSession session;
  session.session_id = StringMemberOrEmpty(d, "sessionId");
  session.participant_id = StringMemberOrEmpty(d, "participantId");
  session.channel = ParseExecutionChannel(StringMemberOrEmpty(d, "channel"))
                        .value_or(ExecutionChannel::kPlatformHosted);
  session.token_sha256 = StringMemberOrEmpty(d, "tokenSha256");
  session.expires_at = StringMemberOrEmpty(d, "expiresAt");
  session.return_url = StringMemberOrEmpty(d, "returnUrl");
  session.provider_id = StringMemberOrEmpty(d, "providerId");
  session.document_sha256 = StringMemberOrEmpty(d, "documentSha256");
  const auto* automatic = d.if_contains("automatic");
  session.automatic = automatic != nullptr && automatic->is_bool() && automatic->get_bool();
  session.created_at = StringMemberOrEmpty(d, "createdAt");
  session.updated_at = session.created_at;
  return session;
}

void ApplySignerAuthentication(ContractState& state, std::string_view type,
                               const boost::json::object& d) {
  SigningSession* session = state.FindSession(StringMemberOrEmpty(d, "sessionId"));
  if (session == nullptr) return;
  if (type == event_type::kSignerCodeSent) {
    session->codes_sent = static_cast<int>(IntegerMember(d, "codeNumber").value_or(0));
    session->last_code_sent_at = StringMemberOrEmpty(d, "sentAt");
    session->code_expires_at = StringMemberOrEmpty(d, "expiresAt");
  } else if (type == event_type::kSignerAuthenticated) {
    session->authenticated_at.push_back(StringMemberOrEmpty(d, "authenticatedAt"));
    // The latest code did it, and a code proves once (logs from before this rule included).
    if (StringMemberOrEmpty(d, "method") == "email_otp") session->code_spent = session->codes_sent;
  } else {
    session->failed_attempts = static_cast<int>(IntegerMember(d, "failedAttempts").value_or(0));
    if (type == event_type::kSignerAuthenticationFailed) session->locked = true;
  }
}

void EndSession(ContractState& state, std::string_view session_id, SessionState end,
                const std::string& at) {
  if (session_id.empty()) return;
  if (SigningSession* session = state.FindSession(session_id)) {
    session->state = end;
    session->ended_at = at;
    session->updated_at = at;
  }
}

// The signers named by readyParticipantIds (of contract.sent and signer.completed): their turn
// came at `at`.
void MarkReady(ContractState& state, const boost::json::object& d, const std::string& at) {
  const boost::json::array* ready = ArrayMember(d, "readyParticipantIds");
  if (ready == nullptr) return;
  for (const auto& id : *ready) {
    if (!id.is_string()) continue;
    if (Participant* p = state.FindParticipant(id.get_string()); p != nullptr && !p->ready_since) {
      p->ready_since = at;
    }
  }
}

void ApplyReminded(ContractState& state, const boost::json::object& d) {
  Participant* p = state.FindParticipant(StringMemberOrEmpty(d, "participantId"));
  if (p == nullptr) return;
  ++p->reminder_count;
  if (StringMemberOrEmpty(d, "trigger") == "scheduled") ++p->scheduled_reminder_count;
  p->last_reminded_at = StringMemberOrEmpty(d, "remindedAt");
}

// Progress is derived from the status, the signatures and the routing orders, so that it can
// never disagree with them.
void RecomputeProgress(ContractState& state) {
  bool flowing = state.in_signing_flow();
  int64_t turn = std::numeric_limits<int64_t>::max();
  for (const auto& p : state.participants) {
    if (p.signs() && !p.signed_at && !p.declined_at) {
      turn = std::min(turn, p.effective_routing_order.value_or(1));
    }
  }
  for (auto& p : state.participants) {
    if (!p.signs()) {
      p.progress = state.status == ContractStatus::kDraft ? ParticipantProgress::kWaiting
                                                          : ParticipantProgress::kNotified;
    } else if (p.signed_at) {
      p.progress = ParticipantProgress::kSigned;
    } else if (p.declined_at) {
      p.progress = ParticipantProgress::kDeclined;
    } else if (flowing && p.effective_routing_order.value_or(1) == turn) {
      p.progress = ParticipantProgress::kReady;
    } else {
      p.progress = ParticipantProgress::kWaiting;
    }
  }
}

}  // namespace

ContractState Apply(ContractState state, const DomainEvent& event) {
  const boost::json::object& d = event.data;
  const std::string_view type = event.type;
  if (type == event_type::kContractCreated) {
    state.id = StringMemberOrEmpty(d, "contractId");
    state.status = ContractStatus::kDraft;
    state.title = StringMemberOrEmpty(d, "title");
    state.template_id = StringMemberOrEmpty(d, "templateId");
    state.template_version_id = StringMemberOrEmpty(d, "templateVersionId");
    if (const auto* documents = ArrayMember(d, "documents")) {
      for (const auto& document : *documents) {
        if (document.is_object()) {
          state.documents.push_back(ContractDocumentFromJson(document.get_object()));
        }
      }
    }
    if (const auto* fields = ArrayMember(d, "fields")) {
      for (const auto& field : *fields) {
        if (field.is_object()) state.fields.push_back(PlacedFieldFromJson(field.get_object()));
      }
    }
    state.organization_signing_mode = StringMemberOrEmpty(d, "organizationSigningMode") == "manual"
                                          ? OrganizationSigningMode::kManual
                                          : OrganizationSigningMode::kAutomatic;
    state.organization_id = StringMemberOrEmpty(d, "organizationId");
    state.created_by = StringMemberOrEmpty(d, "createdBy");
    state.data.field_values =
        FieldValuesFromJson(d.contains("fieldValues") ? d.at("fieldValues") : nullptr);
    state.data.table_data = ObjectMemberOrEmpty(d, "tableData");
    state.participants = Participants(d);
    state.role_bindings =
        RoleBindingsFromJson(d.contains("roleBindings") ? d.at("roleBindings") : nullptr);
    state.signing_settings = ObjectMemberOrEmpty(d, "signingSettings");
    state.notifications = ObjectMemberOrEmpty(d, "notifications");
    state.created_at = StringMemberOrEmpty(d, "createdAt");
    state.updated_at = state.created_at;
  } else if (type == event_type::kDataUpdated) {
    state.data.field_values =
        FieldValuesFromJson(d.contains("fieldValues") ? d.at("fieldValues") : nullptr);
    if (d.contains("tableData")) state.data.table_data = ObjectMemberOrEmpty(d, "tableData");
    state.updated_at = StringMemberOrEmpty(d, "updatedAt");
  } else if (type == event_type::kTableDataUpdated) {
    state.data.table_data = ObjectMemberOrEmpty(d, "tableData");
    state.updated_at = StringMemberOrEmpty(d, "updatedAt");
  } else if (type == event_type::kParticipantsReplaced) {
    state.participants = Participants(d);
    state.role_bindings =
        RoleBindingsFromJson(d.contains("roleBindings") ? d.at("roleBindings") : nullptr);
    state.updated_at = StringMemberOrEmpty(d, "updatedAt");
  } else if (type == event_type::kRoleBindingsUpdated) {
    state.role_bindings =
        RoleBindingsFromJson(d.contains("roleBindings") ? d.at("roleBindings") : nullptr);
    state.signing_settings = ObjectMemberOrEmpty(d, "signingSettings");
    state.updated_at = StringMemberOrEmpty(d, "updatedAt");
  } else if (type == event_type::kContractPrepared) {
    ApplyPrepared(state, d);
  } else if (type == event_type::kContractSent) {
    state.status = ContractStatus::kSent;
    state.sent_at = StringMemberOrEmpty(d, "sentAt");
    state.updated_at = *state.sent_at;
    if (const auto expires_at = StringMember(d, "expiresAt")) {
      state.expires_at = std::string(*expires_at);
    } else if (const auto micros = ExpiryMicros(state.signing_settings, *state.sent_at)) {
      state.expires_at = FormatTimestamp(*micros);  // sent before contract.sent recorded it
    }
    MarkReady(state, d, *state.sent_at);
  } else if (type == event_type::kSignerCompleted) {
    if (Participant* p = state.FindParticipant(StringMemberOrEmpty(d, "participantId"))) {
      p->signed_at = StringMemberOrEmpty(d, "signedAt");
      p->signing_evidence = ObjectMemberOrEmpty(d, "evidence");
    }
    if (const auto* values = ArrayMember(d, "fieldValues")) {
      for (const auto& item : *values) {
        if (!item.is_object()) continue;
        const std::string id = StringMemberOrEmpty(item.get_object(), "fieldId");
        const auto* value = Member(item.get_object(), "value");
        for (PlacedField& field : state.fields) {
          if (field.field_id == id && value != nullptr) field.value = *value;
        }
      }
    }
    EndSession(state, StringMemberOrEmpty(d, "sessionId"), SessionState::kCompleted,
               StringMemberOrEmpty(d, "recordedAt"));
    // signedAt may come from the signer's side; recordedAt is the service's own time.
    state.updated_at = StringMemberOrEmpty(d, "recordedAt");
    MarkReady(state, d, state.updated_at);
  } else if (type == event_type::kSigningInProgress) {
    state.status = ContractStatus::kSigning;
    state.updated_at = StringMemberOrEmpty(d, "at");
  } else if (type == event_type::kContractCompleted) {
    state.status = ContractStatus::kCompleted;
    state.signed_pdf_key = StringMemberOrEmpty(d, "signedPdfKey");
    const auto signed_pdf = StringMember(d, "signedPdfSha256");
    state.signed_pdf_sha256 = signed_pdf ? std::optional<std::string>(*signed_pdf) : std::nullopt;
    // Absent in contracts completed before the completion certificate existed.
    const auto signed_content = StringMember(d, "signedContentSha256");
    state.signed_content_sha256 =
        signed_content ? std::optional<std::string>(*signed_content) : std::nullopt;
    state.completed_at = StringMemberOrEmpty(d, "completedAt");
    state.updated_at = *state.completed_at;
    if (state.signed_pdf_sha256) {
      state.artifact_revisions.push_back(
          ArtifactRevision{IntegerMember(d, "revision").value_or(state.LatestRevision() + 1),
                           "signed_pdf", *state.signed_pdf_sha256, *state.completed_at});
    }
  } else if (type == event_type::kSignerDeclined) {
    if (Participant* p = state.FindParticipant(StringMemberOrEmpty(d, "participantId"))) {
      p->declined_at = StringMemberOrEmpty(d, "declinedAt");
      p->decline_reason = StringMemberOrEmpty(d, "reason");
    }
    EndSession(state, StringMemberOrEmpty(d, "sessionId"), SessionState::kDeclined,
               StringMemberOrEmpty(d, "declinedAt"));
    state.updated_at = StringMemberOrEmpty(d, "declinedAt");
  } else if (type == event_type::kContractDeclined) {
    state.status = ContractStatus::kDeclined;
    state.declined_at = StringMemberOrEmpty(d, "declinedAt");
    state.updated_at = *state.declined_at;
  } else if (type == event_type::kContractVoided) {
    state.status = ContractStatus::kVoided;
    state.voided_at = StringMemberOrEmpty(d, "voidedAt");
    state.void_reason = StringMemberOrEmpty(d, "reason");
    state.voided_by = StringMemberOrEmpty(d, "voidedBy");
    state.updated_at = *state.voided_at;
  } else if (type == event_type::kContractExpired) {
    state.status = ContractStatus::kExpired;
    state.expired_at = StringMemberOrEmpty(d, "expiredAt");
    state.updated_at = *state.expired_at;
  } else if (type == event_type::kParticipantReminded) {
    ApplyReminded(state, d);  // a reminder changes nothing of the contract: updatedAt stays
  } else if (type == event_type::kSessionCreated) {
    state.sessions.push_back(SessionFromCreated(d));
  } else if (type == event_type::kSessionCancelled) {
    if (SigningSession* session = state.FindSession(StringMemberOrEmpty(d, "sessionId"))) {
      session->cancel_reason = StringMemberOrEmpty(d, "reason");
    }
    EndSession(state, StringMemberOrEmpty(d, "sessionId"), SessionState::kCancelled,
               StringMemberOrEmpty(d, "cancelledAt"));
  } else if (type == event_type::kSessionRefreshed) {
    if (SigningSession* session = state.FindSession(StringMemberOrEmpty(d, "sessionId"))) {
      session->token_sha256 = StringMemberOrEmpty(d, "tokenSha256");
      session->expires_at = StringMemberOrEmpty(d, "expiresAt");
      session->updated_at = StringMemberOrEmpty(d, "refreshedAt");
    }
  } else if (type == event_type::kSignerCodeSent || type == event_type::kSignerAuthenticated ||
             type == event_type::kSignerAttemptFailed ||
             type == event_type::kSignerAuthenticationFailed) {
    ApplySignerAuthentication(state, type, d);  // the contract itself does not change
  } else if (type == event_type::kEvidencePersisted) {
    state.artifact_revisions.push_back(
        ArtifactRevision{IntegerMember(d, "revision").value_or(0), "evidence_bundle",
                         StringMemberOrEmpty(d, "sha256"), StringMemberOrEmpty(d, "persistedAt")});
    state.updated_at = StringMemberOrEmpty(d, "persistedAt");
  }
  // Every event counts, known or not, so version equals the stream version of the contract.
  ++state.version;
  RecomputeProgress(state);
  return state;
}

}  // namespace esign
