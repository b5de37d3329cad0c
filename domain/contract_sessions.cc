// Signing sessions (DESIGN section 9): created only for a signer whose routing turn has come,
// one open session per participant (a new one supersedes the old), cancelled and refreshed by
// the controller's integrator with signing:manage.
#include "domain/contract_rules.h"
#include "domain/text_formats.h"

namespace esign::contract_rules {
namespace {

constexpr size_t kMaxReturnUrlLength = 2048;

Status RequireIntegrator(const ContractState& state, const DecisionContext& context) {
  if (auto ok = RequireControl(state, context.actor); !ok) return ok;
  return RequirePermission(context.actor, "signing:manage");
}

Status RequireOutForSigning(const ContractState& state) {
  if (state.in_signing_flow()) return {};
  return Fail(ErrorCode::kContractStateConflict,
              "the contract is " + std::string(ToString(state.status)) + ", not out for signing",
              "status", std::string(ToString(state.status)));
}

bool IsHttpUrl(std::string_view url) {
  if (!url.starts_with("https://") && !url.starts_with("http://")) return false;
  for (char ch : url) {
    if (static_cast<unsigned char>(ch) <= 0x20 || ch == 0x7f) return false;
  }
  return url.size() <= kMaxReturnUrlLength && url.find("://") + 3 < url.size();
}

Status RequireExpiryAfterNow(std::string_view expires_at, const DecisionContext& context) {
  if (IsTimestamp(expires_at) && expires_at > context.now) return {};
  return Fail(ErrorCode::kValidationFailed, "invalid session expiry", "ttlSeconds",
              "the session must expire in the future");
}

Result<const SigningSession*> FindFor(const ContractState& state, std::string_view session_id) {
  const SigningSession* session = state.FindSession(session_id);
  if (session == nullptr) {
    return Fail(ErrorCode::kSigningSessionNotFound,
                "signing session " + std::string(session_id) + " not found", "sessionId",
                "unknown session");
  }
  return session;
}

Status StateError(const SigningSession& session, SessionState state) {
  const std::string name(ToString(state));
  switch (state) {
    case SessionState::kOpen:
      return {};
    case SessionState::kExpired:
      return Fail(ErrorCode::kSigningSessionExpired,
                  "signing session " + session.session_id + " expired at " + session.expires_at,
                  "sessionId", name);
    case SessionState::kCancelled:
      return Fail(ErrorCode::kSigningSessionCancelled,
                  "signing session " + session.session_id + " was cancelled", "sessionId", name);
    case SessionState::kCompleted:
    case SessionState::kDeclined:
      return Fail(ErrorCode::kSigningSessionStateConflict,
                  "signing session " + session.session_id + " is already " + name, "sessionId",
                  name);
  }
  return {};
}

// A session the integrator may cancel or refresh: open, or expired (refreshing is what an expired
// session is for); an ended one may not.
Result<const SigningSession*> ManagedSession(const ContractState& state,
                                             const std::string& session_id,
                                             const DecisionContext& context,
                                             std::string_view what) {
  if (auto ok = RequireIntegrator(state, context); !ok) return Fail(ok.error());
  auto session = FindFor(state, session_id);
  if (!session) return Fail(session.error());
  if ((*session)->state == SessionState::kOpen) {
    if (auto ok = RequireNotWithdrawn(state, "sessionId"); !ok) return Fail(ok.error());
  }
  const SessionState now_state = EffectiveState(**session, state, context.now);
  if (now_state != SessionState::kOpen && now_state != SessionState::kExpired) {
    return Fail(ErrorCode::kSigningSessionStateConflict,
                "signing session " + session_id + " is " + std::string(ToString(now_state)) +
                    " and cannot be " + std::string(what),
                "sessionId", std::string(ToString(now_state)));
  }
  return session;
}

}  // namespace

Status RequireOpenSession(const ContractState& state, std::string_view session_id,
                          std::string_view participant_id, std::string_view now,
                          std::string_view link_sha256) {
  const SigningSession* session = state.FindSession(session_id);
  if (session == nullptr || session->participant_id != participant_id) {
    return Fail(ErrorCode::kSigningSessionNotFound,
                "signing session " + std::string(session_id) + " not found", "sessionId",
                "unknown session");
  }
  if (!link_sha256.empty() && link_sha256 != session->token_sha256 &&
      link_sha256 != session->page_token_sha256) {
    return Fail(ErrorCode::kSigningSessionCancelled,
                "this signing link was replaced by a newer one", "token", "replaced");
  }
  if (session->state == SessionState::kOpen) {
    if (auto ok = RequireNotWithdrawn(state, "sessionId"); !ok) return ok;
  }
  return StateError(*session, EffectiveState(*session, state, now));
}

Result<std::vector<DomainEvent>> DecideCreateSession(const ContractState& state,
                                                     const CreateSigningSession& c,
                                                     const DecisionContext& context) {
  if (!c.automatic) {
    if (auto ok = RequireIntegrator(state, context); !ok) return Fail(ok.error());
  }
  if (auto ok = RequireOutForSigning(state); !ok) return Fail(ok.error());
  const Participant* p = state.FindParticipant(c.participant_id);
  if (p == nullptr) {
    return Fail(ErrorCode::kParticipantNotFound, "participant " + c.participant_id + " not found",
                "participantId", "unknown participant");
  }
  if (!p->signs() || !p->execution_channel) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + c.participant_id + " does not sign (action " +
                    std::string(ToString(p->action)) + ")",
                "participantId", "not a signer");
  }
  if (p->progress == ParticipantProgress::kSigned) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + c.participant_id + " has already signed", "participantId",
                "already signed");
  }
  if (p->progress != ParticipantProgress::kReady) {
    return Fail(ErrorCode::kSigningOutOfTurn,
                "it is not the turn of participant " + c.participant_id +
                    ": signers with a lower routing order have not all signed",
                "participantId", "waiting for earlier signers");
  }
  const ExecutionChannel channel = *p->execution_channel;
  if (auto ok = RequireExpiryAfterNow(c.expires_at, context); !ok) return Fail(ok.error());
  if (!c.return_url.empty()) {
    if (channel != ExecutionChannel::kPlatformHosted) {
      return Fail(ErrorCode::kValidationFailed, "invalid signing session", "returnUrl",
                  "only for platform_hosted signers");
    }
    if (!IsHttpUrl(c.return_url)) {
      return Fail(ErrorCode::kValidationFailed, "invalid signing session", "returnUrl",
                  "must be an http or https URL of at most 2048 characters");
    }
  }
  if (channel == ExecutionChannel::kPlatformHosted && !IsSha256Hex(c.token_sha256)) {
    return Fail(ErrorCode::kInternal, "a hosted session needs its token's hash");
  }
  if (channel == ExecutionChannel::kProviderManaged && c.provider_id.empty()) {
    return Fail(ErrorCode::kProviderNotFound, "no signing provider for " + c.participant_id,
                "providerConfigRef", "no provider is configured");
  }

  std::vector<DomainEvent> events;
  for (const auto& session : state.sessions) {
    if (session.participant_id == c.participant_id &&
        EffectiveState(session, state, context.now) == SessionState::kOpen) {
      events.push_back(DomainEvent{std::string(event_type::kSessionCancelled),
                                   {{"contractId", state.id},
                                    {"sessionId", session.session_id},
                                    {"reason", "superseded"},
                                    {"cancelledAt", context.now}}});
    }
  }
  boost::json::object data{{"contractId", state.id},
                           {"sessionId", c.session_id},
                           {"participantId", c.participant_id},
                           {"channel", ToString(channel)},
                           {"expiresAt", c.expires_at},
                           {"documentSha256", state.rendered_document_sha256.value_or("")},
                           {"automatic", c.automatic},
                           {"createdAt", context.now}};
  if (channel == ExecutionChannel::kPlatformHosted) data["tokenSha256"] = c.token_sha256;
  if (!c.return_url.empty()) data["returnUrl"] = c.return_url;
  if (channel == ExecutionChannel::kProviderManaged) data["providerId"] = c.provider_id;
  events.push_back(DomainEvent{std::string(event_type::kSessionCreated), std::move(data)});
  return events;
}

Result<std::vector<DomainEvent>> DecideCancelSession(const ContractState& state,
                                                     const CancelSigningSession& c,
                                                     const DecisionContext& context) {
  auto session = ManagedSession(state, c.session_id, context, "cancelled");
  if (!session) return Fail(session.error());
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kSessionCancelled),
                                              {{"contractId", state.id},
                                               {"sessionId", c.session_id},
                                               {"reason", "cancelled"},
                                               {"cancelledAt", context.now}}}};
}

Result<std::vector<DomainEvent>> DecideRefreshSession(const ContractState& state,
                                                      const RefreshSigningSession& c,
                                                      const DecisionContext& context) {
  auto session = ManagedSession(state, c.session_id, context, "refreshed");
  if (!session) return Fail(session.error());
  if (auto ok = RequireExpiryAfterNow(c.expires_at, context); !ok) return Fail(ok.error());
  boost::json::object data{{"contractId", state.id},
                           {"sessionId", c.session_id},
                           {"expiresAt", c.expires_at},
                           {"refreshedAt", context.now}};
  if ((*session)->channel == ExecutionChannel::kPlatformHosted) {
    if (!IsSha256Hex(c.token_sha256)) {
      return Fail(ErrorCode::kInternal, "a hosted session needs its token's hash");
    }
    data["tokenSha256"] = c.token_sha256;
  }
  return std::vector<DomainEvent>{
      DomainEvent{std::string(event_type::kSessionRefreshed), std::move(data)}};
}

}  // namespace esign::contract_rules

namespace esign::contract_rules {
namespace {

// A hosted session that is open now, for the embedding operations.
Result<const SigningSession*> OpenHostedSession(const ContractState& state,
                                                std::string_view session_id,
                                                const DecisionContext& context) {
  auto session = FindFor(state, session_id);
  if (!session) return Fail(session.error());
  if ((*session)->channel != ExecutionChannel::kPlatformHosted) {
    return Fail(ErrorCode::kSigningSessionStateConflict,
                "only a platform_hosted session is signed on the hosted page", "sessionId",
                std::string(ToString((*session)->channel)));
  }
  if ((*session)->state == SessionState::kOpen) {
    if (auto ok = RequireNotWithdrawn(state, "sessionId"); !ok) return Fail(ok.error());
  }
  if (auto ok = StateError(**session, EffectiveState(**session, state, context.now)); !ok) {
    return Fail(ok.error());
  }
  return session;
}

}  // namespace

Result<std::vector<DomainEvent>> DecideIssueEmbedUrl(const ContractState& state,
                                                     const IssueEmbedUrl& c,
                                                     const DecisionContext& context) {
  if (auto ok = RequireIntegrator(state, context); !ok) return Fail(ok.error());
  auto session = OpenHostedSession(state, c.session_id, context);
  if (!session) return Fail(session.error());
  if (!IsSha256Hex(c.embed_token_sha256) || !IsTimestamp(c.expires_at)) {
    return Fail(ErrorCode::kInternal, "an embed URL needs its token's hash and its expiry");
  }
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kSessionEmbedUrlIssued),
                                              {{"contractId", state.id},
                                               {"sessionId", c.session_id},
                                               {"embedTokenSha256", c.embed_token_sha256},
                                               {"expiresAt", c.expires_at},
                                               {"issuedAt", context.now}}}};
}

Result<std::vector<DomainEvent>> DecideOpenEmbedded(const ContractState& state,
                                                    const OpenEmbeddedSession& c,
                                                    const DecisionContext& context) {
  auto session = OpenHostedSession(state, c.session_id, context);
  if (!session) return Fail(session.error());
  if ((*session)->embed_token_sha256.empty() ||
      (*session)->embed_token_sha256 != c.embed_token_sha256) {
    return Fail(ErrorCode::kSigningSessionCancelled,
                "this embed URL was used already or replaced by a newer one; ask for a new one",
                "token", "used");
  }
  if ((*session)->embed_expires_at <= context.now) {
    return Fail(ErrorCode::kSigningSessionExpired,
                "this embed URL expired at " + (*session)->embed_expires_at, "token", "expired");
  }
  if (!IsSha256Hex(c.page_token_sha256)) {
    return Fail(ErrorCode::kInternal, "an embedded page needs its proof's hash");
  }
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kSessionEmbedOpened),
                                              {{"contractId", state.id},
                                               {"sessionId", c.session_id},
                                               {"embedTokenSha256", c.embed_token_sha256},
                                               {"pageTokenSha256", c.page_token_sha256},
                                               {"openedAt", context.now}}}};
}

}  // namespace esign::contract_rules
