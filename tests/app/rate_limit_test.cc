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

}  // namespace
}  // namespace esign::testing
