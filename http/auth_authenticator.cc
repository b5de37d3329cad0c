#include "http/auth_authenticator.h"

#include "base/time_text.h"

namespace esign::http {

std::shared_ptr<const TokenClaims> TokenAuthenticator::Verified(std::string_view token,
                                                                int64_t now_seconds) const {
  if (auto known = verified_.Find(token)) return known;
  auto claims = codec_.Verify(token);
  if (!claims) return nullptr;
  auto shared = std::make_shared<const TokenClaims>(std::move(*claims));
  // An expired token never passes again: not worth a place.
  if (shared->expires_at > now_seconds) verified_.Insert(token, shared, now_seconds);
  return shared;
}

std::shared_ptr<const TokenClaims> TokenAuthenticator::ActiveClaims(std::string_view token) const {
  const int64_t now_seconds = clock_.NowMicros() / kMicrosPerSecond;
  auto claims = Verified(token, now_seconds);
  if (!claims || claims->expires_at <= now_seconds || !Current(*claims)) return nullptr;
  return claims;
}

bool TokenAuthenticator::Current(const TokenClaims& claims) const {
  const auto state = directory_.Snapshot();
  const auto client = state->FindClient(claims.client_id);
  return client && client->organization_id == claims.organization_id &&
         !state->IsRevoked(claims.token_id);
}

std::optional<TokenClaims> TokenAuthenticator::Active(std::string_view token) const {
  auto claims = ActiveClaims(token);
  if (!claims) return std::nullopt;
  return *claims;
}

Result<Principal> TokenAuthenticator::Authenticate(std::string_view token) const {
  const int64_t now_seconds = clock_.NowMicros() / kMicrosPerSecond;
  auto claims = Verified(token, now_seconds);
  // Only a token the MAC proves ours may say when it expired: a forged one learns nothing.
  if (claims && claims->expires_at <= now_seconds) {
    const std::string expired_at = FormatTimestamp(claims->expires_at * kMicrosPerSecond);
    return Fail(ErrorCode::kUnauthenticated, "the access token expired at " + expired_at,
                "Authorization", "expired at " + expired_at);
  }
  if (!claims || !Current(*claims))
    return Fail(ErrorCode::kUnauthenticated, "invalid or expired token");
  return Principal{
      .client_id = claims->client_id,
      .organization_id = claims->organization_id,
      .permissions = claims->scope,
      .token_id = claims->token_id,
      .issued_at = claims->issued_at,
      .expires_at = claims->expires_at,
  };
}

}  // namespace esign::http
