#include "domain/signer_secrets.h"

#include <cstdio>

#include "base/base64.h"
#include "base/hex.h"
#include "base/sha256.h"

namespace esign {
namespace {

std::string_view AsBytes(const Sha256Digest& digest) {
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

}  // namespace

std::string SignerSecrets::HostedLinkToken(std::string_view session_id) const {
  return EncodeBase64(AsBytes(key_.Sign("hosted-link\n" + std::string(session_id))), kBase64Url);
}

std::string SignerSecrets::HostedLinkTokenSha256(std::string_view session_id) const {
  return Sha256Hex(HostedLinkToken(session_id));
}

std::string SignerSecrets::AccessCodeHash(std::string_view contract_id,
                                          std::string_view participant_id,
                                          std::string_view access_code) const {
  const Sha256Digest mac = key_.Sign("access-code\n" + std::string(contract_id) + "\n" +
                                     std::string(participant_id) + "\n" + std::string(access_code));
  return ToHex(std::span<const uint8_t>(mac));
}

std::string SignerSecrets::EmailCode(std::string_view session_id, int number) const {
  const Sha256Digest mac =
      key_.Sign("email-code\n" + std::string(session_id) + "\n" + std::to_string(number));
  // The first 8 bytes as an integer, reduced to 6 digits (the bias, below 1e-13, is nothing).
  uint64_t value = 0;
  for (size_t i = 0; i < 8; ++i) value = (value << 8) | mac[i];
  char digits[7];
  std::snprintf(digits, sizeof digits, "%06llu",
                static_cast<unsigned long long>(value % 1'000'000));
  return digits;
}

std::string SignerSecrets::SignerProof(std::string_view session_id, int number) const {
  return EncodeBase64(AsBytes(key_.Sign("signer-proof\n" + std::string(session_id) + "\n" +
                                        std::to_string(number))),
                      kBase64Url);
}

}  // namespace esign
