// Standard base64 with padding (RFC 4648 section 4), through OpenSSL: tree-head signatures,
// webhook secrets and signatures, signature images, documents sent to signing providers. URL-safe
// tokens use domain/base64url.h instead.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace esign::eventstore {

std::string Base64Encode(std::string_view bytes);

// Strict: only the padded, unwrapped form Base64Encode writes is accepted.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace esign::eventstore
