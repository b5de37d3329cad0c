// The verified-token cache: exact matches only, and a bound that drops expired tokens first.
#include "http/auth_token_cache.h"

#include <gtest/gtest.h>

#include <string>

namespace esign::http {
namespace {

std::shared_ptr<const TokenClaims> ClaimsExpiringAt(int64_t expires_at) {
  return std::make_shared<const TokenClaims>(TokenClaims{.token_id = "tok_1",
                                                         .client_id = "cli_1",
                                                         .organization_id = "org_1",
                                                         .scope = {"contracts:read"},
                                                         .issued_at = 0,
                                                         .expires_at = expires_at});
}

TEST(VerifiedTokenCacheTest, FindsOnlyTheWholeTokenItWasGiven) {
  VerifiedTokenCache cache;
  const auto claims = ClaimsExpiringAt(100);
  cache.Insert("at.payload.mac", claims, 10);
  EXPECT_EQ(cache.Find("at.payload.mac"), claims);
  EXPECT_EQ(cache.Find("at.payload.maC"), nullptr);
  EXPECT_EQ(cache.Find("At.payload.mac"), nullptr);
  EXPECT_EQ(cache.Find("at.pAyload.mac"), nullptr);
  EXPECT_EQ(cache.Find("at.payload.ma"), nullptr);
  EXPECT_EQ(cache.Find("at.payload.macx"), nullptr);
  EXPECT_EQ(cache.Find(""), nullptr);
}

// Tokens longer than the hashed end, alike there and different before it: told apart anywhere.
TEST(VerifiedTokenCacheTest, TellsApartTokensThatShareTheirEnd) {
  VerifiedTokenCache cache;
  const std::string mac(43, 'm');
  const std::string token = "at.eyJzdWIiOiJjbGlfMSJ9." + mac;
  const auto claims = ClaimsExpiringAt(100);
  cache.Insert(token, claims, 10);
  EXPECT_EQ(cache.Find(token), claims);
  for (size_t i = 0; i < token.size(); ++i) {
    std::string other = token;
    other[i] = other[i] == 'x' ? 'y' : 'x';
    EXPECT_EQ(cache.Find(other), nullptr) << i;
  }
  EXPECT_EQ(cache.Find("at.eyJzdWIiOiJjbGlfMiJ9." + mac), nullptr);
}

TEST(VerifiedTokenCacheTest, AFullCacheDropsExpiredTokensFirst) {
  VerifiedTokenCache cache(3);
  cache.Insert("a", ClaimsExpiringAt(50), 10);
  cache.Insert("b", ClaimsExpiringAt(200), 10);
  cache.Insert("c", ClaimsExpiringAt(60), 10);
  cache.Insert("d", ClaimsExpiringAt(300), 100);  // a and c have expired by now
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find("a"), nullptr);
  EXPECT_NE(cache.Find("b"), nullptr);
  EXPECT_EQ(cache.Find("c"), nullptr);
  EXPECT_NE(cache.Find("d"), nullptr);
}

TEST(VerifiedTokenCacheTest, AFullCacheOfLiveTokensStartsOver) {
  VerifiedTokenCache cache(2);
  cache.Insert("a", ClaimsExpiringAt(500), 10);
  cache.Insert("b", ClaimsExpiringAt(500), 10);
  cache.Insert("c", ClaimsExpiringAt(500), 10);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_NE(cache.Find("c"), nullptr);
}

TEST(VerifiedTokenCacheTest, ZeroCapacityRemembersNothing) {
  VerifiedTokenCache cache(0);
  cache.Insert("a", ClaimsExpiringAt(500), 10);
  EXPECT_EQ(cache.Find("a"), nullptr);
}

}  // namespace
}  // namespace esign::http
