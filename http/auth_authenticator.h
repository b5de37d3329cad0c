// TokenAuthenticator: turns a bearer access token into the Principal of its client.
// A token is active when its MAC is right (constant-time comparison), it has not expired, its
// client still exists in the directory for the token's organization, and its id is not revoked.
// Every failure is the same kUnauthenticated "invalid or expired token": which check failed is
// not revealed, except that a token whose MAC is right and whose time is up is refused with
// "the access token expired at <exp, RFC 3339>" (its payload says as much to whoever holds it). No
// storage is read (the directory is in memory). The form and MAC of a token seen before come from a
// VerifiedTokenCache (auth_token_cache.h), so a repeated token costs two hash look-ups and the
// checks that can change: expiry, the client, revocation. Thread safety: Authenticate and Active
// may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "domain/clock.h"
#include "http/api.h"
#include "http/auth_token_cache.h"
#include "http/auth_tokens.h"
#include "projections/client_directory.h"

namespace esign::http {

class TokenAuthenticator final : public Authenticator {
 public:
  // Everything given must outlive the authenticator.
  TokenAuthenticator(const TokenCodec& codec, const projections::ClientDirectory& directory,
                     const Clock& clock = SystemClock::Instance())
      : codec_(codec), directory_(directory), clock_(clock) {}

  Result<Principal> Authenticate(std::string_view token) const override;

  // The claims of an active token; std::nullopt for any inactive, malformed or forged one.
  std::optional<TokenClaims> Active(std::string_view token) const;

 private:
  // The claims of a token whose form and MAC are right, from the cache or checked now; null for
  // any other.
  std::shared_ptr<const TokenClaims> Verified(std::string_view token, int64_t now_seconds) const;
  // The claims of an active token; null for any other.
  std::shared_ptr<const TokenClaims> ActiveClaims(std::string_view token) const;
  // Whether the client of a verified token still exists in the token's organization and the
  // token is not revoked.
  bool Current(const TokenClaims& claims) const;

  const TokenCodec& codec_;
  const projections::ClientDirectory& directory_;
  const Clock& clock_;
  mutable VerifiedTokenCache verified_;
};

}  // namespace esign::http
