// HMAC-SHA256 (RFC 2104, FIPS 198-1): provider callback signatures, webhook signatures, list
// cursors, Kafka message MACs and access tokens.
//
// HmacSha256Key hashes the key's inner and outer pads once; each MAC then copies those digest
// states, about a sixth of the cost of OpenSSL's one-shot HMAC(), which sets up its digest for
// every call. HmacSha256 is the same computation for a key used once.
// As in sha256.h, OpenSSL fails here only when it cannot allocate, and the process stops.
//
// Thread safety: an HmacSha256Key is immutable after construction; Sign may be called from any
// thread at once.
#pragma once

#include <memory>
#include <string_view>

#include "base/sha256.h"

struct evp_md_ctx_st;

namespace esign {

class HmacSha256Key {
 public:
  // Any length: a key longer than SHA-256's 64-byte block is hashed first, as RFC 2104 says.
  explicit HmacSha256Key(std::string_view key);

  Sha256Digest Sign(std::string_view message) const;

 private:
  struct ContextFree {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  using Context = std::unique_ptr<evp_md_ctx_st, ContextFree>;
  Context inner_;  // SHA-256 state after (key ^ ipad)
  Context outer_;  // SHA-256 state after (key ^ opad)
};

Sha256Digest HmacSha256(std::string_view key, std::string_view message);

// Whether two secrets (MACs, keyed hashes, codes) are equal, in a time that depends on their
// lengths only, so a guess cannot be improved one byte at a time.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace esign
