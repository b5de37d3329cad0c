// Operations 9-12: the hosted signing page's own API. The link's token in the path is the only
// credential; every answer about a dead link says why it is dead (expired, cancelled, replaced,
// already used), so the page can tell the signer.
#include "domain/field_value.h"
#include "domain/signing_settings.h"
#include "http/contract_routes.h"
#include "http/signing_access.h"
#include "http/signing_request.h"
#include "http/signing_routes.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

std::string RoleName(const SigningRoutesDeps& deps, const ContractState& contract,
                     std::string_view participant_id) {
  const RoleBinding* binding = contract.BindingOf(participant_id);
  if (binding == nullptr || !deps.templates) return "";
  auto tmpl = deps.templates(contract.template_id);
  const TemplateVersion* version = tmpl ? tmpl->FindVersion(contract.template_version_id) : nullptr;
  if (version == nullptr) return binding->template_role_id;
  for (const auto& role : version->roles) {
    if (role.template_role_id == binding->template_role_id) return role.name;
  }
  return binding->template_role_id;
}

// An open session, or the error that says why the link no longer works. Ended sessions are
// readable (the page shows "already signed") but not usable. Links of a voided or expired
// contract never get here: LoadSessionByToken answers SIGNING_SESSION_GONE for them.
Status RequireUsable(const SigningRoutesDeps& deps, const LoadedSession& loaded) {
  const SessionState state = EffectiveState(loaded.session, loaded.contract, NowText(deps));
  switch (state) {
    case SessionState::kOpen:
      return {};
    case SessionState::kExpired:
      return Fail(ErrorCode::kSigningSessionExpired,
                  "this signing link expired at " + loaded.session.expires_at, "token", "expired");
    case SessionState::kCancelled:
      return Fail(ErrorCode::kSigningSessionCancelled, "this signing link was cancelled", "token",
                  "cancelled");
    case SessionState::kCompleted:
    case SessionState::kDeclined:
      return Fail(
          ErrorCode::kSigningSessionStateConflict,
          "this signing link was already used: the session is " + std::string(ToString(state)),
          "token", std::string(ToString(state)));
  }
  return {};
}

// Readable: open, completed or declined; expired and cancelled links are gone (410).
Result<LoadedSession> Readable(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionByToken(deps, request.params.Get("token"));
  if (!loaded) return loaded;
  const SessionState state = EffectiveState(loaded->session, loaded->contract, NowText(deps));
  if (state == SessionState::kExpired || state == SessionState::kCancelled) {
    if (auto ok = RequireUsable(deps, *loaded); !ok) return std::unexpected(ok.error());
  }
  return loaded;
}

ApiResult GetHosted(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Readable(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  const ContractState& contract = loaded->contract;
  const SigningSession& session = loaded->session;
  const Participant* signer = contract.FindParticipant(session.participant_id);
  boost::json::object body{
      {"sessionId", session.session_id},
      {"contractId", contract.id},
      {"contractTitle", contract.title},
      {"participantId", session.participant_id},
      {"signerName", signer ? signer->name : ""},
      {"signerEmail", signer && signer->email ? *signer->email : ""},
      {"roleName", RoleName(deps, contract, session.participant_id)},
      {"state", ToString(EffectiveState(session, contract, NowText(deps)))},
      {"expiresAt", session.expires_at},
      {"documentSha256", session.document_sha256},
      {"allowDecline", AllowsDecline(contract.signing_settings)},
      {"returnUrl", session.return_url.empty() ? boost::json::value(nullptr)
                                               : boost::json::value(session.return_url)}};
  if (signer && signer->signed_at) body["signedAt"] = *signer->signed_at;
  if (signer && signer->declined_at) body["declinedAt"] = *signer->declined_at;
  return ApiResponse::Json(200, body).WithHeader("Cache-Control", "no-store");
}

ApiResult HostedDocument(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Readable(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  return DocumentToSign(deps, request, *loaded);
}

ApiResponse Outcome(const commands::CommandOutcome& outcome, const LoadedSession& loaded,
                    std::string_view state) {
  return ApiResponse::Json(200,
                           {{"sessionId", loaded.session.session_id},
                            {"state", state},
                            {"contractStatus", ToString(outcome.state.status)},
                            {"returnUrl", loaded.session.return_url.empty()
                                              ? boost::json::value(nullptr)
                                              : boost::json::value(loaded.session.return_url)}})
      .WithHeader("Cache-Control", "no-store");
}

// The signer has no API identity: the link authorized them, and the domain checks the session.
Result<commands::CommandOutcome> Run(const SigningRoutesDeps& deps, const ApiRequest& request,
                                     const std::string& contract_id, const Command& command) {
  return ExecuteSigning(deps, request, contract_id, command, esign::Actor{});
}

ApiResult CompleteHosted(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionByToken(deps, request.params.Get("token"));
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireUsable(deps, *loaded); !ok) return std::unexpected(ok.error());
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"signatureText", "consent"});
  const std::string signature = reader.Text("signatureText", true, 200);
  if (reader.Boolean("consent") != true) {
    reader.Problem("consent", "must be true: the signer agrees to sign electronically");
  }
  if (auto ok = reader.Finish("invalid signature"); !ok) return std::unexpected(ok.error());
  const Participant* signer = loaded->contract.FindParticipant(loaded->session.participant_id);
  boost::json::object evidence{{"signerName", signer ? signer->name : ""},
                               {"signatureText", signature},
                               {"ipAddress", request.remote_ip},
                               {"userAgent", std::string(request.UserAgent().substr(0, 512))},
                               {"authenticationMethod", "signing_link"},
                               {"consent", true},
                               {"channel", "platform_hosted"},
                               {"sessionId", loaded->session.session_id},
                               {"documentSha256", loaded->session.document_sha256}};
  RecordSignerCompleted command{loaded->session.participant_id, "", std::move(evidence),
                                loaded->session.session_id, loaded->session.token_sha256};
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  return Outcome(*outcome, *loaded, "completed");
}

ApiResult DeclineHosted(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionByToken(deps, request.params.Get("token"));
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireUsable(deps, *loaded); !ok) return std::unexpected(ok.error());
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"reason"});
  const std::string reason = reader.Text("reason", false, 2000);
  if (auto ok = reader.Finish("invalid decline"); !ok) return std::unexpected(ok.error());
  RecordSignerDeclined command{loaded->session.participant_id, reason, loaded->session.session_id,
                               loaded->session.token_sha256};
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  return Outcome(*outcome, *loaded, "declined");
}

RouteSpec ByToken(std::string operation_id, const SigningRoutesDeps& deps,
                  ApiResult (*handler)(const SigningRoutesDeps&, const ApiRequest&)) {
  return RouteSpec{std::move(operation_id), Auth::kNone,
                   [deps, handler](const ApiRequest& request) { return handler(deps, request); }};
}

}  // namespace

void AddHostedSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps) {
  const std::string base = "/api/v1/hosted-signing/{token}";
  routes.Add(verb::get, base, ByToken("getHostedSigningSession", deps, GetHosted));
  routes.Add(verb::get, base + "/document",
             ByToken("downloadHostedSigningDocument", deps, HostedDocument));
  routes.Add(verb::post, base + "/complete",
             ByToken("completeHostedSigning", deps, CompleteHosted));
  routes.Add(verb::post, base + "/decline", ByToken("declineHostedSigning", deps, DeclineHosted));
}

}  // namespace esign::http
