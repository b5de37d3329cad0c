#include "http/auth_authenticator.h"

namespace esign::http {

std::optional<TokenClaims> TokenAuthenticator::Active(std::string_view token) const {
  auto claims = codec_.Verify(token);
  if (!claims) return std::nullopt;
  const int64_t now_seconds = clock_.NowMicros() / 1'000'000;
  if (claims->expires_at <= now_seconds) return std::nullopt;
  const auto state = directory_.Snapshot();
  const auto client = state->FindClient(claims->client_id);
  if (!client || client->organization_id != claims->organization_id) return std::nullopt;
  if (state->IsRevoked(claims->token_id)) return std::nullopt;
  return std::move(*claims);
}

Result<Principal> TokenAuthenticator::Authenticate(std::string_view token) const {
  auto claims = Active(token);
  if (!claims) return Fail(ErrorCode::kUnauthenticated, "invalid or expired token");
  return Principal{
      .client_id = std::move(claims->client_id),
      .organization_id = std::move(claims->organization_id),
      .permissions = std::move(claims->scope),
      .token_id = std::move(claims->token_id),
      .issued_at = claims->issued_at,
      .expires_at = claims->expires_at,
  };
}

}  // namespace esign::http
