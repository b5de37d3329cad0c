// Base64 (RFC 4648): the standard alphabet with padding (section 4) for tree-head signatures,
// webhook secrets and signatures, signature images and documents sent to signing providers; the
// URL-safe alphabet without padding (section 5) for access tokens, client secrets, secret hashes
// and list cursors.
//
// Decoding is strict: any character outside the form's alphabet, misplaced or missing padding,
// an impossible length or non-zero trailing bits fail, so each byte string has exactly one
// accepted text (a token cannot be varied without changing its text).
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace esign {

struct Base64Form {
  enum class Alphabet { kStandard, kUrlSafe };
  Alphabet alphabet = Alphabet::kStandard;
  bool padded = true;
};

inline constexpr Base64Form kBase64Standard{Base64Form::Alphabet::kStandard, true};
inline constexpr Base64Form kBase64Url{Base64Form::Alphabet::kUrlSafe, false};

std::string EncodeBase64(std::string_view bytes, Base64Form form);
std::optional<std::string> DecodeBase64(std::string_view text, Base64Form form);

// The two forms the service writes, by name.
inline std::string Base64Encode(std::string_view bytes) {
  return EncodeBase64(bytes, kBase64Standard);
}
inline std::optional<std::string> Base64Decode(std::string_view text) {
  return DecodeBase64(text, kBase64Standard);
}
inline std::string Base64UrlEncode(std::string_view bytes) {
  return EncodeBase64(bytes, kBase64Url);
}
inline std::optional<std::string> Base64UrlDecode(std::string_view text) {
  return DecodeBase64(text, kBase64Url);
}

}  // namespace esign
