#include "http/auth_service.h"

#include <algorithm>

#include "base/time_text.h"

namespace esign::http {
namespace {

// Longer ids or secrets than any the service issues are refused without a look-up, but only
// after the same hashing work, so their answer takes as long as any other.
constexpr size_t kMaxCredentialLength = 512;

// A full queue empties in about its length times a check's 30 ms over the check threads: with
// the defaults (64, two threads) about a second.
constexpr int64_t kQueueFullRetryAfterSeconds = 1;

std::unexpected<Error> InvalidClient() {
  return Fail(ErrorCode::kInvalidClient, "client authentication failed");
}

}  // namespace

AuthService::AuthService(commands::ClientCommandHandler& clients,
                         const projections::ClientDirectory& directory, const TokenCodec& codec,
                         const TokenAuthenticator& authenticator, AuthServiceOptions options,
                         const Clock& clock, IdGenerator& ids)
    : clients_(clients),
      directory_(directory),
      codec_(codec),
      authenticator_(authenticator),
      options_(options),
      clock_(clock),
      ids_(ids),
      throttle_(options.throttle),
      checks_(std::make_unique<WorkQueue>(std::max<size_t>(1, options.check_threads),
                                          options.check_queue, "esign-auth")) {
  // The secret hashed here is thrown away: nobody can present it.
  auto dummy = commands::HashSecret(commands::NewClientSecret(), options_.pbkdf2_iterations);
  if (dummy) dummy_hash_ = std::move(*dummy);
}

Result<IssuedToken> AuthService::IssueToken(std::string_view client_id,
                                            std::string_view client_secret,
                                            const std::vector<std::string>* scope) const {
  const bool plausible =
      client_id.size() <= kMaxCredentialLength && client_secret.size() <= kMaxCredentialLength;
  const auto client = plausible ? directory_.FindClient(client_id) : nullptr;
  // Always one full verification, so the time taken says nothing about the client's existence.
  const bool verified =
      commands::VerifySecret(client_secret, client ? client->secret_hash : dummy_hash_);
  if (!client || !verified) return InvalidClient();
  if (scope) {
    for (const auto& permission : *scope) {
      if (std::find(client->permissions.begin(), client->permissions.end(), permission) ==
          client->permissions.end()) {
        return Fail(ErrorCode::kPermissionDenied,
                    "the requested scope is not granted to this client", "scope", permission);
      }
    }
  }

  const int64_t now = clock_.NowMicros() / kMicrosPerSecond;
  TokenClaims claims{
      .token_id = ids_.Next("tok_"),
      .client_id = client->client_id,
      .organization_id = client->organization_id,
      .scope = scope ? *scope : client->permissions,
      .issued_at = now,
      .expires_at = now + options_.token_lifetime_seconds,
  };
  return IssuedToken{
      .access_token = codec_.Issue(claims),
      .expires_in = options_.token_lifetime_seconds,
      .scope = claims.ScopeString(),
  };
}

void AuthService::IssueTokenAsync(TokenRequest request, std::function<void(TokenAnswer)> done) {
  const Admission admission =
      throttle_.Admit(request.client_id, request.remote_ip, std::chrono::steady_clock::now());
  if (!admission.admitted) {
    return done(
        TokenAnswer{Fail(ErrorCode::kRateLimited, "too many failed authentications; retry later"),
                    std::max<int64_t>(1, (admission.retry_after.count() + 999) / 1000)});
  }
  // The task owns the request; these stay here in case the queue refuses it.
  const std::string client_id = request.client_id;
  const std::string remote_ip = request.remote_ip;
  auto shared_done = std::make_shared<std::function<void(TokenAnswer)>>(std::move(done));
  auto check = [this, request = std::move(request), shared_done] {
    auto issued = IssueToken(request.client_id, request.client_secret,
                             request.scope ? &*request.scope : nullptr);
    if (issued || issued.error().code != ErrorCode::kInvalidClient) {
      throttle_.Forgive(request.client_id, request.remote_ip);
    }
    (*shared_done)(TokenAnswer{std::move(issued)});
  };
  if (!checks_->TryPost(std::move(check))) {
    throttle_.Forgive(client_id, remote_ip);  // not checked: nothing failed
    (*shared_done)(TokenAnswer{
        Fail(ErrorCode::kUnavailable, "too many token requests are waiting; retry later"),
        kQueueFullRetryAfterSeconds});
  }
}

boost::json::object AuthService::Introspect(const Principal& caller, std::string_view token) const {
  auto claims = authenticator_.Active(token);
  // Another organization's token is reported inactive: its existence is not ours to reveal.
  if (!claims || claims->organization_id != caller.organization_id) {
    return boost::json::object{{"active", false}};
  }
  return boost::json::object{
      {"active", true},
      {"clientId", claims->client_id},
      {"organizationId", claims->organization_id},
      {"scope", claims->ScopeString()},
      {"exp", claims->expires_at},
      {"iat", claims->issued_at},
      {"tokenType", "Bearer"},
  };
}

Status AuthService::Revoke(const Principal& caller, std::string_view token,
                           const eventstore::Actor& actor) {
  auto claims = authenticator_.Active(token);
  if (!claims || claims->organization_id != caller.organization_id) return {};
  return clients_.RevokeToken({.token_id = claims->token_id,
                               .client_id = claims->client_id,
                               .expires_at = claims->expires_at},
                              actor);
}

}  // namespace esign::http
