#include "http/signing_access.h"

#include <openssl/rand.h>

#include "base/base64.h"
#include "base/sha256.h"
#include "base/time_text.h"
#include "http/contract_routes.h"
#include "projections/signing_session_index.h"

namespace esign::http {
namespace {

constexpr size_t kTokenBytes = 32;

std::unexpected<Error> SessionNotFound() {
  return std::unexpected(
      Error::Of(ErrorCode::kSigningSessionNotFound, "signing session not found"));
}

// The index lags the log by a moment: a miss is retried once the read side has caught up.
Result<std::optional<projections::SessionLocation>> Locate(
    const SigningRoutesDeps& deps,
    const std::function<Result<std::optional<projections::SessionLocation>>()>& find) {
  auto found = find();
  if (!found || *found) return found;
  deps.catch_up();
  return find();
}

Result<LoadedSession> LoadAt(const SigningRoutesDeps& deps,
                             const projections::SessionLocation& location) {
  auto contract = deps.commands.Load(location.contract_id);
  if (!contract) {
    if (contract.error().code == ErrorCode::kContractNotFound) return SessionNotFound();
    return std::unexpected(contract.error());
  }
  const SigningSession* session = contract->FindSession(location.session_id);
  if (session == nullptr) return SessionNotFound();
  SigningSession copy = *session;
  return LoadedSession{std::move(*contract), std::move(copy)};
}

}  // namespace

Result<std::optional<projections::SessionLocation>> FindSessionLocation(
    const SigningRoutesDeps& deps, const std::string& session_id) {
  return Locate(deps, [&] { return deps.sessions.FindSession(session_id); });
}

Result<LoadedSession> LoadSessionById(const SigningRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = RequirePermission(request, "signing:manage"); !ok)
    return std::unexpected(ok.error());
  const std::string session_id(request.params.Get("sessionId"));
  auto location = FindSessionLocation(deps, session_id);
  if (!location) return std::unexpected(location.error());
  if (!*location) return SessionNotFound();
  auto loaded = LoadAt(deps, **location);
  if (!loaded) return loaded;
  if (loaded->contract.organization_id != request.Caller().organization_id) {
    return SessionNotFound();
  }
  return loaded;
}

Result<LoadedSession> LoadSessionByToken(const SigningRoutesDeps& deps, std::string_view token) {
  if (token.empty() || token.size() > 128) return SessionNotFound();
  const std::string sha256 = Sha256Hex(token);
  auto location = Locate(deps, [&] { return deps.sessions.FindToken(sha256); });
  if (!location) return std::unexpected(location.error());
  if (!*location) return SessionNotFound();
  auto loaded = LoadAt(deps, **location);
  if (!loaded) return loaded;
  // Before "replaced": the newer link is dead too, and the signer should learn why.
  if (auto ok = RequireNotWithdrawn(*loaded, "token"); !ok) return std::unexpected(ok.error());
  if (loaded->session.token_sha256 != sha256 && loaded->session.page_token_sha256 != sha256) {
    return Fail(ErrorCode::kSigningSessionCancelled,
                "this signing link was replaced by a newer one", "token", "replaced");
  }
  loaded->link_sha256 = sha256;
  return loaded;
}

Result<LoadedSession> LoadSessionByEmbedToken(const SigningRoutesDeps& deps,
                                              std::string_view token) {
  if (token.empty() || token.size() > 128) return SessionNotFound();
  const std::string sha256 = Sha256Hex(token);
  auto location = Locate(deps, [&] { return deps.sessions.FindEmbedToken(sha256); });
  if (!location) return std::unexpected(location.error());
  if (!*location) return SessionNotFound();
  return LoadAt(deps, **location);
}

Status RequireNotWithdrawn(const LoadedSession& loaded, std::string_view field) {
  if (loaded.session.state != SessionState::kOpen) return {};
  return esign::RequireNotWithdrawn(loaded.contract, field);
}

Result<commands::OrganizationProfile> OrganizationOf(const SigningRoutesDeps& deps,
                                                     const std::string& organization_id) {
  if (!deps.organization) return commands::OrganizationProfile{};
  return deps.organization(organization_id);
}

LinkToken NewLinkToken() {
  unsigned char bytes[kTokenBytes];
  if (RAND_bytes(bytes, sizeof bytes) != 1) std::abort();  // no entropy: nothing safe to do
  LinkToken out;
  out.token = Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
  out.sha256 = Sha256Hex(out.token);
  return out;
}

std::string SigningUrl(const SigningRoutesDeps& deps, std::string_view token) {
  std::string origin = deps.public_origin();
  while (origin.ends_with('/')) origin.pop_back();
  return origin + "/sign/" + std::string(token);
}

ApiResult DocumentToSign(const SigningRoutesDeps& deps, const ApiRequest& request,
                         const LoadedSession& loaded) {
  const std::string& sha256 = loaded.session.document_sha256;
  if (sha256.empty()) {
    return Fail(ErrorCode::kContractSignedDocumentNotAvailable, "no document is frozen");
  }
  const std::string etag = "\"" + sha256 + "\"";
  if (request.Header("If-None-Match") == etag) {
    return ApiResponse{304, "", "application/pdf", {}}.WithHeader("ETag", etag);
  }
  auto bytes = deps.blobs.Get(sha256);
  if (!bytes) return std::unexpected(bytes.error());
  return ApiResponse{200, std::move(*bytes), "application/pdf", {}}
      .WithHeader("ETag", etag)
      .WithHeader("Content-Disposition",
                  "inline; filename=\"" + loaded.contract.id + "-to-sign.pdf\"")
      .WithHeader("Cache-Control", "no-store");
}

Result<commands::CommandOutcome> ExecuteSigning(const SigningRoutesDeps& deps,
                                                const ApiRequest& request,
                                                const std::string& contract_id,
                                                const Command& command, const esign::Actor& actor,
                                                const std::string& event_client_id) {
  return deps.commands.Execute(actor, contract_id, command, SigningMeta(request, event_client_id));
}

commands::CommandMeta SigningMeta(const ApiRequest& request, const std::string& event_client_id) {
  commands::CommandMeta meta;
  meta.actor = EventActor(request);
  if (!event_client_id.empty()) meta.actor.client_id = event_client_id;
  return meta;
}

std::string NowText(const SigningRoutesDeps& deps) {
  return FormatTimestamp(deps.clock.NowMicros());
}

ApiResult AttachmentResponse(const commands::UploadedAttachment& uploaded) {
  ApiResponse response =
      ApiResponse::Json(uploaded.replayed ? 200 : 201, SignerAttachmentToJson(uploaded.attachment));
  response.WithHeader("Cache-Control", "no-store");
  return response;
}

}  // namespace esign::http
