// Paging cursors: opaque, tamper-proof strings. A cursor carries the position where the next page
// starts (the last contract id returned) and an HMAC-SHA256, under a key of the service, over that
// position and the fingerprint of the listing it belongs to (QueryFingerprint). A cursor that was
// altered, forged without the key, or presented with other filters or by another actor fails the
// check: kInvalidCursor. Format: base64url (no padding) of
//   0x01 (format) | position bytes | 32-byte HMAC-SHA256(key, 0x01 | position |
//   SHA-256(fingerprint))
// The position is not secret (a contract id the same caller has already seen).
// Thread safety: const methods are safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::projections {

class CursorCodec {
 public:
  // `key`: secret bytes, at least 32 recommended; the same across restarts and replicas so
  // cursors survive them.
  explicit CursorCodec(std::string key) : key_(std::move(key)) {}

  std::string Encode(std::string_view position, std::string_view fingerprint) const;
  // The position, or kInvalidCursor (detail field "cursor").
  Result<std::string> Decode(std::string_view cursor, std::string_view fingerprint) const;

 private:
  std::string Mac(std::string_view position, std::string_view fingerprint) const;

  std::string key_;
};

}  // namespace esign::projections
