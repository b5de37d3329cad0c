// RFC 3161 time-stamp tokens read and checked offline: the seal's signature timestamp and the
// timestamps of signed tree heads are both checked here, so every layer checks them one way.
//
// A token is the DER of a CMS ContentInfo (SignedData over a TSTInfo). VerifyTimestampToken
// checks that the token's signature verifies with its signer's certificate, that the certificate
// is a time-stamping certificate (extendedKeyUsage timeStamping, critical) and is named by the
// token's ESS signing-certificate attribute, and that the message imprint is SHA-256 of exactly
// the expected digest. With a trusted CA (PEM, one or more certificates) the signer's certificate
// must chain to it; without, it must chain to a root the token carries (whose own signature is
// checked as well), or be the only certificate carried: the token is then intact and consistent,
// but whose authority it is rests with the reader (`anchored` says which).
// Thread safety: pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "base/sha256.h"

namespace esign {

struct TimestampTokenInfo {
  int64_t gen_time_micros = 0;  // the TSTInfo's genTime, microseconds since the epoch (UTC)
  std::string tsa_subject;      // the signer certificate's subject, RFC 2253
  std::string serial_hex;       // the TSTInfo's serial number, hex
  std::vector<std::string> certificates_der;  // the certificates the token carries, DER
  bool anchored = false;                      // the signer chained to the trusted CA given
};

// The token's facts when every check passes; otherwise the first check that failed, in words
// ("not a DER time-stamp token", "the message imprint is not the expected digest", ...), which is
// also the answer for a trusted CA that is not PEM. (base/ sits below domain/'s Result.)
[[nodiscard]] std::expected<TimestampTokenInfo, std::string> VerifyTimestampToken(
    std::string_view token_der, const Sha256Digest& digest, std::string_view trusted_ca_pem = {});

}  // namespace esign
