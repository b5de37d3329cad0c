// The secrets the service mails to a signer, derived from one service key instead of kept:
// the token of a hosted link the service created for e-mail (so the link in a message sent
// again after a restart is the one the session's token_sha256 names) and the 6-digit codes of
// e-mail one-time passwords (so the log records only that code number N was sent, never the
// code), and what the log keeps of an access code (a keyed hash). Each kind of secret has its own
// label in the derivation (HMAC-SHA256 over label and session id), so one never equals another.
// Thread safety: immutable after construction; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "base/hmac.h"

namespace esign {

class SignerSecrets {
 public:
  // `key`: at least 32 random bytes (app: <secrets>/signer-secrets.key).
  explicit SignerSecrets(std::string_view key) : key_(key) {}

  // The hosted link token (32 bytes, base64url) of the session, and its SHA-256 in hex, which
  // the session records.
  std::string HostedLinkToken(std::string_view session_id) const;
  std::string HostedLinkTokenSha256(std::string_view session_id) const;

  // What the log keeps of an access code the integrator gave for a participant (hex): without
  // the key, a short code cannot be found from it by trying every code.
  std::string AccessCodeHash(std::string_view contract_id, std::string_view participant_id,
                             std::string_view access_code) const;

  // The 6-digit code number `number` (1, 2, ...) of the session's e-mail one-time passwords.
  std::string EmailCode(std::string_view session_id, int number) const;

  // The proof (base64url) that the signer of the session proved who they are for the
  // `number`th time (1, 2, ...): the hosted page sends it back with every later request.
  std::string SignerProof(std::string_view session_id, int number) const;

 private:
  HmacSha256Key key_;
};

}  // namespace esign
