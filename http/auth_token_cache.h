// VerifiedTokenCache: a bounded memo of access tokens whose form and MAC have been checked, so
// that a client repeating its token skips the base64 decoding, the HMAC and the JSON parse.
// It remembers only what TokenCodec::Verify proved, which depends on the token's bytes and the
// key alone; expiry, revocation and the client's existence change over time and stay the
// authenticator's checks on every request.
//
// Look-ups hash the token's end (its MAC) and match the whole token text, compared in constant
// time. Only verified tokens are
// inserted, so callers cannot fill it with forgeries; when it is full, the expired entries go,
// and if that frees nothing, everything does.
// Thread safety: every method may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "http/auth_tokens.h"

namespace esign::http {

// Tokens remembered at most; about 0.5 KB each.
inline constexpr size_t kVerifiedTokenCacheCapacity = 4096;

class VerifiedTokenCache {
 public:
  explicit VerifiedTokenCache(size_t capacity = kVerifiedTokenCacheCapacity)
      : capacity_(capacity) {}

  // The claims of `token` if it was inserted and is still held; null otherwise.
  std::shared_ptr<const TokenClaims> Find(std::string_view token) const;
  // Remembers a verified token. `now_seconds` decides which entries have expired when the cache
  // is full.
  void Insert(std::string_view token, const std::shared_ptr<const TokenClaims>& claims,
              int64_t now_seconds);
  size_t size() const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const;
  };
  struct ConstantTimeEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const;
  };

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const TokenClaims>, Hash, ConstantTimeEqual>
      entries_;  // guarded by mutex_
};

}  // namespace esign::http
