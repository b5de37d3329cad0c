#include "http/log_redaction.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

TEST(LogRedactionTest, SigningLinkTokensNeverReachTheLog) {
  EXPECT_EQ(RedactedPath("/sign/abcDEF123_-"), "/sign/{token}");
  EXPECT_EQ(RedactedPath("/api/v1/hosted-signing/abcDEF123"), "/api/v1/hosted-signing/{token}");
  EXPECT_EQ(RedactedPath("/embed/abcDEF123"), "/embed/{token}");
  EXPECT_EQ(RedactedPath("/api/v1/hosted-signing/abc/complete"),
            "/api/v1/hosted-signing/{token}/complete");
}

TEST(LogRedactionTest, TokensInOtherFormsOfTheTargetAreRedactedToo) {
  EXPECT_EQ(RedactedPath("http://h/api/v1/hosted-signing/abcDEF123"),
            "http://h/api/v1/hosted-signing/{token}");
  EXPECT_EQ(RedactedPath("http://h/sign/abc"), "http://h/sign/{token}");
  EXPECT_EQ(RedactedPath("//sign/abc"), "//sign/{token}");
  EXPECT_EQ(RedactedPath("/x/sign/abc/sign/def"), "/x/sign/{token}/sign/{token}");
}

// The review's paths: another case, a matrix parameter, an encoded slash; none was redacted.
TEST(LogRedactionTest, TokensAreRedactedAfterDecodingInAnyCase) {
  EXPECT_EQ(RedactedPath("/api/v1/HOSTED-SIGNING/abcDEF123"), "/api/v1/HOSTED-SIGNING/{token}");
  EXPECT_EQ(RedactedPath("/api/v1/hosted-signing;x/abcDEF123/complete"),
            "/api/v1/hosted-signing;x/{token}/complete");
  EXPECT_EQ(RedactedPath("/api/v1/hosted-signing%2FabcDEF123"), "/api/v1/hosted-signing/{token}");
  EXPECT_EQ(RedactedPath("/api/v1/hosted-signing/%2FabcDEF123"), "/api/v1/hosted-signing//{token}");
  EXPECT_EQ(RedactedPath("/api/v1/hosted%2dsigning/abcDEF123"), "/api/v1/hosted-signing/{token}");
  EXPECT_EQ(RedactedPath("/Sign/abcDEF123"), "/Sign/{token}");
  EXPECT_EQ(RedactedPath("/%73ign/abcDEF123"), "/sign/{token}");
  EXPECT_EQ(RedactedPath("/sign%252FabcDEF123"), "/sign/{token}");
  EXPECT_EQ(RedactedPath("/sign\\abcDEF123"), "/sign\\{token}");
  EXPECT_EQ(RedactedPath("/sign;a=b/abcDEF123"), "/sign;a=b/{token}");
}

TEST(LogRedactionTest, ParametersNamedTokenOrSecretAreRedacted) {
  EXPECT_EQ(RedactedPath("/api/v1/contracts?token=abcDEF123&x=1"),
            "/api/v1/contracts?token={redacted}&x=1");
  EXPECT_EQ(RedactedPath("/unknown%3Faccess_token=abc"), "/unknown?access_token={redacted}");
  EXPECT_EQ(RedactedPath("/unknown;Client_Secret=abc/x"), "/unknown;Client_Secret={redacted}/x");
  EXPECT_EQ(RedactedPath("/unknown?tokens=1"), "/unknown?tokens=1");
}

TEST(LogRedactionTest, WhatIsLoggedIsPrintableAscii) {
  EXPECT_EQ(RedactedPath("/a%20b%0Ac%25"), "/a%20b%0Ac%25");
  EXPECT_EQ(RedactedPath("/caf\xC3\xA9"), "/caf%C3%A9");
  // Encoded more often than any chain of decoders would undo: not shown at all.
  EXPECT_EQ(RedactedPath("/sign%252525252FabcDEF123").find("abcDEF123"), std::string::npos);
}

TEST(LogRedactionTest, OtherPathsStayAsTheyAre) {
  EXPECT_EQ(RedactedPath("/api/v1/contracts/ctr_1/status"), "/api/v1/contracts/ctr_1/status");
  EXPECT_EQ(RedactedPath("/sign/"), "/sign/");
  EXPECT_EQ(RedactedPath("/signing"), "/signing");
}

}  // namespace
}  // namespace esign::http
