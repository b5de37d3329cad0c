#include "http/auth_service.h"

#include <algorithm>

#include "base/time_text.h"

namespace esign::http {
namespace {

// Longer ids or secrets than any the service issues are refused without a look-up, but only
// after the same hashing work, so their answer takes as long as any other.
constexpr size_t kMaxCredentialLength = 512;

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
      ids_(ids) {
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
