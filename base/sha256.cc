#include "base/sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/hex.h"

namespace esign {
namespace {

// Fetching the algorithm once and reusing one context per thread makes a short digest about
// three times cheaper than the one-shot SHA256(), which looks the algorithm up on every call.
const EVP_MD* Sha256Algorithm() {
  static const EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

class DigestContext {
 public:
  DigestContext() : ctx_(EVP_MD_CTX_new()) {}
  ~DigestContext() { EVP_MD_CTX_free(ctx_); }
  DigestContext(const DigestContext&) = delete;
  DigestContext& operator=(const DigestContext&) = delete;
  EVP_MD_CTX* get() const { return ctx_; }

 private:
  EVP_MD_CTX* ctx_;
};

[[noreturn]] void DigestFailed() {
  std::fputs("fatal: SHA-256 computation failed in OpenSSL\n", stderr);
  std::abort();
}

}  // namespace

Sha256Digest Sha256Concat(std::initializer_list<std::string_view> parts) {
  thread_local DigestContext context;
  EVP_MD_CTX* ctx = context.get();
  const EVP_MD* md = Sha256Algorithm();
  if (ctx == nullptr || md == nullptr || EVP_DigestInit_ex2(ctx, md, nullptr) != 1) {
    DigestFailed();
  }
  for (std::string_view part : parts) {
    if (EVP_DigestUpdate(ctx, part.data(), part.size()) != 1) DigestFailed();
  }
  Sha256Digest out;
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx, out.data(), &length) != 1 || length != out.size()) DigestFailed();
  return out;
}

Sha256Digest Sha256(std::string_view bytes) { return Sha256Concat({bytes}); }

std::string Sha256Hex(std::string_view bytes) { return ToHex(Sha256(bytes)); }

std::optional<Sha256Digest> Sha256FromHex(std::string_view hex) {
  const std::optional<std::string> bytes = FromHex(hex);
  Sha256Digest digest;
  if (!bytes || bytes->size() != digest.size()) return std::nullopt;
  std::memcpy(digest.data(), bytes->data(), digest.size());
  return digest;
}

}  // namespace esign
