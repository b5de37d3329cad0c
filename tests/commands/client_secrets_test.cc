// Client secrets and their PBKDF2 hashes: the stored format, verification, and refusal of
// malformed hashes.
#include "commands/client_secrets.h"

#include <gtest/gtest.h>

#include <chrono>

#include "base/base64.h"

namespace esign::commands {
namespace {

constexpr int kFastIterations = 1000;

TEST(ClientSecretTest, IsPrefixedBase64UrlOf32RandomBytes) {
  const std::string a = NewClientSecret();
  const std::string b = NewClientSecret();
  ASSERT_TRUE(a.starts_with("cs_"));
  auto bytes = Base64UrlDecode(a.substr(3));
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 32u);
  EXPECT_NE(a, b);
}

TEST(SecretHashTest, HasTheDocumentedFormatAndVerifies) {
  auto hash = HashSecret("cs_secret", kFastIterations);
  ASSERT_TRUE(hash);
  ASSERT_TRUE(hash->starts_with("pbkdf2-sha256$1000$")) << *hash;
  const size_t salt_start = std::string("pbkdf2-sha256$1000$").size();
  const size_t dollar = hash->find('$', salt_start);
  ASSERT_NE(dollar, std::string::npos);
  EXPECT_EQ(Base64UrlDecode(hash->substr(salt_start, dollar - salt_start))->size(), 16u);
  EXPECT_EQ(Base64UrlDecode(hash->substr(dollar + 1))->size(), 32u);

  EXPECT_TRUE(VerifySecret("cs_secret", *hash));
  EXPECT_FALSE(VerifySecret("cs_secreT", *hash));
  EXPECT_FALSE(VerifySecret("", *hash));
  EXPECT_FALSE(VerifySecret("cs_secret\n", *hash));
}

TEST(SecretHashTest, SaltsEveryHash) {
  auto first = HashSecret("same", kFastIterations);
  auto second = HashSecret("same", kFastIterations);
  ASSERT_TRUE(first && second);
  EXPECT_NE(*first, *second);
  EXPECT_TRUE(VerifySecret("same", *first));
  EXPECT_TRUE(VerifySecret("same", *second));
}

TEST(SecretHashTest, MatchesAnIndependentPbkdf2Vector) {
  // RFC 7914 section 11: PBKDF2-HMAC-SHA256, P="passwd", S="salt", c=1, dkLen=64; the first 32
  // bytes are 55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc.
  const std::string salt = "salt";
  const std::string expected =
      "\x55\xac\x04\x6e\x56\xe3\x08\x9f\xec\x16\x91\xc2\x25\x44\xb6\x05\xf9\x41\x85\x21\x6d\xde"
      "\x04\x65\xe6\x8b\x9d\x57\xc2\x0d\xac\xbc";
  const std::string encoded =
      "pbkdf2-sha256$1$" + Base64UrlEncode(salt) + "$" + Base64UrlEncode(expected);
  EXPECT_TRUE(VerifySecret("passwd", encoded));
  EXPECT_FALSE(VerifySecret("passwe", encoded));
}

TEST(SecretHashTest, MalformedHashesNeverVerify) {
  auto hash = HashSecret("s", kFastIterations);
  ASSERT_TRUE(hash);
  for (const std::string& bad : {
           std::string(),
           std::string("pbkdf2-sha256"),
           std::string("pbkdf2-sha1$1000$c2FsdA$") + hash->substr(hash->rfind('$') + 1),
           std::string("pbkdf2-sha256$0$c2FsdA$AAAA"),
           std::string("pbkdf2-sha256$-5$c2FsdA$AAAA"),
           std::string("pbkdf2-sha256$1e3$c2FsdA$AAAA"),
           std::string("pbkdf2-sha256$1000000000$c2FsdA$AAAA"),
           *hash + "$extra",
           hash->substr(0, hash->size() - 2),
           std::string("pbkdf2-sha256$1000$c2FsdA==$") + hash->substr(hash->rfind('$') + 1),
       }) {
    EXPECT_FALSE(VerifySecret("s", bad)) << bad;
  }
  EXPECT_FALSE(HashSecret("s", 0));
}

TEST(SecretHashTest, TheDefaultCostIsSlowButBearable) {
  auto hash = HashSecret("cs_x");
  ASSERT_TRUE(hash);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(VerifySecret("cs_x", *hash));
  const auto took = std::chrono::steady_clock::now() - start;
  // About 30 ms on the reference machine; the bounds leave room for a loaded one.
  EXPECT_GT(took, std::chrono::milliseconds(8));
  EXPECT_LT(took, std::chrono::milliseconds(1500));
}

}  // namespace
}  // namespace esign::commands
