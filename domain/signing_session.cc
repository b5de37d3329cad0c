#include "domain/signing_session.h"

#include "base/time_text.h"
#include "domain/contract_state.h"
#include "domain/text_formats.h"

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

Status RequireSignedWhileOpen(const ContractState& state, std::string_view session_id,
                              std::string_view signed_at, std::string_view now) {
  auto bad = [](std::string issue) {
    return Fail(ErrorCode::kValidationFailed, "invalid signature record", "signedAt",
                std::move(issue));
  };
  const std::optional<int64_t> when = ParseTimestampMicros(signed_at);
  if (!when || !IsTimestamp(signed_at)) return bad("must be an RFC 3339 timestamp");
  const std::optional<int64_t> now_micros = ParseTimestampMicros(now);
  if (now_micros && *when > *now_micros + kMaxSignedAtSkewMicros) {
    return bad("is in the future (more than 5 minutes after the service's time " +
               std::string(now) + ")");
  }
  const SigningSession* session = session_id.empty() ? nullptr : state.FindSession(session_id);
  const std::string opened = session != nullptr ? session->created_at : state.sent_at.value_or("");
  const std::optional<int64_t> opened_micros = ParseTimestampMicros(opened);
  // Whole seconds: an integrator that reports to the second may name the second the session began.
  if (opened_micros && *when < *opened_micros / kMicrosPerSecond * kMicrosPerSecond) {
    return bad(std::string("is before the ") +
               (session != nullptr ? "signing session was created (" : "contract was sent (") +
               opened + ")");
  }
  return {};
}

}  // namespace esign
