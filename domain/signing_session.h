// A signing session: one participant's attempt to sign through one channel (DESIGN section 9).
// Sessions live in the contract's own stream (signing_session.* events), so that the turn check,
// the session and the signature it leads to are decided on one version of the contract.
//
// A session is open until it is completed, declined or cancelled (by the integrator, by a newer
// session for the same participant, or because the contract left the signing flow). An open
// session past its expiry is expired; that is a matter of the clock, so it is computed when the
// session is read (EffectiveState), never recorded.
//
// Hosted sessions are reached by a bearer token in the signing link; only the token's SHA-256 is
// kept, and a refresh replaces it (the old link dies).
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/participant.h"
#include "domain/result.h"
#include "domain/signer_field_rules.h"

namespace esign {

enum class SessionState { kOpen, kCompleted, kDeclined, kCancelled, kExpired };
std::string_view ToString(SessionState state);

struct SigningSession {
  std::string session_id;  // ses_...
  std::string participant_id;
  ExecutionChannel channel = ExecutionChannel::kPlatformHosted;
  std::string token_sha256;  // hosted only: hex SHA-256 of the current link's token
  // Embedded signing (DESIGN 23): the unspent embed URL's token and when it lapses, and the
  // proof of the page it opened, which works as a second link until a newer page replaces it.
  std::string embed_token_sha256;
  std::string embed_expires_at;
  std::string page_token_sha256;
  std::string expires_at;   // RFC 3339 UTC, as the service formats it (comparable as text)
  std::string return_url;   // hosted only, may be empty
  std::string provider_id;  // provider_managed only
  std::string document_sha256;
  bool automatic = false;  // started by the service (organizationSigningMode automatic)
  SessionState state = SessionState::kOpen;  // as recorded: never kExpired
  std::string cancel_reason;                 // "cancelled" or "superseded"
  std::string created_at;
  std::string updated_at;
  std::string ended_at;  // completed, declined or cancelled at
  // Signer authentication (hosted, DESIGN section 15; signer_authentication.h).
  int codes_sent = 0;             // e-mail codes; the latest is number codes_sent
  std::string last_code_sent_at;  // of the latest
  std::string code_expires_at;    // of the latest
  int failed_attempts = 0;        // wrong or expired codes typed
  int code_spent = 0;             // the e-mail code that proved the session: used once, spent
  bool locked = false;            // signer.authentication_failed: the link serves nothing more
  std::vector<std::string> authenticated_at;  // one per signer.authenticated: proof n is [n-1]
  // Files the signer uploaded for their attachment fields (signer.attachment_uploaded).
  std::vector<SignerAttachment> attachments;
};

struct ContractState;

// The state at `now` (RFC 3339 in the service's format): open sessions past expiry are expired,
// open sessions of a contract that is no longer out for signing are cancelled.
SessionState EffectiveState(const SigningSession& session, const ContractState& contract,
                            std::string_view now);

// kSigningSessionGone when the contract was voided or expired (every link of it is dead for
// good), with the detail {field, "voided" | "expired"} that lets a page say why; else success.
Status RequireNotWithdrawn(const ContractState& contract, std::string_view field);

// How far a reported signedAt may lie ahead of the service's clock.
inline constexpr int64_t kMaxSignedAtSkewMicros = int64_t{5} * 60 * 1'000'000;

// A reported signature (signedAt, RFC 3339) happened while it could: not before its session was
// created (without a session, `session_id` empty: not before the contract was sent), and not after
// `now` plus kMaxSignedAtSkewMicros. A certificate that says "signed" before the contract was out
// for signing would be false evidence. kValidationFailed on field "signedAt" otherwise.
Status RequireSignedWhileOpen(const ContractState& contract, std::string_view session_id,
                              std::string_view signed_at, std::string_view now);

// {sessionId, contractId, participantId, channel, state, expiresAt, documentSha256, createdAt,
//  updatedAt, endedAt?, cancelReason?, providerId?, returnUrl?, automatic}; the hosted link
// (`url`) exists only when the token is issued, so the caller adds it.
boost::json::object SigningSessionToJson(const SigningSession& session,
                                         const ContractState& contract, std::string_view now);

}  // namespace esign
