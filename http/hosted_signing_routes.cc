// Operations 9-12: the hosted signing page's own API (with the document's pages as images,
// hosted_document_pages.h), and how a signer proves who they are on it
// (DESIGN section 15). The link's token in the path is the credential; a signer whose participant
// has an authentication method other than none also sends the proof (header Signer-Proof) that
// typing the right code earned. Every answer about a dead link says why it is dead (expired,
// cancelled, replaced, already used, locked), so the page can tell the signer.
#include "base/time_text.h"
#include "commands/signer_completion.h"
#include "domain/field_value.h"
#include "domain/placed_field_rules.h"
#include "domain/signer_authentication.h"
#include "domain/signing_settings.h"
#include "http/contract_routes.h"
#include "http/hosted_document_pages.h"
#include "http/organization_routes.h"
#include "http/signing_access.h"
#include "http/signing_request.h"
#include "http/signing_routes.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

std::string RoleName(const SigningRoutesDeps& deps, const ContractState& contract,
                     std::string_view participant_id) {
  const RoleBinding* binding = contract.BindingOf(participant_id);
  // A contract from uploads names its roles "Participant N"; one from a template made from
  // uploads has that template's roles, found below.
  if (binding != nullptr && contract.from_uploads() && contract.template_id.empty()) {
    const TemplateVersion version = UploadsTemplateVersion(contract);
    const RoleDef* role = version.FindRole(binding->template_role_id);
    return role != nullptr ? role->name : binding->template_role_id;
  }
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

SignerAuthentication MethodOf(const LoadedSession& loaded) {
  const Participant* signer = loaded.contract.FindParticipant(loaded.session.participant_id);
  return signer ? signer->authentication : SignerAuthentication::kNone;
}

// After five wrong codes the link serves nothing more: the sender creates a new session.
Status RequireUnlocked(const LoadedSession& loaded) {
  if (!loaded.session.locked) return {};
  return Fail(ErrorCode::kSigningSessionLocked,
              "this signing link is locked after too many wrong codes; ask the sender for a new "
              "link",
              "token", "locked");
}

// The number of the proof this request carries (0: the signer has nothing to prove), or
// nullopt when a proof is needed and missing or invalid.
std::optional<int> ProofOf(const SigningRoutesDeps& deps, const ApiRequest& request,
                           const LoadedSession& loaded) {
  if (MethodOf(loaded) == SignerAuthentication::kNone) return 0;
  if (deps.signer_secrets == nullptr) return std::nullopt;
  return ProvenAuthentication(*deps.signer_secrets, loaded.session,
                              request.Header("Signer-Proof").substr(0, 128));
}

Result<int> RequireProof(const SigningRoutesDeps& deps, const ApiRequest& request,
                         const LoadedSession& loaded) {
  if (auto proof = ProofOf(deps, request, loaded)) return *proof;
  return Fail(ErrorCode::kSignerAuthenticationRequired,
              "the signer must first give the code asked for (" +
                  std::string(ToString(MethodOf(loaded))) + ")",
              "Signer-Proof", "missing or invalid");
}

int RemainingAttempts(const SigningSession& session) {
  return std::max(0, kMaxSignerCodeFailures - session.failed_attempts);
}

boost::json::object AuthenticationJson(const SigningRoutesDeps& deps, const ApiRequest& request,
                                       const LoadedSession& loaded) {
  const SignerAuthentication method = MethodOf(loaded);
  boost::json::object out{{"method", ToString(method)},
                          {"required", !ProofOf(deps, request, loaded).has_value()},
                          {"locked", loaded.session.locked},
                          {"remainingAttempts", RemainingAttempts(loaded.session)}};
  const Participant* signer = loaded.contract.FindParticipant(loaded.session.participant_id);
  if (method == SignerAuthentication::kEmailOtp && signer && signer->email) {
    out["emailHint"] = MaskedEmail(*signer->email);
  }
  return out;
}

// {organizationName, accentColor, logo}: what the page shows of the sending organization; nulls
// and false where it set nothing.
Result<boost::json::object> BrandingJson(const SigningRoutesDeps& deps,
                                         const std::string& organization_id) {
  auto profile = OrganizationOf(deps, organization_id);
  if (!profile) return std::unexpected(profile.error());
  return boost::json::object{{"organizationName", TextOrNull(profile->contact.name)},
                             {"accentColor", TextOrNull(profile->settings.accent_color)},
                             {"logo", !profile->settings.logo_sha256.empty()}};
}

ApiResult GetHosted(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Readable(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireUnlocked(*loaded); !ok) return std::unexpected(ok.error());
  const ContractState& contract = loaded->contract;
  const SigningSession& session = loaded->session;
  const Participant* signer = contract.FindParticipant(session.participant_id);
  boost::json::object authentication = AuthenticationJson(deps, request, *loaded);
  const bool unproven = authentication["required"].as_bool();
  std::string email = signer && signer->email ? *signer->email : "";
  if (unproven && !email.empty()) email = MaskedEmail(email);
  boost::json::object body{
      {"sessionId", session.session_id},
      {"contractId", contract.id},
      {"contractTitle", contract.title},
      {"participantId", session.participant_id},
      {"signerName", signer ? signer->name : ""},
      {"signerEmail", email},
      {"roleName", RoleName(deps, contract, session.participant_id)},
      {"state", ToString(EffectiveState(session, contract, NowText(deps)))},
      {"expiresAt", session.expires_at},
      {"documentSha256", session.document_sha256},
      {"allowDecline", AllowsDecline(contract.signing_settings)},
      {"returnUrl", session.return_url.empty() ? boost::json::value(nullptr)
                                               : boost::json::value(session.return_url)},
      {"authentication", std::move(authentication)}};
  if (signer && signer->signed_at) body["signedAt"] = *signer->signed_at;
  if (signer && signer->declined_at) body["declinedAt"] = *signer->declined_at;
  auto branding = BrandingJson(deps, contract.organization_id);
  if (!branding) return std::unexpected(branding.error());
  body["branding"] = std::move(*branding);
  return ApiResponse::Json(200, body).WithHeader("Cache-Control", "no-store");
}

// The organization's logo, re-encoded when it was set (documents/logo_image.h): to anyone with a
// link that still reads, proven or not, as the logo says nothing about the document.
ApiResult HostedLogo(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Readable(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  auto profile = OrganizationOf(deps, loaded->contract.organization_id);
  if (!profile) return std::unexpected(profile.error());
  auto logo = LogoResponse(deps.blobs, profile->settings);
  if (!logo) return logo;
  return logo->WithHeader("Cache-Control", "no-store");
}

// A session whose document the signer may see: readable, unlocked, and proven when asked. The
// PDF and its page images are guarded by this one check.
Result<LoadedSession> DocumentReader(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Readable(deps, request);
  if (!loaded) return loaded;
  if (auto ok = RequireUnlocked(*loaded); !ok) return std::unexpected(ok.error());
  if (auto proof = RequireProof(deps, request, *loaded); !proof) {
    return std::unexpected(proof.error());
  }
  return loaded;
}

ApiResult HostedDocument(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = DocumentReader(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  return DocumentToSign(deps, request, *loaded);
}

ApiResult HostedPages(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = DocumentReader(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  return HostedDocumentPages(deps, *loaded);
}

ApiResult HostedPageImage(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = DocumentReader(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  return HostedDocumentPageImage(deps, request, *loaded);
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

// A session the signer may act through now: unlocked, open, and proven when asked.
Result<LoadedSession> Actionable(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionByToken(deps, request.params.Get("token"));
  if (!loaded) return loaded;
  if (auto ok = RequireUnlocked(*loaded); !ok) return std::unexpected(ok.error());
  if (auto ok = RequireUsable(deps, *loaded); !ok) return std::unexpected(ok.error());
  if (auto proven = RequireProof(deps, request, *loaded); !proven) {
    return std::unexpected(proven.error());
  }
  return loaded;
}

ApiResult CompleteHosted(const SigningRoutesDeps& deps, const ApiRequest& request) {
  // The link here; the proof is the signing command's to check, with everything else it decides.
  auto loaded = LoadSessionByToken(deps, request.params.Get("token"));
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireUnlocked(*loaded); !ok) return std::unexpected(ok.error());
  if (auto ok = RequireUsable(deps, *loaded); !ok) return std::unexpected(ok.error());
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"signatureText", "consent", "fieldValues"});
  const std::string signature = reader.Text("signatureText", true, 200);
  if (reader.Boolean("consent") != true) {
    reader.Problem("consent", "must be true: the signer agrees to sign electronically");
  }
  if (auto ok = reader.Finish("invalid signature"); !ok) return std::unexpected(ok.error());
  const Participant* signer = loaded->contract.FindParticipant(loaded->session.participant_id);
  commands::SignerCompletion completion{
      .contract_id = loaded->contract.id,
      .participant_id = loaded->session.participant_id,
      .session_id = loaded->session.session_id,
      .channel = ExecutionChannel::kPlatformHosted,
      .link_sha256 = loaded->link_sha256,
      .signer_proof = std::string(request.Header("Signer-Proof")),
      .signer_name = signer != nullptr ? signer->name : "",
      .signature_text = signature,
      .ip_address = request.remote_ip,
      .user_agent = std::string(request.UserAgent().substr(0, 512)),
      .document_sha256 = loaded->session.document_sha256};
  if (const auto* values = body->if_contains("fieldValues")) completion.field_values = *values;
  // The signer has no API identity, as in Run above.
  auto outcome =
      commands::CompleteSignature(deps.commands, deps.blobs, deps.signer_secrets,
                                  std::move(completion), esign::Actor{}, SigningMeta(request));
  if (!outcome) return std::unexpected(outcome.error());
  return Outcome(*outcome, *loaded, "completed");
}

// The signer attaches a file for an attachment field; the page then names it in `complete`.
ApiResult UploadHostedAttachment(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Actionable(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  commands::AttachmentUpload upload{.contract_id = loaded->contract.id,
                                    .session_id = loaded->session.session_id,
                                    .link_sha256 = loaded->link_sha256,
                                    .name = std::string(request.Query("name").value_or("")),
                                    .media_type = std::string(request.Header("Content-Type")),
                                    .bytes = std::string(request.http.body())};
  // The signer has no API identity, as in Run above.
  auto uploaded = commands::UploadSignerAttachment(deps.commands, deps.blobs, std::move(upload),
                                                   esign::Actor{}, SigningMeta(request));
  if (!uploaded) return std::unexpected(uploaded.error());
  return AttachmentResponse(*uploaded);
}

ApiResult DeclineHosted(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Actionable(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"reason"});
  const std::string reason = reader.Text("reason", false, 2000);
  if (auto ok = reader.Finish("invalid decline"); !ok) return std::unexpected(ok.error());
  RecordSignerDeclined command{loaded->session.participant_id, reason, loaded->session.session_id,
                               loaded->link_sha256};
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  return Outcome(*outcome, *loaded, "declined");
}

// A session a signer proves themselves through: unlocked and open (a proof is what they seek).
Result<LoadedSession> Authenticating(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = LoadSessionByToken(deps, request.params.Get("token"));
  if (!loaded) return loaded;
  if (auto ok = RequireUnlocked(*loaded); !ok) return std::unexpected(ok.error());
  if (auto ok = RequireUsable(deps, *loaded); !ok) return std::unexpected(ok.error());
  if (deps.signer_secrets == nullptr) {
    return Fail(ErrorCode::kUnavailable, "signer authentication is not available here");
  }
  return loaded;
}

// The body may be absent or {}: the request asks for nothing but the next code.
ApiResult SendEmailCode(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Authenticating(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  if (auto ok = RequireNoMembers(request, "invalid code request"); !ok) {
    return std::unexpected(ok.error());
  }
  const std::string expires_at =
      FormatTimestamp(deps.clock.NowMicros() + kEmailCodeTtlSeconds * kMicrosPerSecond);
  SendSignerCode command{loaded->session.session_id, loaded->link_sha256, expires_at};
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  const SigningSession* session = outcome->state.FindSession(loaded->session.session_id);
  const int sent = session ? session->codes_sent : 0;
  const Participant* signer = loaded->contract.FindParticipant(loaded->session.participant_id);
  return ApiResponse::Json(
             202, {{"emailHint", signer && signer->email ? MaskedEmail(*signer->email) : ""},
                   {"expiresAt", session ? session->code_expires_at : expires_at},
                   {"codesRemaining", std::max(0, kMaxEmailCodesPerSession - sent)},
                   {"resendAfterSeconds", kEmailCodeIntervalSeconds}})
      .WithHeader("Cache-Control", "no-store");
}

ApiResult Authenticate(const SigningRoutesDeps& deps, const ApiRequest& request) {
  auto loaded = Authenticating(deps, request);
  if (!loaded) return std::unexpected(loaded.error());
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"code"});
  const std::string code = reader.Text("code", true, kMaxTypedCodeLength);
  if (auto ok = reader.Finish("invalid code"); !ok) return std::unexpected(ok.error());
  const Participant* signer = loaded->contract.FindParticipant(loaded->session.participant_id);
  if (signer == nullptr || signer->authentication == SignerAuthentication::kNone) {
    return Fail(ErrorCode::kSigningSessionStateConflict, "this signer has no code to give",
                "authentication", "none");
  }
  const SignerCodeCheck check = CheckSignerCode(loaded->contract.id, loaded->session, *signer, code,
                                                *deps.signer_secrets, NowText(deps));
  if (check == SignerCodeCheck::kSpent) {
    Error error = SpentCodeError();
    error.details.push_back(
        ErrorDetail{"remainingAttempts", std::to_string(RemainingAttempts(loaded->session))});
    return std::unexpected(std::move(error));
  }
  RecordSignerAuthentication command{loaded->session.session_id, loaded->link_sha256, check,
                                     loaded->session.codes_sent};
  auto outcome = Run(deps, request, loaded->contract.id, command);
  if (!outcome) return std::unexpected(outcome.error());
  const SigningSession* session = outcome->state.FindSession(loaded->session.session_id);
  if (session == nullptr) return Fail(ErrorCode::kInternal, "the session vanished");
  if (check == SignerCodeCheck::kMatched) {
    const int n = static_cast<int>(session->authenticated_at.size());
    return ApiResponse::Json(
               200,
               {{"signerProof", SignerProofHeader(*deps.signer_secrets, session->session_id, n)},
                {"method", ToString(signer->authentication)},
                {"authenticatedAt", session->authenticated_at.back()}})
        .WithHeader("Cache-Control", "no-store");
  }
  Error error{ErrorCode::kSignerAuthenticationFailed,
              check == SignerCodeCheck::kExpired ? "the code has expired: ask for a new one"
                                                 : "the code is not right",
              {}};
  error.details.push_back(
      ErrorDetail{"code", check == SignerCodeCheck::kExpired ? "expired" : "wrong"});
  error.details.push_back(
      ErrorDetail{"remainingAttempts", std::to_string(RemainingAttempts(*session))});
  return std::unexpected(std::move(error));
}

RouteSpec ByToken(std::string operation_id, const SigningRoutesDeps& deps,
                  ApiResult (*handler)(const SigningRoutesDeps&, const ApiRequest&)) {
  return RouteSpec{
      .operation_id = std::move(operation_id),
      .auth = Auth::kNone,
      .handler = [deps, handler](const ApiRequest& request) { return handler(deps, request); },
      .link_param = "token"};
}

}  // namespace

void AddHostedSigningRoutes(ApiRoutes& routes, const SigningRoutesDeps& deps) {
  const std::string base = "/api/v1/hosted-signing/{token}";
  routes.Add(verb::get, base, ByToken("getHostedSigningSession", deps, GetHosted));
  routes.Add(verb::get, base + "/document",
             ByToken("downloadHostedSigningDocument", deps, HostedDocument));
  routes.Add(verb::get, base + "/document/pages",
             ByToken("getHostedSigningDocumentPages", deps, HostedPages));
  routes.Add(verb::get, base + "/document/pages/{page}",
             ByToken("getHostedSigningDocumentPageImage", deps, HostedPageImage));
  routes.Add(verb::post, base + "/complete",
             ByToken("completeHostedSigning", deps, CompleteHosted));
  routes.Add(verb::post, base + "/decline", ByToken("declineHostedSigning", deps, DeclineHosted));
  routes.Add(verb::get, base + "/logo", ByToken("getHostedSigningLogo", deps, HostedLogo));
  RouteSpec attach = ByToken("uploadHostedSigningAttachment", deps, UploadHostedAttachment);
  attach.body_types = BodyTypes::kAttachment;
  routes.Add(verb::post, base + "/attachments", std::move(attach));
  routes.Add(verb::post, base + "/authentication",
             ByToken("authenticateHostedSigner", deps, Authenticate));
  routes.Add(verb::post, base + "/authentication/email-code",
             ByToken("sendHostedSignerEmailCode", deps, SendEmailCode));
}

}  // namespace esign::http
