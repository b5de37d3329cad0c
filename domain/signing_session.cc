#include "domain/signing_session.h"

#include "domain/contract_state.h"

namespace esign {

std::string_view ToString(SessionState state) {
  switch (state) {
    case SessionState::kOpen:
      return "open";
    case SessionState::kCompleted:
      return "completed";
    case SessionState::kDeclined:
      return "declined";
    case SessionState::kCancelled:
      return "cancelled";
    case SessionState::kExpired:
      return "expired";
  }
  return "open";
}

SessionState EffectiveState(const SigningSession& session, const ContractState& contract,
                            std::string_view now) {
  if (session.state != SessionState::kOpen) return session.state;
  if (!contract.in_signing_flow()) return SessionState::kCancelled;
  if (session.expires_at <= now) return SessionState::kExpired;
  return SessionState::kOpen;
}

Status RequireNotWithdrawn(const ContractState& contract, std::string_view field) {
  if (contract.status == ContractStatus::kVoided) {
    return Fail(ErrorCode::kSigningSessionGone, "this contract was voided by its sender",
                std::string(field), "voided");
  }
  if (contract.status == ContractStatus::kExpired) {
    return Fail(ErrorCode::kSigningSessionGone,
                "this contract expired at " + contract.expired_at.value_or(""), std::string(field),
                "expired");
  }
  return {};
}

boost::json::object SigningSessionToJson(const SigningSession& session,
                                         const ContractState& contract, std::string_view now) {
  const SessionState state = EffectiveState(session, contract, now);
  boost::json::object out{{"sessionId", session.session_id},
                          {"contractId", contract.id},
                          {"participantId", session.participant_id},
                          {"channel", ToString(session.channel)},
                          {"state", ToString(state)},
                          {"expiresAt", session.expires_at},
                          {"documentSha256", session.document_sha256},
                          {"automatic", session.automatic},
                          {"createdAt", session.created_at},
                          {"updatedAt", session.updated_at}};
  if (!session.ended_at.empty()) out["endedAt"] = session.ended_at;
  if (state == SessionState::kCancelled) {
    out["cancelReason"] = session.cancel_reason.empty()
                              ? "contract_" + std::string(ToString(contract.status))
                              : session.cancel_reason;
  }
  if (!session.provider_id.empty()) out["providerId"] = session.provider_id;
  if (!session.return_url.empty()) out["returnUrl"] = session.return_url;
  return out;
}

}  // namespace esign
