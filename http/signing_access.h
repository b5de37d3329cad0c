// What the signing routes share: finding a session and its contract, hosted links and their
// tokens, and the PDF a signer signs.
#pragma once

#include <string>

#include "commands/signer_attachments.h"
#include "domain/contract_state.h"
#include "http/api.h"
#include "http/signing_routes.h"
#include "projections/signing_session_index.h"

namespace esign::http {

struct LoadedSession {
  ContractState contract;
  SigningSession session;
  // The hash of the token the request came with: the session's link, or its embedded page's
  // proof. Empty when loaded by id.
  std::string link_sha256;
};

// Where the session with `session_id` is, whatever its organization; nullopt when the index does
// not know it even after catching up with the log.
Result<std::optional<projections::SessionLocation>> FindSessionLocation(
    const SigningRoutesDeps& deps, const std::string& session_id);

// The session by id, for the caller's organization (signing:manage); another organization's
// session is SIGNING_SESSION_NOT_FOUND.
Result<LoadedSession> LoadSessionById(const SigningRoutesDeps& deps, const ApiRequest& request);

// The session a hosted link's token, or an embedded page's proof, opens. Any link of a voided or
// expired contract whose session was still open is SIGNING_SESSION_GONE; a token that a refresh
// replaced is SIGNING_SESSION_CANCELLED; an unknown one SIGNING_SESSION_NOT_FOUND.
Result<LoadedSession> LoadSessionByToken(const SigningRoutesDeps& deps, std::string_view token);

// The session an embed URL's token was issued for, whatever became of the URL since (the command
// that spends it decides whether it still works); SIGNING_SESSION_NOT_FOUND for a token never
// issued.
Result<LoadedSession> LoadSessionByEmbedToken(const SigningRoutesDeps& deps,
                                              std::string_view token);

// SIGNING_SESSION_GONE (detail `field`, issue "voided" or "expired") when the session was open as
// its contract was voided or expired: its link and its operations are dead for good, and the
// answer says why rather than the generic "cancelled".
Status RequireNotWithdrawn(const LoadedSession& loaded, std::string_view field);

// The organization's profile (commands/organization_commands.h); empty when the deps have no
// look-up.
Result<commands::OrganizationProfile> OrganizationOf(const SigningRoutesDeps& deps,
                                                     const std::string& organization_id);

// A fresh link token (32 random bytes, base64url) and its SHA-256 (hex), which is all we keep.
struct LinkToken {
  std::string token;
  std::string sha256;
};
LinkToken NewLinkToken();

// "<origin>/sign/<token>", the origin from deps.public_origin (never from the request).
std::string SigningUrl(const SigningRoutesDeps& deps, std::string_view token);

// The exact PDF the signer signs (frozen at send), with ETag = its SHA-256.
ApiResult DocumentToSign(const SigningRoutesDeps& deps, const ApiRequest& request,
                         const LoadedSession& loaded);

std::string NowText(const SigningRoutesDeps& deps);

// The answer to a file attached to a session: 201 {sha256, name, mediaType, size}, or 200 when the
// session held that file already.
ApiResult AttachmentResponse(const commands::UploadedAttachment& uploaded);

// What the events of a signing command record of the request: its IP address, user agent and
// request id; `event_client_id`, when given, names who acted (a provider).
commands::CommandMeta SigningMeta(const ApiRequest& request,
                                  const std::string& event_client_id = "");

// Runs a signing command on the contract, recording the request's IP address, user agent and
// request id with its events. `actor`: the integrator for its own operations, nobody (an empty
// actor) for a signer authorized by a link or a provider's signature.
Result<commands::CommandOutcome> ExecuteSigning(const SigningRoutesDeps& deps,
                                                const ApiRequest& request,
                                                const std::string& contract_id,
                                                const Command& command, const esign::Actor& actor,
                                                const std::string& event_client_id = "");

}  // namespace esign::http
