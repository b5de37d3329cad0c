// Base64url (RFC 4648 section 5, no padding) for access tokens, client secrets, secret hashes and
// list cursors.
// Decoding is strict: any other character, padding, an impossible length or non-zero trailing
// bits fail, so each byte string has exactly one accepted text (a token cannot be varied
// without changing its text).
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace esign {

std::string Base64UrlEncode(std::string_view bytes);
std::optional<std::string> Base64UrlDecode(std::string_view text);

}  // namespace esign
