// The ledger key's published forms: PEM, JWK and fingerprint describe one key, and a trusted key
// is read back from any of them; anything else is refused with what was wrong.
#include "eventstore/ledger_key.h"

#include <gtest/gtest.h>

#include "eventstore/tree_head.h"
#include "tests/support/shell.h"

namespace esign::eventstore {
namespace {

class LedgerKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto signer = TreeHeadSigner::CreateEphemeral();
    ASSERT_TRUE(signer);
    pem_ = (*signer)->PublicKeyPem();
    auto key = DescribeLedgerKey(pem_);
    ASSERT_TRUE(key) << key.error().message;
    key_ = *key;
  }
  std::string pem_;
  LedgerPublicKey key_;
};

TEST_F(LedgerKeyTest, TheFormsDescribeOneKey) {
  EXPECT_EQ(key_.pem, pem_);
  EXPECT_EQ(key_.jwk.at("kty"), "OKP");
  EXPECT_EQ(key_.jwk.at("crv"), "Ed25519");
  EXPECT_EQ(key_.jwk.at("x").as_string().size(), 43u);
  // What openssl prints for the same key.
  const auto printed = esign::testing::RunShell("printf '%s' '" + pem_ +
                                                "' | openssl pkey -pubin -outform DER | sha256sum");
  EXPECT_EQ(printed.out.substr(0, 64), key_.fingerprint_sha256);
  EXPECT_EQ(PublicKeyFingerprint("no key"), "");
}

TEST_F(LedgerKeyTest, ATrustedKeyIsReadFromPemJwkOrTheRoutesAnswer) {
  EXPECT_EQ(TrustedLedgerKeyPem(pem_), std::optional<std::string>(pem_).value());
  EXPECT_EQ(TrustedLedgerKeyPem(boost::json::serialize(key_.jwk)).value(), pem_);
  EXPECT_EQ(TrustedLedgerKeyPem(boost::json::serialize(LedgerKeyDocument(key_))).value(), pem_);

  auto other = TreeHeadSigner::CreateEphemeral();
  ASSERT_TRUE(other);
  boost::json::object mixed = LedgerKeyDocument(key_);
  mixed["pem"] = (*other)->PublicKeyPem();
  EXPECT_FALSE(TrustedLedgerKeyPem(boost::json::serialize(mixed)));
  boost::json::object wrong_curve = key_.jwk;
  wrong_curve["crv"] = "X25519";
  EXPECT_FALSE(TrustedLedgerKeyPem(boost::json::serialize(wrong_curve)));
  boost::json::object short_x = key_.jwk;
  short_x["x"] = "AAAA";
  EXPECT_FALSE(TrustedLedgerKeyPem(boost::json::serialize(short_x)));
  EXPECT_FALSE(TrustedLedgerKeyPem("not a key"));
  EXPECT_FALSE(TrustedLedgerKeyPem("[1,2]"));
  // An RSA key is a key, but not a ledger key.
  const auto rsa = esign::testing::RunShell(
      "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 2>/dev/null | openssl pkey "
      "-pubout");
  ASSERT_EQ(rsa.exit_code, 0);
  EXPECT_FALSE(TrustedLedgerKeyPem(rsa.out));
}

}  // namespace
}  // namespace esign::eventstore
