// The signing flow after sending: signatures in routing order (equal orders in parallel, a
// higher order waits for every lower one), declines, completion once every bound signer has
// signed (view and receive_copy participants never block it), and evidence revisions.
#include <algorithm>
#include <limits>

#include "domain/contract_rules.h"
#include "domain/field_value.h"
#include "domain/placed_field_rules.h"
#include "domain/signing_settings.h"
#include "domain/text_formats.h"

namespace esign::contract_rules {
namespace {

constexpr int64_t kMaxReasonLength = 2000;

// `session_id`: the session the signer acts through, if any; its link died with a voided or
// expired contract.
Status RequireSigningFlow(const ContractState& state, std::string_view session_id) {
  if (!state.exists()) return ContractNotFound();
  if (state.in_signing_flow()) return {};
  if (!session_id.empty()) {
    if (auto ok = RequireNotWithdrawn(state, "sessionId"); !ok) return ok;
  }
  return Fail(ErrorCode::kContractStateConflict,
              "the contract is " + std::string(ToString(state.status)) + ", not out for signing",
              "status", std::string(ToString(state.status)));
}

// The signer who may act now, or the error that says why not.
Result<const Participant*> PendingSigner(const ContractState& state,
                                         const std::string& participant_id) {
  const Participant* p = state.FindParticipant(participant_id);
  if (p == nullptr) {
    return Fail(ErrorCode::kParticipantNotFound, "participant " + participant_id + " not found",
                "participantId", "unknown participant");
  }
  if (!p->signs()) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + participant_id + " does not sign (action " +
                    std::string(ToString(p->action)) + ")",
                "participantId", "not a signer");
  }
  if (p->progress == ParticipantProgress::kSigned) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + participant_id + " has already signed", "participantId",
                "already signed");
  }
  return p;
}

// The signers whose turn it is once `except` is done (if given).
boost::json::array ReadyAfter(const ContractState& state, std::string_view except) {
  int64_t turn = std::numeric_limits<int64_t>::max();
  for (const auto& p : state.participants) {
    if (p.signs() && p.progress != ParticipantProgress::kSigned && p.participant_id != except) {
      turn = std::min(turn, p.effective_routing_order.value_or(1));
    }
  }
  boost::json::array ready;
  for (const auto& p : state.participants) {
    if (p.signs() && p.progress != ParticipantProgress::kSigned && p.participant_id != except &&
        p.effective_routing_order.value_or(1) == turn) {
      ready.emplace_back(p.participant_id);
    }
  }
  return ready;
}

std::string RoleOf(const ContractState& state, std::string_view participant_id) {
  const RoleBinding* binding = state.BindingOf(participant_id);
  return binding ? binding->template_role_id : "";
}

}  // namespace

Result<std::vector<DomainEvent>> DecideSignerAttachment(const ContractState& state,
                                                        const RecordSignerAttachment& c,
                                                        const DecisionContext& context) {
  if (auto ok = RequireSigningFlow(state, c.session_id); !ok) return Fail(ok.error());
  const SigningSession* session = state.FindSession(c.session_id);
  if (session == nullptr) {
    return Fail(ErrorCode::kSigningSessionNotFound,
                "signing session " + c.session_id + " not found");
  }
  auto signer = PendingSigner(state, session->participant_id);
  if (!signer) return Fail(signer.error());
  if (auto open = RequireOpenSession(state, c.session_id, session->participant_id, context.now,
                                     c.link_sha256);
      !open) {
    return Fail(open.error());
  }
  const bool has_field = std::any_of(state.fields.begin(), state.fields.end(), [&](const auto& f) {
    return f.participant_id == session->participant_id && f.filled_by_signer() &&
           f.rules->type == SignerInputType::kAttachment;
  });
  if (!has_field) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + session->participant_id + " has no attachment field", "fields",
                "no attachment field for this signer");
  }
  for (const SignerAttachment& uploaded : session->attachments) {
    if (uploaded.sha256 == c.attachment.sha256) return std::vector<DomainEvent>{};
  }
  if (session->attachments.size() >= kMaxAttachmentsPerSession) {
    return Fail(
        ErrorCode::kContractStateConflict,
        "a signing session takes at most " + std::to_string(kMaxAttachmentsPerSession) + " files",
        "attachments", std::to_string(session->attachments.size()) + " uploaded");
  }
  boost::json::object data = SignerAttachmentToJson(c.attachment);
  data["contractId"] = state.id;
  data["sessionId"] = session->session_id;
  data["participantId"] = session->participant_id;
  data["uploadedAt"] = context.now;
  return std::vector<DomainEvent>{
      DomainEvent{std::string(event_type::kSignerAttachmentUploaded), std::move(data)}};
}

Result<std::vector<DomainEvent>> DecideSignerCompleted(const ContractState& state,
                                                       const RecordSignerCompleted& c,
                                                       const DecisionContext& context) {
  if (auto ok = RequireSigningFlow(state, c.session_id); !ok) return Fail(ok.error());
  auto signer = PendingSigner(state, c.participant_id);
  if (!signer) return Fail(signer.error());
  if ((*signer)->progress != ParticipantProgress::kReady) {
    return Fail(ErrorCode::kSigningOutOfTurn,
                "it is not the turn of participant " + c.participant_id +
                    ": signers with a lower routing order have not all signed",
                "participantId", "waiting for earlier signers");
  }
  if (!c.session_id.empty()) {
    if (auto open =
            RequireOpenSession(state, c.session_id, c.participant_id, context.now, c.link_sha256);
        !open) {
      return Fail(open.error());
    }
  }
  std::string signed_at = c.signed_at.empty() ? context.now : c.signed_at;
  if (auto ok = RequireSignedWhileOpen(state, c.session_id, signed_at, context.now); !ok) {
    return Fail(ok.error());
  }
  const SigningSession* session = c.session_id.empty() ? nullptr : state.FindSession(c.session_id);
  auto values =
      SignerValuesOf(state, c.participant_id, c.field_values,
                     session != nullptr ? session->attachments : std::vector<SignerAttachment>{});
  if (!values) return Fail(values.error());
  size_t remaining = state.UnsignedSignerCount() - 1;
  std::vector<DomainEvent> events{
      DomainEvent{std::string(event_type::kSignerCompleted),
                  {{"contractId", state.id},
                   {"participantId", c.participant_id},
                   {"templateRoleId", RoleOf(state, c.participant_id)},
                   {"signedAt", signed_at},
                   {"evidence", c.evidence},
                   {"remainingSigners", remaining},
                   {"readyParticipantIds", ReadyAfter(state, c.participant_id)},
                   {"recordedAt", context.now}}}};
  if (!c.session_id.empty()) events.front().data["sessionId"] = c.session_id;
  if (!values->empty()) {
    // The ids alone travel with the event to webhooks and Kafka (webhooks/event_message.h).
    boost::json::array filled;
    for (const auto& value : *values) filled.push_back(value.as_object().at("fieldId"));
    events.front().data["filledFields"] = std::move(filled);
    events.front().data["fieldValues"] = std::move(*values);
  }
  // The first signature of several moves the contract to signing (specification section 3).
  if (state.status == ContractStatus::kSent && remaining > 0) {
    events.push_back(DomainEvent{std::string(event_type::kSigningInProgress),
                                 {{"contractId", state.id}, {"at", context.now}}});
  }
  return events;
}

Result<std::vector<DomainEvent>> DecideSignerDeclined(const ContractState& state,
                                                      const RecordSignerDeclined& c,
                                                      const DecisionContext& context) {
  if (auto ok = RequireSigningFlow(state, c.session_id); !ok) return Fail(ok.error());
  auto signer = PendingSigner(state, c.participant_id);
  if (!signer) return Fail(signer.error());
  if (!c.session_id.empty()) {
    if (auto open =
            RequireOpenSession(state, c.session_id, c.participant_id, context.now, c.link_sha256);
        !open) {
      return Fail(open.error());
    }
  }
  if (!AllowsDecline(state.signing_settings)) {
    return Fail(ErrorCode::kContractStateConflict,
                "declining is disabled by the contract's signing settings",
                "signingSettings.allowDecline", "false");
  }
  if (CountCharacters(c.reason) > kMaxReasonLength) {
    return Fail(ErrorCode::kValidationFailed, "invalid decline", "reason",
                "at most " + std::to_string(kMaxReasonLength) + " characters");
  }
  std::vector<DomainEvent> events{DomainEvent{std::string(event_type::kSignerDeclined),
                                              {{"contractId", state.id},
                                               {"participantId", c.participant_id},
                                               {"templateRoleId", RoleOf(state, c.participant_id)},
                                               {"reason", c.reason},
                                               {"declinedAt", context.now}}},
                                  DomainEvent{std::string(event_type::kContractDeclined),
                                              {{"contractId", state.id},
                                               {"participantId", c.participant_id},
                                               {"reason", c.reason},
                                               {"declinedAt", context.now}}}};
  if (!c.session_id.empty()) events.front().data["sessionId"] = c.session_id;
  return events;
}

Result<std::vector<DomainEvent>> DecideComplete(const ContractState& state,
                                                const CompleteContract& c,
                                                const DecisionContext& context) {
  if (auto ok = RequireSigningFlow(state, ""); !ok) return Fail(ok.error());
  if (size_t unsigned_count = state.UnsignedSignerCount(); unsigned_count > 0) {
    return Fail(ErrorCode::kContractStateConflict,
                std::to_string(unsigned_count) + " signer(s) have not signed yet", "status",
                std::string(ToString(state.status)));
  }
  if (c.signed_pdf_key.empty()) {
    return Fail(ErrorCode::kValidationFailed, "invalid completion", "signedPdfKey", "required");
  }
  boost::json::object data{{"contractId", state.id}, {"signedPdfKey", c.signed_pdf_key}};
  if (!c.signed_pdf_sha256.empty()) {
    if (!IsSha256Hex(c.signed_pdf_sha256)) {
      return Fail(ErrorCode::kValidationFailed, "invalid completion", "signedPdfSha256",
                  "must be 64 lowercase hexadecimal digits");
    }
    data["signedPdfSha256"] = c.signed_pdf_sha256;
    data["revision"] = state.LatestRevision() + 1;
  }
  if (!c.signed_content_sha256.empty()) {
    if (!IsSha256Hex(c.signed_content_sha256)) {
      return Fail(ErrorCode::kValidationFailed, "invalid completion", "signedContentSha256",
                  "must be 64 lowercase hexadecimal digits");
    }
    data["signedContentSha256"] = c.signed_content_sha256;
  }
  data["completedAt"] = context.now;
  return std::vector<DomainEvent>{
      DomainEvent{std::string(event_type::kContractCompleted), std::move(data)}};
}

Result<std::vector<DomainEvent>> DecidePersistEvidence(const ContractState& state,
                                                       const PersistEvidence& c,
                                                       const DecisionContext& context) {
  if (auto ok = RequireControl(state, context.actor); !ok) return Fail(ok.error());
  if (auto ok = RequirePermission(context.actor, "evidence:write"); !ok) return Fail(ok.error());
  if (state.status == ContractStatus::kDraft) {
    return Fail(ErrorCode::kContractStateConflict, "a draft has no evidence to persist", "status",
                "draft");
  }
  const auto bundles = std::ranges::count_if(
      state.artifact_revisions, [](const auto& r) { return r.kind == "evidence_bundle"; });
  if (static_cast<size_t>(bundles) >= kMaxEvidenceBundlesPerContract) {
    return Fail(ErrorCode::kContractStateConflict,
                "a contract keeps at most " + std::to_string(kMaxEvidenceBundlesPerContract) +
                    " evidence bundles; fetch the current one with GET instead",
                "revision", "limit reached");
  }
  const int64_t revision = c.revision == 0 ? state.LatestRevision() + 1 : c.revision;
  if (revision <= state.LatestRevision()) {
    return Fail(ErrorCode::kContractStateConflict, "revision already exists", "revision",
                "must be greater than " + std::to_string(state.LatestRevision()));
  }
  // Decided before the bundle is stored: the event then names no bundle yet (the handler stores
  // it and decides again), and is never appended so.
  const std::string sha256 =
      c.sha256.empty() ? context.stored_evidence_sha256.value_or("") : c.sha256;
  if (!sha256.empty() && !IsSha256Hex(sha256)) {
    return Fail(ErrorCode::kValidationFailed, "invalid evidence record", "sha256",
                "must be 64 lowercase hexadecimal digits");
  }
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kEvidencePersisted),
                                              {{"contractId", state.id},
                                               {"revision", revision},
                                               {"sha256", sha256},
                                               {"persistedAt", context.now}}}};
}

}  // namespace esign::contract_rules
