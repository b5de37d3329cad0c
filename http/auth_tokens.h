// Access tokens: self-contained and signed, so checking one needs no storage read.
//
//   "at." + base64url(payload) + "." + base64url(HMAC-SHA256(key, "at." + base64url(payload)))
//   payload: {"jti":"tok_...","sub":"<clientId>","org":"<organizationId>",
//             "scope":"<permissions, space-separated>","iat":<seconds>,"exp":<seconds>}
//
// The key is 32 random bytes of the service (auth_token_key.h). TokenCodec checks only the form
// and the MAC; expiry, revocation and the client's existence are the authenticator's
// (auth_authenticator.h).
//
// Thread safety: a TokenCodec is immutable after construction; every method may be called from
// any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/hmac.h"
#include "domain/result.h"

namespace esign::http {

struct TokenClaims {
  std::string token_id;         // jti
  std::string client_id;        // sub
  std::string organization_id;  // org
  std::vector<std::string> scope;
  int64_t issued_at = 0;   // iat, seconds since the epoch
  int64_t expires_at = 0;  // exp, seconds since the epoch

  std::string ScopeString() const;  // space-separated
};

// Longest token text accepted; longer input is refused before any work.
inline constexpr size_t kMaxTokenLength = 4096;

class TokenCodec {
 public:
  // `key` must be 32 bytes (kInternal otherwise).
  static Result<std::unique_ptr<TokenCodec>> Create(std::string_view key);
  TokenCodec(const TokenCodec&) = delete;
  TokenCodec& operator=(const TokenCodec&) = delete;

  std::string Issue(const TokenClaims& claims) const;
  // The claims of a well-formed token whose MAC is right; kUnauthenticated otherwise.
  Result<TokenClaims> Verify(std::string_view token) const;

 private:
  explicit TokenCodec(std::string_view key) : key_(key) {}

  HmacSha256Key key_;  // its precomputed pads make a MAC several times cheaper than a one-shot
};

}  // namespace esign::http
