#include "commands/client_secrets.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <charconv>
#include <optional>

#include "base/base64.h"
#include "domain/id_generator.h"

namespace esign::commands {
namespace {

constexpr std::string_view kScheme = "pbkdf2-sha256";
constexpr size_t kSaltBytes = 16;
constexpr size_t kHashBytes = 32;
// Refuses stored hashes that would make one verification take minutes.
constexpr int kMaxIterations = 100'000'000;

std::optional<std::string> Pbkdf2(std::string_view secret, std::string_view salt, int iterations) {
  std::string out(kHashBytes, '\0');
  if (PKCS5_PBKDF2_HMAC(secret.data(), static_cast<int>(secret.size()),
                        reinterpret_cast<const unsigned char*>(salt.data()),
                        static_cast<int>(salt.size()), iterations, EVP_sha256(),
                        static_cast<int>(out.size()),
                        reinterpret_cast<unsigned char*>(out.data())) != 1) {
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::string NewClientSecret() { return "cs_" + Base64UrlEncode(RandomBytes(32)); }

Result<std::string> HashSecret(std::string_view secret, int iterations) {
  if (iterations <= 0 || iterations > kMaxIterations) {
    return Fail(ErrorCode::kInternal, "PBKDF2 iterations out of range");
  }
  const std::string salt = RandomBytes(kSaltBytes);
  auto hash = Pbkdf2(secret, salt, iterations);
  if (!hash) return Fail(ErrorCode::kInternal, "PBKDF2 failed");
  return std::string(kScheme) + "$" + std::to_string(iterations) + "$" + Base64UrlEncode(salt) +
         "$" + Base64UrlEncode(*hash);
}

bool VerifySecret(std::string_view secret, std::string_view encoded) {
  // scheme $ iterations $ salt $ hash
  std::array<std::string_view, 4> parts;
  for (size_t i = 0; i < parts.size(); ++i) {
    const size_t dollar = encoded.find('$');
    const bool last = i + 1 == parts.size();
    if (last != (dollar == std::string_view::npos)) return false;
    parts[i] = encoded.substr(0, dollar);
    if (!last) encoded.remove_prefix(dollar + 1);
  }
  if (parts[0] != kScheme) return false;
  int iterations = 0;
  const auto [end, ec] =
      std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), iterations);
  if (ec != std::errc() || end != parts[1].data() + parts[1].size() || iterations <= 0 ||
      iterations > kMaxIterations) {
    return false;
  }
  auto salt = Base64UrlDecode(parts[2]);
  auto expected = Base64UrlDecode(parts[3]);
  if (!salt || !expected || expected->size() != kHashBytes) return false;
  auto actual = Pbkdf2(secret, *salt, iterations);
  return actual && CRYPTO_memcmp(actual->data(), expected->data(), kHashBytes) == 0;
}

}  // namespace esign::commands
