#include "http/provider_callback_routes.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "base/hex.h"
#include "base/hmac.h"
#include "commands/signer_completion.h"
#include "http/contract_routes.h"
#include "http/signing_access.h"
#include "http/signing_request.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

constexpr int64_t kToleranceSeconds = 300;

std::unexpected<Error> Unauthenticated(std::string field, std::string issue) {
  return std::unexpected(Error::Of(ErrorCode::kProviderSignatureInvalid,
                                   "the callback's signature does not authenticate it",
                                   std::move(field), std::move(issue)));
}

// Signatures accepted within the tolerance window: the same request again is a replay. Older
// ones need not be kept, since their timestamp is refused anyway.
class ReplayGuard {
 public:
  // False when `signature` was already accepted.
  bool Accept(const std::string& signature, int64_t timestamp, int64_t now) {
    std::lock_guard lock(mutex_);
    std::erase_if(seen_, [&](const auto& entry) { return entry.second < now - kToleranceSeconds; });
    return seen_.emplace(signature, timestamp).second;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, int64_t> seen_;
};

std::string RandomSecret() {
  std::array<uint8_t, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) std::abort();
  return ToHex(bytes);
}

Status Authenticate(const ProviderCallbackDeps& deps, const ApiRequest& request,
                    const std::string& provider_id, ReplayGuard& replays) {
  // An unknown provider is checked against a secret nobody knows, so its answer and its time
  // are those of a wrong signature: provider ids cannot be enumerated without credentials.
  static const std::string kNobodysSecret = RandomSecret();
  const auto secret = deps.provider_secret(provider_id);
  const std::string& key = secret ? *secret : kNobodysSecret;
  const std::string_view timestamp_text = request.Header("X-Provider-Timestamp");
  int64_t timestamp = 0;
  auto [end, ec] = std::from_chars(timestamp_text.data(),
                                   timestamp_text.data() + timestamp_text.size(), timestamp);
  if (timestamp_text.empty() || ec != std::errc() ||
      end != timestamp_text.data() + timestamp_text.size()) {
    return Unauthenticated("X-Provider-Timestamp", "required: seconds since the epoch");
  }
  const int64_t now = deps.timestamp_clock.NowMicros() / 1000000;
  if (timestamp < now - kToleranceSeconds || timestamp > now + kToleranceSeconds) {
    return Unauthenticated("X-Provider-Timestamp", "more than 5 minutes from the service's clock");
  }
  const std::string expected = ProviderSignature(key, timestamp_text, request.http.body());
  const std::string_view given = request.Header("X-Provider-Signature");
  if (!secret || given.size() != expected.size() ||
      CRYPTO_memcmp(given.data(), expected.data(), expected.size()) != 0) {
    return Unauthenticated("X-Provider-Signature", "does not match");
  }
  if (!replays.Accept(expected, timestamp, now)) {
    return Fail(ErrorCode::kProviderCallbackReplayed, "this callback was already received",
                "X-Provider-Signature", "replayed");
  }
  return {};
}

ApiResult Callback(const ProviderCallbackDeps& deps, ReplayGuard& replays,
                   const ApiRequest& request) {
  const std::string provider_id(request.params.Get("providerId"));
  if (auto ok = Authenticate(deps, request, provider_id, replays); !ok) {
    return std::unexpected(ok.error());
  }
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"eventId", "sessionId", "outcome", "signerName", "signedAt",
                            "authenticationMethod", "reason"});
  const std::string event_id = reader.Text("eventId", true, 128);
  const std::string session_id = reader.Text("sessionId", true, 64);
  const std::string outcome = reader.Text("outcome", true, 16);
  const std::string signer_name = reader.Text("signerName", false, 200);
  const std::string signed_at = reader.Text("signedAt", false, 64);
  const std::string method = reader.Text("authenticationMethod", false, 64);
  const std::string reason = reader.Text("reason", false, 2000);
  if (!outcome.empty() && outcome != "completed" && outcome != "declined") {
    reader.Problem("outcome", "must be completed or declined");
  }
  if (auto ok = reader.Finish("invalid provider callback"); !ok) {
    return std::unexpected(ok.error());
  }

  const SigningRoutesDeps& signing = deps.signing;
  auto location = FindSessionLocation(signing, session_id);
  if (!location) return std::unexpected(location.error());
  std::optional<ContractState> contract;
  if (*location) {
    auto found = signing.commands.Load((*location)->contract_id);
    if (found) contract = std::move(*found);
  }
  const SigningSession* session = contract ? contract->FindSession(session_id) : nullptr;
  if (session == nullptr || session->channel != ExecutionChannel::kProviderManaged ||
      session->provider_id != provider_id) {
    return Fail(ErrorCode::kSigningSessionNotFound,
                "no session " + session_id + " of provider " + provider_id, "sessionId",
                "unknown session");
  }
  const SessionState state = EffectiveState(*session, *contract, NowText(signing));
  if (state == SessionState::kCompleted || state == SessionState::kDeclined) {
    return ApiResponse::Json(200, {{"sessionId", session_id},
                                   {"state", ToString(state)},
                                   {"contractStatus", ToString(contract->status)},
                                   {"duplicate", true}});
  }

  const std::string provider_client = "provider:" + provider_id;
  Result<commands::CommandOutcome> done;
  if (outcome == "completed") {
    const Participant* signer = contract->FindParticipant(session->participant_id);
    commands::SignerCompletion completion{
        .contract_id = contract->id,
        .participant_id = session->participant_id,
        .session_id = session_id,
        .channel = ExecutionChannel::kProviderManaged,
        .signer_name = signer_name.empty() && signer ? signer->name : signer_name,
        .signed_at = signed_at,
        .authentication_method = method.empty() ? "provider" : method,
        .document_sha256 = session->document_sha256,
        .reported_by = {{"providerId", provider_id}, {"providerEventId", event_id}}};
    done = commands::CompleteSignature(signing.commands, signing.blobs, nullptr, completion,
                                       esign::Actor{}, SigningMeta(request, provider_client));
  } else {
    done = ExecuteSigning(signing, request, contract->id,
                          RecordSignerDeclined{session->participant_id, reason, session_id},
                          esign::Actor{}, provider_client);
  }
  if (!done) return std::unexpected(done.error());
  return ApiResponse::Json(200, {{"sessionId", session_id},
                                 {"state", outcome},
                                 {"contractStatus", ToString(done->state.status)},
                                 {"duplicate", false}});
}

}  // namespace

std::string ProviderSignature(std::string_view secret, std::string_view timestamp,
                              std::string_view body) {
  std::string message(timestamp);
  message.push_back('.');
  message.append(body);
  return "v1=" + ToHex(HmacSha256(secret, message));
}

void AddProviderCallbackRoutes(ApiRoutes& routes, const ProviderCallbackDeps& deps) {
  auto replays = std::make_shared<ReplayGuard>();
  routes.Add(
      verb::post, "/api/v1/provider-callbacks/{providerId}",
      RouteSpec{"receiveProviderCallback", Auth::kNone, [deps, replays](const ApiRequest& request) {
                  return Callback(deps, *replays, request);
                }});
}

}  // namespace esign::http
