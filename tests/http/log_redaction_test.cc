#include "http/log_redaction.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

TEST(LogRedactionTest, SigningLinkTokensNeverReachTheLog) {
  EXPECT_EQ(RedactedPath("/sign/abcDEF123_-"), "/sign/{token}");
  EXPECT_EQ(RedactedPath("/api/v1/hosted-signing/abcDEF123"), "/api/v1/hosted-signing/{token}");
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

TEST(LogRedactionTest, OtherPathsStayAsTheyAre) {
  EXPECT_EQ(RedactedPath("/api/v1/contracts/ctr_1/status"), "/api/v1/contracts/ctr_1/status");
  EXPECT_EQ(RedactedPath("/sign/"), "/sign/");
  EXPECT_EQ(RedactedPath("/signing"), "/signing");
}

}  // namespace
}  // namespace esign::http
