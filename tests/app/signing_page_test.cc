// The hosted signing page as a browser fetches it from a running contractd: any token, no
// bearer token, HTML with the security headers the page relies on.
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

class SigningPageTest : public ContractdFixture {};

TEST_F(SigningPageTest, ServesThePageWithoutAuthenticationAndWithSecurityHeaders) {
  auto server = StartServer({"--demo-client", "false"});
  ASSERT_NE(port_, 0);
  HttpClient client(port_);

  auto page = client.Get("/sign/tok_unknown", {{"X-Request-Id", "req_page"}});
  EXPECT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.Header("content-type"), "text/html; charset=utf-8");
  EXPECT_EQ(page.Header("x-request-id"), "req_page");
  EXPECT_EQ(page.Header("x-frame-options"), "DENY");
  EXPECT_EQ(page.Header("referrer-policy"), "no-referrer");
  EXPECT_EQ(page.Header("cache-control"), "no-store");
  const std::string csp = page.Header("content-security-policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_NE(page.body.find("<!DOCTYPE html>"), std::string::npos);
  EXPECT_NE(page.body.find("/api/v1/hosted-signing/"), std::string::npos);

  // A bearer token is neither needed nor looked at.
  auto with_bearer = client.Get("/sign/tok_other", {{"Authorization", "Bearer not-a-token"}});
  EXPECT_EQ(with_bearer.status, 200);
  EXPECT_EQ(with_bearer.body, page.body);

  auto posted = client.Post("/sign/tok_unknown", "{}");
  EXPECT_EQ(posted.status, 405);
  EXPECT_EQ(posted.ErrorCode(), "METHOD_NOT_ALLOWED");
  EXPECT_EQ(client.Get("/sign/").status, 404);
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
