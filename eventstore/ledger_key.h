// The ledger's public key in the forms an auditor may be given it (DESIGN 24, "Trust published"):
// the PEM the service writes, an RFC 8037 JWK ({"kty":"OKP","crv":"Ed25519","x":"<base64url>"})
// and a SHA-256 fingerprint, which is SHA-256 over the key's DER SubjectPublicKeyInfo in hex
// (what `openssl pkey -pubin -outform DER | sha256sum` prints), so it can be read aloud or
// compared with one published elsewhere.
// Thread safety: pure functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "domain/result.h"

namespace esign::eventstore {

struct LedgerPublicKey {
  std::string pem;  // canonical PEM (CanonicalPublicKeyPem)
  boost::json::object jwk;
  std::string fingerprint_sha256;  // 64 lower-case hex digits
};

// The SHA-256 (lower-case hex) of the DER SubjectPublicKeyInfo inside a PEM public key of any
// algorithm. Empty when `pem` holds no key.
std::string PublicKeyFingerprint(std::string_view pem);

// kValidationFailed unless `pem` holds an Ed25519 public key.
Result<LedgerPublicKey> DescribeLedgerKey(std::string_view pem);

// The JSON answer of GET /api/v1/ledger/public-key:
// {"algorithm":"Ed25519","pem":...,"jwk":{...},"fingerprintSha256":"<hex>"}.
boost::json::object LedgerKeyDocument(const LedgerPublicKey& key);

// A trusted key as an auditor holds it, as canonical PEM: a PEM public key, a JWK, or the public
// key route's answer (its "jwk" and "pem" must then name the same key). kValidationFailed with
// what was wrong otherwise.
Result<std::string> TrustedLedgerKeyPem(std::string_view text);

}  // namespace esign::eventstore
