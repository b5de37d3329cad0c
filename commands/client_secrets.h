// Client secrets and their slow hashes.
//
// A secret is "cs_" + base64url of 32 random bytes from the kernel: 256 bits, so guessing is
// hopeless and a fast hash would do; the slow hash still protects secrets a person chose or
// copied somewhere weak, and is what a leaked log or backup yields. It is PBKDF2-HMAC-SHA256
// (OpenSSL) with a random 16-byte salt, stored as
//   "pbkdf2-sha256$<iterations>$<base64url salt>$<base64url 32-byte hash>"
// so the iteration count can grow later without invalidating existing secrets. The default count
// costs about 30 ms on the service's machine.
//
// Pure functions apart from the kernel's randomness; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::commands {

// About 30 ms per hash on the reference machine (2 cores, OpenSSL 3.0 with SHA extensions).
inline constexpr int kDefaultPbkdf2Iterations = 160'000;

// "cs_" + base64url(32 random bytes).
std::string NewClientSecret();

// kInternal only if OpenSSL fails; `iterations` must be positive.
Result<std::string> HashSecret(std::string_view secret, int iterations = kDefaultPbkdf2Iterations);

// True when `secret` hashes to `encoded`. Compares in constant time; a malformed `encoded` is
// false. Costs the iterations of `encoded`.
bool VerifySecret(std::string_view secret, std::string_view encoded);

}  // namespace esign::commands
