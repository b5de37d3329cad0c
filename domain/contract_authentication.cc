// Signer authentication on the hosted page (DESIGN section 15): the e-mail codes a session may
// send and the tries it may take, counted in the contract's stream so that every instance of
// the service counts the same, and the lock that the fifth failure sets.
#include "base/time_text.h"
#include "domain/contract_rules.h"
#include "domain/signer_authentication.h"

namespace esign::contract_rules {
namespace {

struct Authenticating {
  const SigningSession* session;
  const Participant* signer;
};

// The open, unlocked session of a signer who has a method to prove.
Result<Authenticating> AuthenticatingSession(const ContractState& state,
                                             std::string_view session_id,
                                             std::string_view link_sha256,
                                             const DecisionContext& context) {
  const SigningSession* session = state.FindSession(session_id);
  if (session == nullptr) {
    return Fail(ErrorCode::kSigningSessionNotFound, "signing session not found", "sessionId",
                "unknown session");
  }
  if (session->locked) {
    return Fail(ErrorCode::kSigningSessionLocked,
                "this signing link is locked after too many wrong codes; ask the sender for a "
                "new link",
                "token", "locked");
  }
  if (auto ok =
          RequireOpenSession(state, session_id, session->participant_id, context.now, link_sha256);
      !ok) {
    return Fail(ok.error());
  }
  const Participant* signer = state.FindParticipant(session->participant_id);
  if (signer == nullptr || signer->authentication == SignerAuthentication::kNone) {
    return Fail(ErrorCode::kSigningSessionStateConflict, "this signer has no code to give",
                "authentication", "none");
  }
  return Authenticating{session, signer};
}

boost::json::object AuthenticationData(const ContractState& state, const Authenticating& a) {
  return {{"contractId", state.id},
          {"sessionId", a.session->session_id},
          {"participantId", a.signer->participant_id},
          {"method", ToString(a.signer->authentication)}};
}

}  // namespace

Result<std::vector<DomainEvent>> DecideSendSignerCode(const ContractState& state,
                                                      const SendSignerCode& c,
                                                      const DecisionContext& context) {
  auto found = AuthenticatingSession(state, c.session_id, c.link_sha256, context);
  if (!found) return Fail(found.error());
  const SigningSession& session = *found->session;
  if (found->signer->authentication != SignerAuthentication::kEmailOtp) {
    return Fail(ErrorCode::kSigningSessionStateConflict, "this signer is not sent codes by e-mail",
                "authentication", std::string(ToString(found->signer->authentication)));
  }
  if (session.codes_sent >= kMaxEmailCodesPerSession) {
    return Fail(ErrorCode::kSignerCodeLimitReached,
                "this link has sent its " + std::to_string(kMaxEmailCodesPerSession) +
                    " codes; ask the sender for a new link",
                "codeNumber", std::to_string(session.codes_sent));
  }
  if (session.codes_sent > 0) {
    const auto last = ParseFormattedTimestamp(session.last_code_sent_at);
    const auto now = ParseFormattedTimestamp(context.now);
    const int64_t wait = kEmailCodeIntervalSeconds * kMicrosPerSecond;
    if (last && now && *now - *last < wait) {
      const int64_t seconds = (*last + wait - *now + kMicrosPerSecond - 1) / kMicrosPerSecond;
      return Fail(
          ErrorCode::kSignerCodeTooSoon,
          "a code was sent less than " + std::to_string(kEmailCodeIntervalSeconds) + " seconds ago",
          "retryAfterSeconds", std::to_string(seconds));
    }
  }
  if (c.expires_at <= context.now) return Fail(ErrorCode::kInternal, "a code must expire later");
  boost::json::object data = AuthenticationData(state, *found);
  data.erase("method");
  data["codeNumber"] = session.codes_sent + 1;
  data["expiresAt"] = c.expires_at;
  data["sentAt"] = context.now;
  return std::vector<DomainEvent>{
      DomainEvent{std::string(event_type::kSignerCodeSent), std::move(data)}};
}

Result<std::vector<DomainEvent>> DecideSignerAuthentication(const ContractState& state,
                                                            const RecordSignerAuthentication& c,
                                                            const DecisionContext& context) {
  auto found = AuthenticatingSession(state, c.session_id, c.link_sha256, context);
  if (!found) return Fail(found.error());
  const SigningSession& session = *found->session;
  boost::json::object data = AuthenticationData(state, *found);
  if (c.check == SignerCodeCheck::kSpent) return std::unexpected(SpentCodeError());
  if (c.check == SignerCodeCheck::kMatched &&
      found->signer->authentication == SignerAuthentication::kEmailOtp &&
      (c.code_number != session.codes_sent || session.code_spent == session.codes_sent)) {
    // Checked against the session as it was read: meanwhile the code proved it once already (a
    // request at the same time), or a newer code replaced it.
    return std::unexpected(SpentCodeError());
  }
  if (c.check == SignerCodeCheck::kMatched) {
    const int n = static_cast<int>(session.authenticated_at.size()) + 1;
    if (n > kMaxSignerAuthentications) {
      return Fail(ErrorCode::kSignerCodeLimitReached,
                  "this link was proven " + std::to_string(kMaxSignerAuthentications) +
                      " times; ask the sender for a new link",
                  "authenticationNumber", std::to_string(n - 1));
    }
    data["authenticationNumber"] = n;
    data["authenticatedAt"] = context.now;
    return std::vector<DomainEvent>{
        DomainEvent{std::string(event_type::kSignerAuthenticated), std::move(data)}};
  }
  const int failed = session.failed_attempts + 1;
  data["failedAttempts"] = failed;
  data["failedAt"] = context.now;
  boost::json::object attempt = data;
  attempt["issue"] = c.check == SignerCodeCheck::kExpired ? "expired" : "wrong";
  std::vector<DomainEvent> events{
      DomainEvent{std::string(event_type::kSignerAttemptFailed), std::move(attempt)}};
  if (failed >= kMaxSignerCodeFailures) {
    events.push_back(
        DomainEvent{std::string(event_type::kSignerAuthenticationFailed), std::move(data)});
  }
  return events;
}

}  // namespace esign::contract_rules
