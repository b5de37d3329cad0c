#include "eventstore/ledger_key.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <optional>

#include "base/base64.h"
#include "base/sha256.h"
#include "eventstore/openssl_ptr.h"
#include "eventstore/tree_head.h"

namespace esign::eventstore {
namespace {

namespace json = boost::json;

constexpr size_t kLedgerKeySize = 32;

PkeyPtr ReadEd25519Pem(std::string_view pem) {
  const BioPtr in(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  PkeyPtr pkey(in ? PEM_read_bio_PUBKEY(in.get(), nullptr, nullptr, nullptr) : nullptr);
  ERR_clear_error();
  if (pkey != nullptr && EVP_PKEY_get_base_id(pkey.get()) != EVP_PKEY_ED25519) return nullptr;
  return pkey;
}

std::optional<std::string> WriteKeyPem(EVP_PKEY* pkey) {
  const BioPtr out(BIO_new(BIO_s_mem()));
  if (out == nullptr || PEM_write_bio_PUBKEY(out.get(), pkey) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

Result<std::string> PemFromJwk(const json::object& jwk) {
  const auto text = [&](std::string_view name) -> std::string_view {
    const json::value* v = jwk.if_contains(name);
    return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
  };
  if (text("kty") != "OKP" || text("crv") != "Ed25519") {
    return Fail(ErrorCode::kValidationFailed,
                "the JWK is not an Ed25519 key (kty OKP, crv Ed25519)");
  }
  const std::optional<std::string> raw = Base64UrlDecode(text("x"));
  if (!raw || raw->size() != kLedgerKeySize) {
    return Fail(ErrorCode::kValidationFailed, "the JWK's x is not 32 bytes of base64url");
  }
  const PkeyPtr pkey(EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw->data()), raw->size()));
  std::optional<std::string> pem = pkey ? WriteKeyPem(pkey.get()) : std::nullopt;
  if (!pem) return Fail(ErrorCode::kValidationFailed, "the JWK's x is not an Ed25519 key");
  return std::move(*pem);
}

}  // namespace

std::string PublicKeyFingerprint(std::string_view pem) {
  constexpr std::string_view kBegin = "-----BEGIN PUBLIC KEY-----";
  const size_t begin = pem.find(kBegin);
  const size_t end = pem.find("-----END PUBLIC KEY-----");
  if (begin == std::string_view::npos || end == std::string_view::npos || end < begin) return "";
  std::string body;
  for (const char c : pem.substr(begin + kBegin.size(), end - begin - kBegin.size())) {
    if (c != '\n' && c != '\r' && c != ' ') body += c;
  }
  const std::optional<std::string> der = Base64Decode(body);
  return der && !der->empty() ? Sha256Hex(*der) : "";
}

Result<LedgerPublicKey> DescribeLedgerKey(std::string_view pem) {
  const PkeyPtr pkey = ReadEd25519Pem(pem);
  if (pkey == nullptr) {
    return Fail(ErrorCode::kValidationFailed, "not an Ed25519 public key in PEM form");
  }
  std::string raw(kLedgerKeySize, '\0');
  size_t raw_size = raw.size();
  std::optional<std::string> canonical = WriteKeyPem(pkey.get());
  if (EVP_PKEY_get_raw_public_key(pkey.get(), reinterpret_cast<unsigned char*>(raw.data()),
                                  &raw_size) != 1 ||
      raw_size != kLedgerKeySize || !canonical) {
    ERR_clear_error();
    return Fail(ErrorCode::kValidationFailed, "the Ed25519 key cannot be encoded");
  }
  LedgerPublicKey key;
  key.fingerprint_sha256 = PublicKeyFingerprint(*canonical);
  key.pem = std::move(*canonical);
  key.jwk = {{"kty", "OKP"},
             {"crv", "Ed25519"},
             {"x", Base64UrlEncode(raw)},
             {"use", "sig"},
             {"alg", "EdDSA"}};
  return key;
}

json::object LedgerKeyDocument(const LedgerPublicKey& key) {
  return {{"algorithm", "Ed25519"},
          {"pem", key.pem},
          {"jwk", key.jwk},
          {"fingerprintSha256", key.fingerprint_sha256}};
}

Result<std::string> TrustedLedgerKeyPem(std::string_view text) {
  boost::system::error_code ec;
  const json::value parsed = json::parse(text, ec);
  if (ec) {
    Result<LedgerPublicKey> key = DescribeLedgerKey(text);
    if (!key) {
      return Fail(ErrorCode::kValidationFailed,
                  "the trusted key is neither an Ed25519 public key in PEM form nor a JWK");
    }
    return std::move(key->pem);
  }
  if (!parsed.is_object()) {
    return Fail(ErrorCode::kValidationFailed, "the trusted key's JSON is not an object");
  }
  const json::object& object = parsed.get_object();
  const json::value* jwk = object.if_contains("jwk");
  if (jwk == nullptr) return PemFromJwk(object);
  if (!jwk->is_object()) return Fail(ErrorCode::kValidationFailed, "jwk is not an object");
  Result<std::string> pem = PemFromJwk(jwk->get_object());
  if (!pem) return pem;
  if (const json::value* stated = object.if_contains("pem")) {
    if (!stated->is_string() ||
        CanonicalPublicKeyPem(stated->get_string()) != std::optional<std::string>(*pem)) {
      return Fail(ErrorCode::kValidationFailed, "the document's pem and jwk are not the same key");
    }
  }
  return pem;
}

}  // namespace esign::eventstore
