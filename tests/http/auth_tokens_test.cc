// Access tokens: the documented format, MAC checks against forgery and tampering, and the key
// file (created once, mode 0600, reused, refused when damaged).
#include "http/auth_tokens.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "base/base64.h"
#include "http/auth_token_key.h"

namespace esign::http {
namespace {

const std::string kKey(32, 'k');

TokenClaims Claims() {
  return TokenClaims{
      .token_id = "tok_1",
      .client_id = "cli_1",
      .organization_id = "org_1",
      .scope = {"contracts:read", "contracts:send"},
      .issued_at = 1'800'000'000,
      .expires_at = 1'800'003'600,
  };
}

std::string Mac(const std::string& key, const std::string& message) {
  unsigned char out[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), out, &length);
  return std::string(reinterpret_cast<const char*>(out), length);
}

// A token as an attacker who knows the key would build it, with any payload text.
std::string Sign(const std::string& key, const std::string& payload) {
  const std::string signed_part = "at." + Base64UrlEncode(payload);
  return signed_part + "." + Base64UrlEncode(Mac(key, signed_part));
}

class TokenCodecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto codec = TokenCodec::Create(kKey);
    ASSERT_TRUE(codec);
    codec_ = std::move(*codec);
  }
  std::unique_ptr<TokenCodec> codec_;
};

TEST_F(TokenCodecTest, IssuesTheDocumentedFormat) {
  const std::string token = codec_->Issue(Claims());
  ASSERT_TRUE(token.starts_with("at."));
  const size_t dot = token.rfind('.');
  ASSERT_GT(dot, 3u);
  // The MAC is a plain HMAC-SHA256 over "at." + payload, so any implementation can check it.
  EXPECT_EQ(Base64UrlDecode(token.substr(dot + 1)), Mac(kKey, token.substr(0, dot)));
  auto payload = Base64UrlDecode(token.substr(3, dot - 3));
  ASSERT_TRUE(payload);
  EXPECT_EQ(boost::json::parse(*payload),
            boost::json::parse(R"({"jti":"tok_1","sub":"cli_1","org":"org_1",
                "scope":"contracts:read contracts:send","iat":1800000000,"exp":1800003600})"));
}

TEST_F(TokenCodecTest, VerifiesWhatItIssued) {
  auto claims = codec_->Verify(codec_->Issue(Claims()));
  ASSERT_TRUE(claims);
  EXPECT_EQ(claims->token_id, "tok_1");
  EXPECT_EQ(claims->client_id, "cli_1");
  EXPECT_EQ(claims->organization_id, "org_1");
  EXPECT_EQ(claims->scope, Claims().scope);
  EXPECT_EQ(claims->issued_at, 1'800'000'000);
  EXPECT_EQ(claims->expires_at, 1'800'003'600);
  EXPECT_EQ(claims->ScopeString(), "contracts:read contracts:send");
}

TEST_F(TokenCodecTest, RefusesTamperedAndForgedTokens) {
  const std::string token = codec_->Issue(Claims());
  std::vector<std::string> bad;
  for (size_t i = 3; i < token.size(); i += 7) {
    std::string changed = token;
    changed[i] = changed[i] == 'A' ? 'B' : 'A';
    if (changed[i] != token[i] && token[i] != '.') bad.push_back(changed);
  }
  bad.push_back(token.substr(0, token.size() - 1));
  bad.push_back(token + "A");
  bad.push_back(token + ".");
  bad.push_back("xt" + token.substr(2));
  bad.push_back(token.substr(3));
  bad.push_back("");
  bad.push_back("at.");
  bad.push_back("at..");
  bad.push_back(Sign(std::string(32, 'x'), R"({"jti":"t","sub":"c","org":"o","scope":"",)"
                                           R"("iat":1,"exp":9999999999})"));
  for (const auto& t : bad) {
    auto result = codec_->Verify(t);
    ASSERT_FALSE(result) << t;
    EXPECT_EQ(result.error().code, ErrorCode::kUnauthenticated);
    EXPECT_EQ(result.error().message, "invalid or expired token");
  }
}

TEST_F(TokenCodecTest, ChecksThePayloadEvenUnderAValidMac) {
  for (const std::string payload : {
           R"([])",
           R"(not json)",
           R"({"sub":"c","org":"o","scope":"","iat":1,"exp":2})",
           R"({"jti":1,"sub":"c","org":"o","scope":"","iat":1,"exp":2})",
           R"({"jti":"t","sub":"c","org":"o","scope":"","iat":1,"exp":"2"})",
           R"({"jti":"t","sub":"c","org":"o","scope":"","iat":1.5,"exp":2})",
       }) {
    EXPECT_FALSE(codec_->Verify(Sign(kKey, payload))) << payload;
  }
  EXPECT_TRUE(
      codec_->Verify(Sign(kKey, R"({"jti":"t","sub":"c","org":"o","scope":"","iat":1,"exp":2})")));
}

TEST_F(TokenCodecTest, RefusesOverlongInputBeforeAnyWork) {
  EXPECT_FALSE(codec_->Verify("at." + std::string(kMaxTokenLength, 'A') + ".AAAA"));
}

TEST_F(TokenCodecTest, KeysMustBe32Bytes) {
  EXPECT_FALSE(TokenCodec::Create(std::string(31, 'k')));
  EXPECT_FALSE(TokenCodec::Create(std::string(33, 'k')));
  auto other = TokenCodec::Create(std::string(32, 'o'));
  ASSERT_TRUE(other);
  EXPECT_FALSE((*other)->Verify(codec_->Issue(Claims())));
}

class TokenKeyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("token-key-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(TokenKeyFileTest, CreatesTheKeyOnceWithMode0600AndReusesIt) {
  const auto file = dir_ / "token-key";
  auto first = LoadOrCreateTokenKey(file);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->size(), 32u);
  struct stat info {};
  ASSERT_EQ(::stat(file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(info.st_size, 32);
  auto second = LoadOrCreateTokenKey(file);
  ASSERT_TRUE(second);
  EXPECT_EQ(*first, *second);
  // Only the key itself: the temporary file is gone.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST_F(TokenKeyFileTest, RefusesADamagedKey) {
  const auto file = dir_ / "token-key";
  std::ofstream(file) << "short";
  auto key = LoadOrCreateTokenKey(file);
  ASSERT_FALSE(key);
  EXPECT_EQ(key.error().code, ErrorCode::kCorruption);
}

TEST_F(TokenKeyFileTest, FailsCleanlyWhenTheDirectoryIsMissing) {
  auto key = LoadOrCreateTokenKey(dir_ / "missing" / "token-key");
  ASSERT_FALSE(key);
  EXPECT_EQ(key.error().code, ErrorCode::kStorage);
}

}  // namespace
}  // namespace esign::http
