#include "projections/cursor.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <array>

namespace esign::projections {
namespace {

constexpr char kFormat = 0x01;
constexpr size_t kMacSize = 32;
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int DecodeChar(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

std::unexpected<Error> InvalidCursor(std::string issue) {
  return Fail(ErrorCode::kInvalidCursor, "the cursor is not valid for this listing", "cursor",
              std::move(issue));
}

}  // namespace

std::string Base64UrlEncode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
    out.push_back(kAlphabet[n & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest == 1) {
    const uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
  } else if (rest == 2) {
    const uint32_t n =
        (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(kAlphabet[(n >> 6) & 63]);
  }
  return out;
}

Result<std::string> Base64UrlDecode(std::string_view text) {
  if (text.size() % 4 == 1) return InvalidCursor("not base64url");
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t bits = 0;
  int count = 0;
  for (const char c : text) {
    const int value = DecodeChar(c);
    if (value < 0) return InvalidCursor("not base64url");
    bits = (bits << 6) | static_cast<uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  // Leftover bits must be zero, so each byte string has exactly one encoding.
  if ((bits & ((1u << count) - 1)) != 0) return InvalidCursor("not base64url");
  return out;
}

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
  Result<std::string> raw = Base64UrlDecode(cursor);
  if (!raw) return raw;
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
