// The RFC 3161 client against a real authority on loopback (tsa_server.mjs: `openssl ts -reply`),
// its tokens cross-checked with `openssl ts -verify`, and every way an authority can fail.
#include "documents/timestamp_authority.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "base/hex.h"
#include "base/time_text.h"
#include "tests/support/shell.h"
#include "tests/support/test_tsa.h"

namespace esign::documents {
namespace {

using esign::testing::RefusingUrl;
using esign::testing::RunShell;
using esign::testing::TestTsa;

std::unique_ptr<TimestampAuthority> MakeAuthority(TimestampAuthorityOptions options) {
  auto authority = TimestampAuthority::Create(std::move(options));
  EXPECT_TRUE(authority.has_value()) << authority.error().message;
  return authority ? std::move(*authority) : nullptr;
}

int64_t WallMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(TimestampAuthorityTest, ATokenOverTheDigestVerifiesHereAndWithOpensslTs) {
  const TestTsa tsa;
  auto authority = MakeAuthority({.url = tsa.Url(), .ca_file = tsa.CaFile()});
  ASSERT_NE(authority, nullptr);
  const Sha256Digest digest = Sha256("the signed head");
  auto token = authority->Timestamp(digest);
  ASSERT_TRUE(token.has_value()) << token.error().message;

  auto info = authority->Verify(*token, digest);
  ASSERT_TRUE(info.has_value()) << info.error().message;
  EXPECT_TRUE(info->anchored);
  EXPECT_EQ(info->tsa_subject, "CN=Test Time Stamping Authority,O=Test Trust");
  EXPECT_LT(std::abs(info->gen_time_micros - WallMicros()), 60 * kMicrosPerSecond);
  EXPECT_EQ(info->certificates_der.size(), 2u);  // the TSA's certificate and its CA

  // The same token read by an independent tool.
  const std::string path = tsa.dir() + "/token.der";
  std::ofstream(path, std::ios::binary) << *token;
  const auto verified = RunShell("openssl ts -verify -digest " + ToHex(DigestBytes(digest)) +
                                 " -in " + path + " -token_in -CAfile " + tsa.CaFile() + " 2>&1");
  EXPECT_EQ(verified.exit_code, 0) << verified.out;
  EXPECT_NE(verified.out.find("Verification: OK"), std::string::npos) << verified.out;
}

TEST(TimestampAuthorityTest, ATokenFailsForAnotherDigestAnotherCaOrAsGarbage) {
  const TestTsa tsa;
  const TestTsa other;
  auto authority = MakeAuthority({.url = tsa.Url()});
  ASSERT_NE(authority, nullptr);
  const Sha256Digest digest = Sha256("one");
  auto token = authority->Timestamp(digest);
  ASSERT_TRUE(token.has_value()) << token.error().message;

  // Without a CA the token verifies against its own certificates, and says so.
  auto unanchored = VerifyTimestampToken(*token, digest);
  ASSERT_TRUE(unanchored.has_value()) << unanchored.error();
  EXPECT_FALSE(unanchored->anchored);

  auto wrong_digest = VerifyTimestampToken(*token, Sha256("two"));
  ASSERT_FALSE(wrong_digest.has_value());
  EXPECT_EQ(wrong_digest.error(), "the message imprint is not the expected digest");
  auto wrong_ca = VerifyTimestampToken(*token, digest, other.CaPem());
  ASSERT_FALSE(wrong_ca.has_value());
  EXPECT_NE(wrong_ca.error().find("does not verify"), std::string::npos) << wrong_ca.error();
  EXPECT_EQ(VerifyTimestampToken("not a token", digest).error(),
            "not a DER time-stamp token (CMS SignedData)");
  std::string flipped = *token;
  flipped[flipped.size() - 10] ^= 0x01;  // inside the signature value
  EXPECT_FALSE(VerifyTimestampToken(flipped, digest).has_value());
  EXPECT_EQ(VerifyTimestampToken(*token, digest, "not PEM").error(),
            "the trusted CA is not a PEM certificate");
}

TEST(TimestampAuthorityTest, AnAuthorityDownOrAnsweringGarbageOrRejectingGivesNoToken) {
  const Sha256Digest digest = Sha256("x");
  auto down = MakeAuthority({.url = RefusingUrl()});
  ASSERT_NE(down, nullptr);
  auto refused = down->Timestamp(digest);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(refused.error().message.find("cannot be reached"), std::string::npos)
      << refused.error().message;

  const TestTsa tsa("garbage");
  auto authority = MakeAuthority({.url = tsa.Url(), .ca_file = tsa.CaFile()});
  ASSERT_NE(authority, nullptr);
  auto garbage = authority->Timestamp(digest);
  ASSERT_FALSE(garbage.has_value());
  EXPECT_EQ(garbage.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(garbage.error().message.find("not a TimeStampResp"), std::string::npos)
      << garbage.error().message;

  tsa.SetMode("reject");
  auto rejected = authority->Timestamp(digest);
  ASSERT_FALSE(rejected.has_value());
  EXPECT_NE(rejected.error().message.find("refused the request (status 2)"), std::string::npos)
      << rejected.error().message;
  EXPECT_FALSE(authority->Certificates().has_value());

  tsa.SetMode("ok");
  auto small = MakeAuthority({.url = tsa.Url(), .max_response_bytes = 100});
  ASSERT_NE(small, nullptr);
  auto too_large = small->Timestamp(digest);
  ASSERT_FALSE(too_large.has_value());
  EXPECT_NE(too_large.error().message.find("exceeds 100 bytes"), std::string::npos)
      << too_large.error().message;
  EXPECT_TRUE(authority->Timestamp(digest).has_value());
}

TEST(TimestampAuthorityTest, ASilentAuthorityTimesOut) {
  const TestTsa tsa("slow");
  auto authority = MakeAuthority({.url = tsa.Url(), .timeout = std::chrono::milliseconds(300)});
  ASSERT_NE(authority, nullptr);
  const auto started = std::chrono::steady_clock::now();
  auto token = authority->Timestamp(Sha256("x"));
  ASSERT_FALSE(token.has_value());
  EXPECT_EQ(token.error().code, ErrorCode::kUnavailable);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
}

TEST(TimestampAuthorityTest, CertificatesAreLearntOnceFromAProbe) {
  const TestTsa tsa;
  auto authority = MakeAuthority({.url = tsa.Url(), .ca_file = tsa.CaFile()});
  ASSERT_NE(authority, nullptr);
  auto first = authority->Certificates();
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_EQ(first->size(), 2u);  // the CA is carried by the token and not added twice
  const size_t served = tsa.Served();
  auto second = authority->Certificates();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*second, *first);
  EXPECT_EQ(tsa.Served(), served);
}

TEST(TimestampAuthorityTest, CreateRefusesAnotherSchemeOrACaFileWithoutCertificates) {
  auto ftp = TimestampAuthority::Create({.url = "ftp://127.0.0.1/tsa"});
  ASSERT_FALSE(ftp.has_value());
  EXPECT_EQ(ftp.error().code, ErrorCode::kValidationFailed);
  auto missing =
      TimestampAuthority::Create({.url = "http://127.0.0.1/", .ca_file = "/nonexistent"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::documents
