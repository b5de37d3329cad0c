// SHA-256 (FIPS 180-4) through OpenSSL, for content addresses, ledger hashes and derived ids.
//
// OpenSSL fails here only when it cannot allocate; a digest that cannot be computed would corrupt
// the ledger or an id silently, so the process stops instead (no error to handle).
// Thread safety: every function may be called from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace esign {

using Sha256Digest = std::array<uint8_t, 32>;

Sha256Digest Sha256(std::string_view bytes);
// The digest of the parts' concatenation, without joining them first.
Sha256Digest Sha256Concat(std::initializer_list<std::string_view> parts);

// 64 lowercase hexadecimal digits of Sha256(bytes).
std::string Sha256Hex(std::string_view bytes);
// The digest spelled by exactly 64 hexadecimal digits (either case); nothing for anything else.
std::optional<Sha256Digest> Sha256FromHex(std::string_view hex);

// The digest's bytes, for encoders and comparisons that take bytes as text.
inline std::string_view DigestBytes(const Sha256Digest& digest) {
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

}  // namespace esign
