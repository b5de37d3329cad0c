// 429 RATE_LIMITED end to end: a client over its rate gets the error body with Retry-After, and
// its refused writes store nothing.
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

class RateLimitTest : public ContractdFixture {};

TEST_F(RateLimitTest, AClientOverItsRateIsToldWhenToRetry) {
  auto server = StartServer({"--rate-limit", "1", "--demo-client", "false"});
  ASSERT_NE(port_, 0);
  const auto created = CreateClient("org_rl", "contracts:create,contracts:read,templates:read");
  const std::string token = TokenFor(ParseCreated(created));
  HttpClient client(port_);
  const std::map<std::string, std::string> auth{{"Authorization", "Bearer " + token}};
  // A burst of two, then the bucket is empty.
  int limited = 0;
  HttpResult last;
  for (int i = 0; i < 4; ++i) {
    last = client.Post("/api/v1/contracts",
                       R"({"title":"Limited","templateId":"tpl_employment_offer"})", auth);
    if (last.status == 429) ++limited;
  }
  EXPECT_GE(limited, 1);
  EXPECT_EQ(last.status, 429) << last.body;
  EXPECT_EQ(last.ErrorCode(), "RATE_LIMITED");
  EXPECT_GE(std::stoi(last.Header("retry-after")), 1);
  StopServer(*server);
  EXPECT_EQ(CountEvents("contract.created"), 4u - limited);
}

// Issue 30: the hosted routes had no limit (64 link holders took the process from 439 MB to
// 1,970 MB). They are limited per link and per address; the link in the path never reaches the
// access log, however it is spelled.
TEST_F(RateLimitTest, SigningLinksAreLimitedPerLinkAndPerAddress) {
  auto server =
      StartServer({"--demo-client", "false", "--link-rate-limit", "0.01", "--link-burst", "3",
                   "--link-address-rate-limit", "0.01", "--link-address-burst", "5"});
  ASSERT_NE(port_, 0);
  HttpClient first(port_, "127.0.0.1");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(first.Get("/sign/linkA").status, 200);
  auto limited = first.Get("/sign/linkA");
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_EQ(limited.ErrorCode(), "RATE_LIMITED");
  EXPECT_GE(std::stoi(limited.Header("retry-after")), 1);
  // Another link from another address is served.
  EXPECT_EQ(HttpClient(port_, "127.0.0.2").Get("/sign/linkB").status, 200);
  // One address with many links: its fifth request over every link is the last.
  EXPECT_EQ(first.Get("/sign/linkC").status, 200);
  EXPECT_EQ(first.Get("/sign/linkD").status, 200);
  EXPECT_EQ(first.Get("/sign/linkE").status, 429);
  // The hosted API counts the same way as the page.
  HttpClient third(port_, "127.0.0.3");
  for (int i = 0; i < 3; ++i) {
    EXPECT_NE(third.Get("/api/v1/hosted-signing/linkF").status, 429);
  }
  auto api_limited = third.Post("/api/v1/hosted-signing/linkF/complete", "{}");
  EXPECT_EQ(api_limited.status, 429) << api_limited.body;
  EXPECT_EQ(api_limited.ErrorCode(), "RATE_LIMITED");
  // Spellings of a link that our router does not serve still hold it: the log shows none.
  HttpClient fourth(port_, "127.0.0.4");
  for (const std::string target :
       {"/api/v1/HOSTED-SIGNING/SecretLinkX1", "/api/v1/hosted-signing;x/SecretLinkX2",
        "/api/v1/hosted-signing%2FSecretLinkX3", "/SIGN/SecretLinkX4"}) {
    auto response = fourth.Get(target, {{"X-Request-Id", "redaction-probe"}});
    EXPECT_NE(response.status, 200) << target;
  }
  StopServer(*server);
  EXPECT_NE(server->output().find("redaction-probe"), std::string::npos);
  EXPECT_EQ(server->output().find("SecretLinkX"), std::string::npos) << server->output();
}

}  // namespace
}  // namespace esign::testing
