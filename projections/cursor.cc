#include "projections/cursor.h"

#include "domain/base64url.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <array>

namespace esign::projections {
namespace {

constexpr char kFormat = 0x01;
constexpr size_t kMacSize = 32;
std::unexpected<Error> InvalidCursor(std::string issue) {
  return Fail(ErrorCode::kInvalidCursor, "the cursor is not valid for this listing", "cursor",
              std::move(issue));
}

}  // namespace

std::string CursorCodec::Mac(std::string_view position, std::string_view fingerprint) const {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(fingerprint.data()), fingerprint.size(),
         digest.data());
  std::string message(1, kFormat);
  message.append(position);
  message.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int mac_size = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac.data(),
       &mac_size);
  return std::string(reinterpret_cast<const char*>(mac.data()), mac_size);
}

std::string CursorCodec::Encode(std::string_view position, std::string_view fingerprint) const {
  std::string raw(1, kFormat);
  raw.append(position);
  raw.append(Mac(position, fingerprint));
  return Base64UrlEncode(raw);
}

Result<std::string> CursorCodec::Decode(std::string_view cursor,
                                        std::string_view fingerprint) const {
  std::optional<std::string> raw = Base64UrlDecode(cursor);
  if (!raw) return InvalidCursor("not base64url");
  if (raw->size() < 1 + kMacSize || (*raw)[0] != kFormat) {
    return InvalidCursor("unknown cursor format");
  }
  const std::string_view view(*raw);
  const std::string_view position = view.substr(1, view.size() - 1 - kMacSize);
  const std::string_view mac = view.substr(view.size() - kMacSize);
  const std::string expected = Mac(position, fingerprint);
  if (expected.size() != kMacSize || CRYPTO_memcmp(expected.data(), mac.data(), kMacSize) != 0) {
    return InvalidCursor("altered, or made for other filters");
  }
  return std::string(position);
}

}  // namespace esign::projections
