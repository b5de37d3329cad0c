#include "http/signing_routes.h"

#include "base/base64.h"
#include "base/time_text.h"
#include "commands/signer_attachments.h"
#include "commands/signer_completion.h"
#include "commands/signing_times.h"
#include "domain/text_formats.h"
#include "http/contract_routes.h"
#include "http/signing_access.h"
#include "http/signing_request.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

ApiResponse SessionResponse(unsigned status, const SigningRoutesDeps& deps,
                            const ContractState& contract, const SigningSession& session,
                            const std::string& url = "") {
  boost::json::object body = SigningSessionToJson(session, contract, NowText(deps));
  if (!url.empty()) body["url"] = url;
  return ApiResponse::Json(status, body);
}

Result<commands::CommandOutcome> Run(const SigningRoutesDeps& deps, const ApiRequest& request,
                                     const std::string& contract_id, const Command& command) {
  return ExecuteSigning(deps, request, contract_id, command, DomainActor(request.Caller()));
}

// The contract in the path, when the caller's organization controls it.
Result<ContractState> LoadOwnContract(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto contract = deps.commands.Load(std::string(request.params.Get("id")));
  if (!contract || contract->organization_id != request.Caller().organization_id) {
    return ContractNotFound();
  }
  return contract;
}

// 1: a session for a signer whose turn it is.
ApiResult CreateSession(const SigningRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = RequirePermission(request, "signing:manage"); !ok) {
    return std::unexpected(ok.error());
  }
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"participantId", "returnUrl", "ttlSeconds"});
  CreateSigningSession command;
  command.participant_id = reader.Text("participantId", true, 64);
  command.return_url = reader.Text("returnUrl", false, 2048);
  const int64_t ttl = reader.Integer("ttlSeconds").value_or(0);
  if (auto ok = reader.Finish("invalid signing session"); !ok) return std::unexpected(ok.error());

  auto contract = LoadOwnContract(deps, request);
  if (!contract) return std::unexpected(contract.error());
  auto expiry = commands::SessionExpiry(*contract, deps.clock.NowMicros(), ttl);
  if (!expiry) return std::unexpected(expiry.error());
  command.expires_at = *expiry;
  command.session_id = deps.ids.Next("ses_");
  LinkToken link;
  if (const Participant* p = contract->FindParticipant(command.participant_id)) {
    if (p->execution_channel == ExecutionChannel::kPlatformHosted) {
      link = NewLinkToken();
      command.token_sha256 = link.sha256;
    }
    if (p->execution_channel == ExecutionChannel::kProviderManaged) {
      command.provider_id = deps.resolve_provider ? deps.resolve_provider(*p) : "";
    }
  }
  auto outcome = Run(deps, request, contract->id, command);
  if (!outcome) return std::unexpected(outcome.error());
  const SigningSession* session = outcome->state.FindSession(command.session_id);
  if (session == nullptr) return Fail(ErrorCode::kInternal, "the new session is missing");
  const std::string url = link.token.empty() ? "" : SigningUrl(deps, link.token);
  return SessionResponse(201, deps, outcome->state, *session, url)
      .WithHeader("Location", "/api/v1/signing-sessions/" + session->session_id);
}

// 2: every session of a contract, oldest first.
ApiResult ListSessions(const SigningRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = RequirePermission(request, "signing:manage"); !ok) {
    return std::unexpected(ok.error());
  }
  auto contract = LoadOwnContract(deps, request);
  if (!contract) return std::unexpected(contract.error());
  const std::string now = NowText(deps);
  boost::json::array items;
  for (const auto& session : contract->sessions) {
    items.push_back(SigningSessionToJson(session, *contract, now));
  }
  return ApiResponse::Json(200, {{"items", std::move(items)}, {"nextCursor", nullptr}});
}

ApiResult GetSession(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  return SessionResponse(200, deps, loaded->contract, loaded->session);
}

ApiResult CancelSession(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireNoMembers(request, "invalid cancel"); !ok)
    return std::unexpected(ok.error());
  auto outcome =
      Run(deps, request, loaded->contract.id, CancelSigningSession{loaded->session.session_id});
  if (!outcome) return std::unexpected(outcome.error());
  return SessionResponse(200, deps, outcome->state,
                         *outcome->state.FindSession(loaded->session.session_id));
}

ApiResult RefreshSession(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  int64_t ttl = 0;
  if (!request.http.body().empty()) {
    auto body = ParseJsonObjectBody(request);
    if (!body) return std::unexpected(body.error());
    BodyReader reader(*body, {"ttlSeconds"});
    ttl = reader.Integer("ttlSeconds").value_or(0);
    if (auto ok = reader.Finish("invalid refresh"); !ok) return std::unexpected(ok.error());
  }
  // An expired contract's signing period is over too; say why the session is dead first.
  if (auto ok = RequireNotWithdrawn(*loaded, "sessionId"); !ok) return std::unexpected(ok.error());
  auto expiry = commands::SessionExpiry(loaded->contract, deps.clock.NowMicros(), ttl);
  if (!expiry) return std::unexpected(expiry.error());
  RefreshSigningSession command{loaded->session.session_id, "", *expiry};
  LinkToken link;
  if (loaded->session.channel == ExecutionChannel::kPlatformHosted) {
    link = NewLinkToken();
    command.token_sha256 = link.sha256;
  }
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  const std::string url = link.token.empty() ? "" : SigningUrl(deps, link.token);
  return SessionResponse(200, deps, outcome->state, *outcome->state.FindSession(command.session_id),
                         url);
}

ApiResult SessionDocument(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  return DocumentToSign(deps, request, *loaded);
}

Status RequireIntegratorManaged(const SigningSession& session, std::string_view what) {
  if (session.channel == ExecutionChannel::kIntegratorManaged) return {};
  return Fail(ErrorCode::kSigningSessionStateConflict,
              std::string(what) + " through this operation is for integrator_managed sessions; " +
                  "this one is " + std::string(ToString(session.channel)),
              "channel", std::string(ToString(session.channel)));
}

// 7: the integrator reports a signature it collected itself.
ApiResult CompleteSession(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireIntegratorManaged(loaded->session, "completion"); !ok) {
    return std::unexpected(ok.error());
  }
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"signerName", "signedAt", "ipAddress", "userAgent",
                            "authenticationMethod", "consent", "signatureImage", "fieldValues"});
  const std::string signer_name = reader.Text("signerName", true, 200);
  const std::string signed_at = reader.Text("signedAt", true, 64);
  const std::string ip = reader.Text("ipAddress", true, 64);
  const std::string user_agent = reader.Text("userAgent", true, 512);
  const std::string method = reader.Text("authenticationMethod", true, 64);
  const std::optional<bool> consent = reader.Boolean("consent");
  const std::string image_base64 = reader.Text("signatureImage", false, 400000);
  if (consent != true) reader.Problem("consent", "must be true: the signer consented");
  // Checked here too, with the body's other problems; the decision checks it again.
  if (!signed_at.empty()) {
    if (auto ok = RequireSignedWhileOpen(loaded->contract, loaded->session.session_id, signed_at,
                                         NowText(deps));
        !ok) {
      reader.Problem("signedAt", ok.error().details.front().issue);
    }
  }
  std::string image;
  if (!image_base64.empty()) {
    auto decoded = Base64Decode(image_base64);
    if (!decoded || !decoded->starts_with("\x89PNG\r\n\x1a\n")) {
      reader.Problem("signatureImage", "must be a base64-encoded PNG image");
    } else {
      image = std::move(*decoded);
    }
  }
  if (auto ok = reader.Finish("invalid signature record"); !ok) return std::unexpected(ok.error());

  commands::SignerCompletion completion{
      .contract_id = loaded->contract.id,
      .participant_id = loaded->session.participant_id,
      .session_id = loaded->session.session_id,
      .channel = ExecutionChannel::kIntegratorManaged,
      .signer_name = signer_name,
      .signature_image = std::move(image),
      .signed_at = signed_at,
      .ip_address = ip,
      .user_agent = user_agent,
      .authentication_method = method,
      .document_sha256 = loaded->session.document_sha256,
      .reported_by = {{"reportedBy", request.Caller().client_id}}};
  if (const auto* values = body->if_contains("fieldValues")) completion.field_values = *values;
  auto outcome = commands::CompleteSignature(deps.commands, deps.blobs, nullptr, completion,
                                             DomainActor(request.Caller()), SigningMeta(request));
  if (!outcome) return std::unexpected(outcome.error());
  return SessionResponse(200, deps, outcome->state,
                         *outcome->state.FindSession(loaded->session.session_id));
}

// The integrator's signer attaches a file for an attachment field, before `complete` names it.
ApiResult UploadSessionAttachment(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireIntegratorManaged(loaded->session, "attaching a file"); !ok) {
    return std::unexpected(ok.error());
  }
  commands::AttachmentUpload upload{.contract_id = loaded->contract.id,
                                    .session_id = loaded->session.session_id,
                                    .name = std::string(request.Query("name").value_or("")),
                                    .media_type = std::string(request.Header("Content-Type")),
                                    .bytes = std::string(request.http.body())};
  auto uploaded =
      commands::UploadSignerAttachment(deps.commands, deps.blobs, std::move(upload),
                                       DomainActor(request.Caller()), SigningMeta(request));
  if (!uploaded) return std::unexpected(uploaded.error());
  return AttachmentResponse(*uploaded);
}

// 8: the integrator reports that its signer declined.
ApiResult DeclineSession(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionById(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireIntegratorManaged(loaded->session, "declining"); !ok) {
    return std::unexpected(ok.error());
  }
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"reason"});
  const std::string reason = reader.Text("reason", false, 2000);
  if (auto ok = reader.Finish("invalid decline"); !ok) return std::unexpected(ok.error());
  RecordSignerDeclined command{loaded->session.participant_id, reason, loaded->session.session_id};
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  return SessionResponse(200, deps, outcome->state,
                         *outcome->state.FindSession(loaded->session.session_id));
}

RouteSpec Bearer(std::string operation_id, const SigningRoutesDeps& deps,
                 ApiResult (*handler)(const SigningRoutesDeps&, const ApiRequest&)) {
  return RouteSpec{std::move(operation_id), Auth::kBearer,
                   [deps, handler](const ApiRequest& request) { return handler(deps, request); }};
}

}  // namespace

void AddIntegratorSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps) {
  const std::string contracts = "/api/v1/contracts/{id}/signing-sessions";
  const std::string sessions = "/api/v1/signing-sessions/{sessionId}";
  routes.Add(verb::post, contracts, Bearer("createSigningSession", deps, CreateSession));
  routes.Add(verb::get, contracts, Bearer("listSigningSessions", deps, ListSessions));
  routes.Add(verb::get, sessions, Bearer("getSigningSession", deps, GetSession));
  routes.Add(verb::post, sessions + "/cancel", Bearer("cancelSigningSession", deps, CancelSession));
  routes.Add(verb::post, sessions + "/refresh",
             Bearer("refreshSigningSession", deps, RefreshSession));
  routes.Add(verb::get, sessions + "/document",
             Bearer("downloadSigningSessionDocument", deps, SessionDocument));
  routes.Add(verb::post, sessions + "/complete",
             Bearer("completeSigningSession", deps, CompleteSession));
  routes.Add(verb::post, sessions + "/decline",
             Bearer("declineSigningSession", deps, DeclineSession));
  RouteSpec attach = Bearer("uploadSigningSessionAttachment", deps, UploadSessionAttachment);
  attach.body_types = BodyTypes::kAttachment;
  routes.Add(verb::post, sessions + "/attachments", std::move(attach));
}

void AddSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps) {
  AddIntegratorSigningRoutes(routes, deps);
  AddHostedSigningRoutes(routes, deps);
  AddEmbeddedSigningRoutes(routes, deps);
}

}  // namespace esign::http
