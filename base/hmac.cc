#include "base/hmac.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace esign {
namespace {

constexpr size_t kBlockBytes = 64;  // SHA-256's block

[[noreturn]] void HmacFailed() {
  std::fputs("fatal: HMAC-SHA256 computation failed in OpenSSL\n", stderr);
  std::abort();
}

// One scratch digest context per thread, so a MAC allocates no context of its own.
EVP_MD_CTX* ScratchContext() {
  thread_local std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                           &EVP_MD_CTX_free);
  return ctx.get();
}

// A SHA-256 state that has absorbed the key's block XOR `pad`.
EVP_MD_CTX* PaddedKeyState(const std::array<unsigned char, kBlockBytes>& block, unsigned char pad) {
  std::array<unsigned char, kBlockBytes> padded;
  for (size_t i = 0; i < kBlockBytes; ++i) padded[i] = block[i] ^ pad;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const bool ok = ctx != nullptr && EVP_DigestInit_ex2(ctx, EVP_sha256(), nullptr) == 1 &&
                  EVP_DigestUpdate(ctx, padded.data(), padded.size()) == 1;
  OPENSSL_cleanse(padded.data(), padded.size());
  if (!ok) HmacFailed();
  return ctx;
}

}  // namespace

void HmacSha256Key::ContextFree::operator()(evp_md_ctx_st* ctx) const { EVP_MD_CTX_free(ctx); }

HmacSha256Key::HmacSha256Key(std::string_view key) {
  std::array<unsigned char, kBlockBytes> block{};
  if (key.size() > kBlockBytes) {
    const Sha256Digest hashed = Sha256(key);
    std::copy(hashed.begin(), hashed.end(), block.begin());
  } else {
    std::copy(key.begin(), key.end(), block.begin());
  }
  inner_.reset(PaddedKeyState(block, 0x36));
  outer_.reset(PaddedKeyState(block, 0x5c));
  OPENSSL_cleanse(block.data(), block.size());
}

Sha256Digest HmacSha256Key::Sign(std::string_view message) const {
  EVP_MD_CTX* ctx = ScratchContext();
  Sha256Digest inner_hash;
  Sha256Digest mac;
  unsigned int length = 0;
  if (ctx == nullptr || EVP_MD_CTX_copy_ex(ctx, inner_.get()) != 1 ||
      EVP_DigestUpdate(ctx, message.data(), message.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, inner_hash.data(), &length) != 1 ||
      EVP_MD_CTX_copy_ex(ctx, outer_.get()) != 1 ||
      EVP_DigestUpdate(ctx, inner_hash.data(), inner_hash.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, mac.data(), &length) != 1) {
    HmacFailed();
  }
  return mac;
}

Sha256Digest HmacSha256(std::string_view key, std::string_view message) {
  return HmacSha256Key(key).Sign(message);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace esign
