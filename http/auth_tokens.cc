#include "http/auth_tokens.h"

#include <openssl/crypto.h>

#include <boost/json.hpp>
#include <cstring>

#include "domain/base64url.h"
#include "http/auth_token_key.h"

namespace esign::http {
namespace {

constexpr std::string_view kPrefix = "at.";
constexpr size_t kBlockBytes = 64;  // SHA-256's block

std::unexpected<Error> Invalid() {
  return Fail(ErrorCode::kUnauthenticated, "invalid or expired token");
}

struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

// One scratch digest context per thread, so a MAC allocates no context of its own.
EVP_MD_CTX* ScratchContext() {
  thread_local std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
  return ctx.get();
}

}  // namespace

std::string TokenClaims::ScopeString() const {
  std::string out;
  for (const auto& p : scope) {
    if (!out.empty()) out.push_back(' ');
    out += p;
  }
  return out;
}

Result<std::unique_ptr<TokenCodec>> TokenCodec::Create(std::string_view key) {
  if (key.size() != kTokenKeyBytes) {
    return Fail(ErrorCode::kInternal, "the token key must be 32 bytes");
  }
  std::unique_ptr<TokenCodec> codec(new TokenCodec());
  std::array<unsigned char, kBlockBytes> ipad;
  std::array<unsigned char, kBlockBytes> opad;
  ipad.fill(0x36);
  opad.fill(0x5c);
  for (size_t i = 0; i < key.size(); ++i) {
    ipad[i] ^= static_cast<unsigned char>(key[i]);
    opad[i] ^= static_cast<unsigned char>(key[i]);
  }
  codec->inner_ = EVP_MD_CTX_new();
  codec->outer_ = EVP_MD_CTX_new();
  const bool ok = codec->inner_ && codec->outer_ &&
                  EVP_DigestInit_ex2(codec->inner_, EVP_sha256(), nullptr) == 1 &&
                  EVP_DigestUpdate(codec->inner_, ipad.data(), ipad.size()) == 1 &&
                  EVP_DigestInit_ex2(codec->outer_, EVP_sha256(), nullptr) == 1 &&
                  EVP_DigestUpdate(codec->outer_, opad.data(), opad.size()) == 1;
  OPENSSL_cleanse(ipad.data(), ipad.size());
  OPENSSL_cleanse(opad.data(), opad.size());
  if (!ok) return Fail(ErrorCode::kInternal, "cannot set up HMAC-SHA256");
  return codec;
}

TokenCodec::~TokenCodec() {
  EVP_MD_CTX_free(inner_);
  EVP_MD_CTX_free(outer_);
}

TokenCodec::Mac TokenCodec::Compute(std::string_view message) const {
  EVP_MD_CTX* ctx = ScratchContext();
  std::array<unsigned char, 32> inner_hash{};
  Mac mac{};
  unsigned int length = 0;
  // Failures here mean OpenSSL ran out of memory; an all-zero MAC then matches no real token
  // with overwhelming probability and simply fails the comparison.
  if (!ctx || EVP_MD_CTX_copy_ex(ctx, inner_) != 1 ||
      EVP_DigestUpdate(ctx, message.data(), message.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, inner_hash.data(), &length) != 1 ||
      EVP_MD_CTX_copy_ex(ctx, outer_) != 1 ||
      EVP_DigestUpdate(ctx, inner_hash.data(), inner_hash.size()) != 1 ||
      EVP_DigestFinal_ex(ctx, mac.data(), &length) != 1) {
    return Mac{};
  }
  return mac;
}

std::string TokenCodec::Issue(const TokenClaims& claims) const {
  const std::string payload = boost::json::serialize(boost::json::object{
      {"jti", claims.token_id},
      {"sub", claims.client_id},
      {"org", claims.organization_id},
      {"scope", claims.ScopeString()},
      {"iat", claims.issued_at},
      {"exp", claims.expires_at},
  });
  std::string token = std::string(kPrefix) + Base64UrlEncode(payload);
  const Mac mac = Compute(token);
  token.push_back('.');
  token += Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(mac.data()), mac.size()));
  return token;
}

Result<TokenClaims> TokenCodec::Verify(std::string_view token) const {
  if (token.size() > kMaxTokenLength || !token.starts_with(kPrefix)) return Invalid();
  const size_t dot = token.rfind('.');
  if (dot < kPrefix.size()) return Invalid();
  const std::string_view signed_part = token.substr(0, dot);
  const auto given = Base64UrlDecode(token.substr(dot + 1));
  if (!given || given->size() != sizeof(Mac)) return Invalid();
  const Mac mac = Compute(signed_part);
  if (CRYPTO_memcmp(mac.data(), given->data(), mac.size()) != 0) return Invalid();

  // Only the service's own payloads get here, but they are still checked field by field.
  const auto payload = Base64UrlDecode(signed_part.substr(kPrefix.size()));
  if (!payload) return Invalid();
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(*payload, ec);
  if (ec || !parsed.is_object()) return Invalid();
  const boost::json::object& object = parsed.as_object();
  TokenClaims claims;
  for (auto [field, key] : {std::pair{&claims.token_id, "jti"}, std::pair{&claims.client_id, "sub"},
                            std::pair{&claims.organization_id, "org"}}) {
    const auto* value = object.if_contains(key);
    if (!value || !value->is_string()) return Invalid();
    *field = std::string(value->as_string());
  }
  const auto* scope = object.if_contains("scope");
  const auto* iat = object.if_contains("iat");
  const auto* exp = object.if_contains("exp");
  if (!scope || !scope->is_string() || !iat || !iat->is_int64() || !exp || !exp->is_int64()) {
    return Invalid();
  }
  claims.issued_at = iat->as_int64();
  claims.expires_at = exp->as_int64();
  std::string_view rest = scope->as_string();
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    if (space != 0) claims.scope.emplace_back(rest.substr(0, space));
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  return claims;
}

}  // namespace esign::http
