// Apply: folds one event into the state. Reads only the event's data, never a template or the
// clock, so replaying the log rebuilds exactly the state the live service had.
#include <algorithm>
#include <limits>

#include "base/time_text.h"
#include "domain/contract.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/signing_settings.h"

namespace esign {
namespace {

std::vector<Participant> Participants(const std::vector<ParticipantRecord>& records) {
  std::vector<Participant> out;
  out.reserve(records.size());
  for (const auto& record : records) out.push_back(ParticipantFromRecord(record));
  return out;
}

std::vector<RoleBinding> RoleBindings(const std::vector<RoleBindingRecord>& records) {
  std::vector<RoleBinding> out;
  out.reserve(records.size());
  for (const auto& record : records) {
    out.push_back(RoleBinding{record.template_role_id, record.participant_id});
  }
  return out;
}

boost::json::object DataValues(const std::vector<DataValueRecord>& records) {
  boost::json::object out;
  for (const auto& record : records) out[record.key] = record.value;
  return out;
}

// The signers named by readyParticipantIds (of contract.sent and signer.completed): their turn
// came at `at`.
void MarkReady(ContractState& state, const std::vector<std::string>& ready, const std::string& at) {
  for (const auto& id : ready) {
    if (Participant* p = state.FindParticipant(id); p != nullptr && !p->ready_since) {
      p->ready_since = at;
    }
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

// One On per event type of the contract stream (ContractEventData).

void On(ContractState& state, const ContractCreatedData& d) {
  state.id = d.contract_id;
  state.status = ContractStatus::kDraft;
  state.title = d.title;
  state.template_id = d.template_id.value_or("");
  state.template_version_id = d.template_version_id.value_or("");
  for (const auto& document : d.documents.value_or(std::vector<boost::json::object>{})) {
    state.documents.push_back(ContractDocumentFromJson(document));
  }
  for (const auto& field : d.fields.value_or(std::vector<boost::json::object>{})) {
    state.fields.push_back(PlacedFieldFromJson(field));
  }
  state.organization_signing_mode = d.organization_signing_mode == "manual"
                                        ? OrganizationSigningMode::kManual
                                        : OrganizationSigningMode::kAutomatic;
  state.organization_id = d.organization_id;
  state.created_by = d.created_by;
  state.bulk_send_id = d.bulk_send_id.value_or("");
  state.data.field_values = DataValues(d.field_values);
  state.data.table_data = d.table_data;
  state.data_form = d.data_form == kSectionsDataForm ? DataForm::kSections : DataForm::kDirect;
  state.participants = Participants(d.participants);
  state.role_bindings = RoleBindings(d.role_bindings);
  state.signing_settings = d.signing_settings;
  state.notifications = d.notifications;
  state.created_at = d.created_at;
  state.updated_at = state.created_at;
}

void On(ContractState& state, const DataUpdatedData& d) {
  state.data.field_values = DataValues(d.field_values);
  if (d.table_data) state.data.table_data = *d.table_data;
  state.updated_at = d.updated_at;
}

void On(ContractState& state, const TableDataUpdatedData& d) {
  state.data.table_data = d.table_data;
  state.updated_at = d.updated_at;
}

void On(ContractState& state, const ParticipantsReplacedData& d) {
  state.participants = Participants(d.participants);
  state.role_bindings = RoleBindings(d.role_bindings);
  state.updated_at = d.updated_at;
}

void On(ContractState& state, const RoleBindingsUpdatedData& d) {
  state.role_bindings = RoleBindings(d.role_bindings);
  state.signing_settings = d.signing_settings;
  state.updated_at = d.updated_at;
}

void On(ContractState& state, const ContractPreparedData& d) {
  state.role_bindings = RoleBindings(d.role_bindings);
  state.signing_settings = d.signing_settings;
  state.notifications = d.notifications;
  state.notification_snapshot = d.notification_snapshot;
  state.prepared_roles.clear();
  state.prepared_roles.reserve(d.roles.size());
  for (const auto& record : d.roles) {
    PreparedRole role;
    role.template_role_id = record.template_role_id;
    role.participant_id = record.participant_id;
    role.action = ParseParticipantAction(record.action).value_or(ParticipantAction::kSign);
    role.recipient_type =
        ParseRecipientType(record.recipient_type).value_or(RecipientType::kIndividual);
    role.routing_order = record.routing_order;
    role.signature_placement = record.signature_placement;
    state.prepared_roles.push_back(std::move(role));
  }
  for (const auto& routing : d.routing) {
    if (Participant* p = state.FindParticipant(routing.participant_id)) {
      p->effective_routing_order = routing.routing_order;
    }
  }
  state.dropped_roles = d.dropped_roles;
  state.rendered_document_sha256 = d.rendered_document_sha256;
  state.organization_name = d.organization_name.value_or("");
  state.prepared_at = d.prepared_at;
  state.updated_at = d.prepared_at;
}

void On(ContractState& state, const ContractSentData& d) {
  state.status = ContractStatus::kSent;
  state.sent_at = d.sent_at;
  state.updated_at = d.sent_at;
  if (d.expires_at) {
    state.expires_at = *d.expires_at;
  } else if (const auto micros = ExpiryMicros(state.signing_settings, d.sent_at)) {
    state.expires_at = FormatTimestamp(*micros);  // sent before contract.sent recorded it
  }
  MarkReady(state, d.ready_participant_ids, d.sent_at);
}

void On(ContractState& state, const SignerCompletedData& d) {
  if (Participant* p = state.FindParticipant(d.participant_id)) {
    p->signed_at = d.signed_at;
    p->signing_evidence = d.evidence;
  }
  for (const auto& value : d.field_values.value_or(std::vector<SignerValueRecord>{})) {
    for (PlacedField& field : state.fields) {
      if (field.field_id == value.field_id) field.value = value.value;
    }
  }
  EndSession(state, d.session_id.value_or(""), SessionState::kCompleted, d.recorded_at);
  // signedAt may come from the signer's side; recordedAt is the service's own time.
  state.updated_at = d.recorded_at;
  MarkReady(state, d.ready_participant_ids, d.recorded_at);
}

void On(ContractState& state, const SigningInProgressData& d) {
  state.status = ContractStatus::kSigning;
  state.updated_at = d.at;
}

void On(ContractState& state, const ContractCompletedData& d) {
  state.status = ContractStatus::kCompleted;
  state.signed_pdf_key = d.signed_pdf_key;
  state.signed_pdf_sha256 = d.signed_pdf_sha256;
  // Absent in contracts completed before the completion certificate existed.
  state.signed_content_sha256 = d.signed_content_sha256;
  state.completed_at = d.completed_at;
  state.updated_at = d.completed_at;
  if (d.signed_pdf_sha256) {
    state.artifact_revisions.push_back(
        ArtifactRevision{d.revision.value_or(state.LatestRevision() + 1), "signed_pdf",
                         *d.signed_pdf_sha256, d.completed_at});
  }
}

void On(ContractState& state, const SignerDeclinedData& d) {
  if (Participant* p = state.FindParticipant(d.participant_id)) {
    p->declined_at = d.declined_at;
    p->decline_reason = d.reason;
  }
  EndSession(state, d.session_id.value_or(""), SessionState::kDeclined, d.declined_at);
  state.updated_at = d.declined_at;
}

void On(ContractState& state, const ContractDeclinedData& d) {
  state.status = ContractStatus::kDeclined;
  state.declined_at = d.declined_at;
  state.updated_at = d.declined_at;
}

void On(ContractState& state, const EvidencePersistedData& d) {
  state.artifact_revisions.push_back(
      ArtifactRevision{d.revision, "evidence_bundle", d.sha256, d.persisted_at});
  state.updated_at = d.persisted_at;
}

void On(ContractState& state, const ContractVoidedData& d) {
  state.status = ContractStatus::kVoided;
  state.voided_at = d.voided_at;
  state.void_reason = d.reason;
  state.voided_by = d.voided_by;
  state.updated_at = d.voided_at;
}

void On(ContractState& state, const ContractExpiredData& d) {
  state.status = ContractStatus::kExpired;
  state.expired_at = d.expired_at;
  state.updated_at = d.expired_at;
}

// A reminder changes nothing of the contract: updatedAt stays.
void On(ContractState& state, const ParticipantRemindedData& d) {
  Participant* p = state.FindParticipant(d.participant_id);
  if (p == nullptr) return;
  ++p->reminder_count;
  if (d.trigger == "scheduled") ++p->scheduled_reminder_count;
  p->last_reminded_at = d.reminded_at;
}

void On(ContractState& state, const SessionCreatedData& d) {
  SigningSession session;
  session.session_id = d.session_id;
  session.participant_id = d.participant_id;
  session.channel = ParseExecutionChannel(d.channel).value_or(ExecutionChannel::kPlatformHosted);
  session.token_sha256 = d.token_sha256.value_or("");
  session.expires_at = d.expires_at;
  session.return_url = d.return_url.value_or("");
  session.provider_id = d.provider_id.value_or("");
  session.document_sha256 = d.document_sha256;
  session.automatic = d.automatic;
  session.created_at = d.created_at;
  session.updated_at = d.created_at;
  state.sessions.push_back(std::move(session));
}

void On(ContractState& state, const SessionCancelledData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->cancel_reason = d.reason;
  }
  EndSession(state, d.session_id, SessionState::kCancelled, d.cancelled_at);
}

void On(ContractState& state, const SessionRefreshedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->token_sha256 = d.token_sha256.value_or("");
    session->expires_at = d.expires_at;
    session->updated_at = d.refreshed_at;
  }
}

void On(ContractState& state, const SessionEmbedUrlIssuedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->embed_token_sha256 = d.embed_token_sha256;
    session->embed_expires_at = d.expires_at;
    session->updated_at = d.issued_at;
  }
}

void On(ContractState& state, const SessionEmbedOpenedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->embed_token_sha256.clear();
    session->embed_expires_at.clear();
    session->page_token_sha256 = d.page_token_sha256;
    session->updated_at = d.opened_at;
  }
}

// The signer's proofs change the session, not the contract.

void On(ContractState& state, const SignerCodeSentData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->codes_sent = static_cast<int>(d.code_number);
    session->last_code_sent_at = d.sent_at;
    session->code_expires_at = d.expires_at;
  }
}

void On(ContractState& state, const SignerAuthenticatedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->authenticated_at.push_back(d.authenticated_at);
    // The latest code did it, and a code proves once (logs from before this rule included).
    if (d.method == "email_otp") session->code_spent = session->codes_sent;
  }
}

void On(ContractState& state, const SignerAttemptFailedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->failed_attempts = static_cast<int>(d.failed_attempts);
  }
}

void On(ContractState& state, const SignerAuthenticationFailedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->failed_attempts = static_cast<int>(d.failed_attempts);
    session->locked = true;
  }
}

void On(ContractState& state, const SignerAttachmentUploadedData& d) {
  if (SigningSession* session = state.FindSession(d.session_id)) {
    session->attachments.push_back(
        SignerAttachment{d.sha256, d.name.value_or(""), d.media_type, d.size});
  }
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
  // An event of another type, or one whose data does not read (the log holds only what the
  // writers accepted), changes nothing but the version.
  event_codec::Visit<ContractEventData>(event.type, event.data,
                                        [&](const auto& data) { On(state, data); });
  // Every event counts, known or not, so version equals the stream version of the contract.
  ++state.version;
  RecomputeProgress(state);
  return state;
}

}  // namespace esign
