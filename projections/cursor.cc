#include "projections/cursor.h"

#include <openssl/crypto.h>

#include "base/base64.h"
#include "base/hmac.h"

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
  std::string message(1, kFormat);
  message.append(position);
  message.append(DigestBytes(Sha256(fingerprint)));
  return std::string(DigestBytes(HmacSha256(key_, message)));
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
