// TokenAuthenticator: turns a bearer access token into the Principal of its client.
// A token is active when its MAC is right (constant-time comparison), it has not expired, its
// client still exists in the directory for the token's organization, and its id is not revoked.
// Every failure is the same kUnauthenticated "invalid or expired token": which check failed is
// not revealed. No storage is read (the directory is in memory), so a check costs a few
// microseconds, most of them in parsing the payload.
// Thread safety: Authenticate and Active may be called from any thread.
#pragma once

#include <optional>
#include <string_view>

#include "domain/clock.h"
#include "http/api.h"
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
  const TokenCodec& codec_;
  const projections::ClientDirectory& directory_;
  const Clock& clock_;
};

}  // namespace esign::http
