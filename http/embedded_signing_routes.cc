// Embedded signing (DESIGN 23): the integrator asks for a single-use URL for a hosted session
// (POST /api/v1/signing-sessions/{id}/embed-url, signing:manage), puts it in a frame of its own
// page, and the page it opens (GET /embed/{token}) spends it and receives a proof of its own in
// its HTML. Only the organization's frame origins may frame that page (CSP frame-ancestors), and
// only they hear its messages. GET /contract-signing.js serves the <contract-signing> element that
// frames the page and turns the messages into DOM events.
#include "base/time_text.h"
#include "http/contract_routes.h"
#include "http/error_response.h"
#include "http/signing_access.h"
#include "http/signing_page_routes.h"
#include "http/signing_request.h"
#include "http/signing_routes.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

constexpr int64_t kEmbedUrlLifetimeMicros = int64_t{5} * 60 * 1'000'000;

ApiResult IssueEmbed(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireNoMembers(request, "invalid embed URL request"); !ok) {
    return std::unexpected(ok.error());
  }
  auto organization = OrganizationOf(deps, loaded->contract.organization_id);
  if (!organization) return std::unexpected(organization.error());
  const std::vector<std::string>& origins = organization->settings.frame_origins;
  if (origins.empty()) {
    return Fail(ErrorCode::kValidationFailed,
                "the organization allows no origin to frame its signing pages", "frameOrigins",
                "set them first: PATCH /api/v1/organization (organization:manage)");
  }
  // Five minutes, and never past the session itself.
  std::string expires_at = FormatTimestamp(deps.clock.NowMicros() + kEmbedUrlLifetimeMicros);
  expires_at = std::min(expires_at, loaded->session.expires_at);
  const LinkToken embed = NewLinkToken();
  auto outcome = ExecuteSigning(deps, request, loaded->contract.id,
                                IssueEmbedUrl{loaded->session.session_id, embed.sha256, expires_at},
                                DomainActor(request.Caller()));
  if (!outcome) return std::unexpected(outcome.error());
  std::string origin = deps.public_origin();
  while (origin.ends_with('/')) origin.pop_back();
  return ApiResponse::Json(201, {{"url", origin + "/embed/" + embed.token},
                                 {"expiresAt", expires_at},
                                 {"sessionId", loaded->session.session_id},
                                 {"contractId", loaded->contract.id},
                                 {"frameOrigins", boost::json::value_from(origins)}})
      .WithHeader("Cache-Control", "no-store");
}

// The page that says why an embed URL opens nothing: framed by the organization's origins when
// the session is known (so the integrator's page shows it and hears signing.error or
// signing.expired), by none otherwise.
ApiResponse EmbedRefused(const ApiRequest& request, const Error& error, const LoadedSession* loaded,
                         const std::vector<std::string>& origins) {
  // The API's one error body, as the page reads any refusal of the hosted API.
  boost::json::object embed{
      {"error", boost::json::parse(ErrorBody(error, request.request_id)).at("error")},
      {"origins", boost::json::value_from(origins)}};
  if (loaded != nullptr) {
    embed["sessionId"] = loaded->session.session_id;
    embed["contractId"] = loaded->contract.id;
  }
  return SigningPageResponse(static_cast<unsigned>(StatusOf(error.code)),
                             EmbeddedSigningPageHtml(embed), origins);
}

ApiResult OpenEmbed(const SigningRoutesDeps& deps, const ApiRequest& request) {
  const std::string_view token = request.params.Get("token");
  auto loaded = LoadSessionByEmbedToken(deps, token);
  if (!loaded) return EmbedRefused(request, loaded.error(), nullptr, {});
  auto organization = OrganizationOf(deps, loaded->contract.organization_id);
  if (!organization) return std::unexpected(organization.error());
  const std::vector<std::string>& origins = organization->settings.frame_origins;
  const LinkToken page = NewLinkToken();
  auto outcome =
      ExecuteSigning(deps, request, loaded->contract.id,
                     OpenEmbeddedSession{loaded->session.session_id, Sha256Hex(token), page.sha256},
                     esign::Actor{});
  if (!outcome) {
    const ErrorCode code = outcome.error().code;
    // Refusals the page explains; anything else (the store, say) is the API's own answer.
    if (code != ErrorCode::kSigningSessionCancelled && code != ErrorCode::kSigningSessionExpired &&
        code != ErrorCode::kSigningSessionStateConflict && code != ErrorCode::kSigningSessionGone) {
      return std::unexpected(outcome.error());
    }
    return EmbedRefused(request, outcome.error(), &*loaded, origins);
  }
  const boost::json::object embed{{"token", page.token},
                                  {"origins", boost::json::value_from(origins)},
                                  {"sessionId", loaded->session.session_id},
                                  {"contractId", loaded->contract.id}};
  return SigningPageResponse(200, EmbeddedSigningPageHtml(embed), origins);
}

ApiResult SigningElementScript(const ApiRequest&) {
  return ApiResponse{
      200, std::string(SigningElementScriptText()), "text/javascript; charset=utf-8", {}}
      .WithHeader("Cache-Control", "public, max-age=300")
      .WithHeader("X-Content-Type-Options", "nosniff")
      // Loaded by the integrator's pages, from their own origin.
      .WithHeader("Cross-Origin-Resource-Policy", "cross-origin");
}

}  // namespace

void AddEmbeddedSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps) {
  routes.Add(verb::post, "/api/v1/signing-sessions/{sessionId}/embed-url",
             RouteSpec{.operation_id = "createEmbedUrl",
                       .handler = [deps](const ApiRequest& r) { return IssueEmbed(deps, r); }});
  routes.Add(verb::get, "/embed/{token}",
             RouteSpec{.operation_id = "getEmbeddedSigningPage",
                       .auth = Auth::kNone,
                       .handler = [deps](const ApiRequest& r) { return OpenEmbed(deps, r); },
                       .link_param = "token"});
  routes.Add(verb::get, "/contract-signing.js",
             RouteSpec{.operation_id = "getSigningElementScript",
                       .auth = Auth::kNone,
                       .handler = SigningElementScript,
                       .execution = Execution::kInline,
                       .limit_by_address = true});
}

}  // namespace esign::http
