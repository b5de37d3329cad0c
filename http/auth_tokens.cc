#include "http/auth_tokens.h"

#include <openssl/crypto.h>

#include <boost/json.hpp>
#include <cstring>

#include "base/base64.h"
#include "http/auth_token_key.h"

namespace esign::http {
namespace {

constexpr std::string_view kPrefix = "at.";

std::unexpected<Error> Invalid() {
  return Fail(ErrorCode::kUnauthenticated, "invalid or expired token");
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
  return std::unique_ptr<TokenCodec>(new TokenCodec(key));
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
  const Sha256Digest mac = key_.Sign(token);
  token.push_back('.');
  token += Base64UrlEncode(DigestBytes(mac));
  return token;
}

Result<TokenClaims> TokenCodec::Verify(std::string_view token) const {
  if (token.size() > kMaxTokenLength || !token.starts_with(kPrefix)) return Invalid();
  const size_t dot = token.rfind('.');
  if (dot < kPrefix.size()) return Invalid();
  const std::string_view signed_part = token.substr(0, dot);
  const auto given = Base64UrlDecode(token.substr(dot + 1));
  if (!given || given->size() != sizeof(Sha256Digest)) return Invalid();
  const Sha256Digest mac = key_.Sign(signed_part);
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
