// A standard OAuth 2.0 client library (tests/oauth/client_credentials.mjs, openid-client pinned
// by package-lock.json) against a live contractd started here.
#include <gtest/gtest.h>

#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

class OAuthClientTest : public ContractdFixture {};

TEST_F(OAuthClientTest, OpenidClientObtainsAndUsesTokensWithBasicAndPostAuthentication) {
  auto server = StartServer({"--demo-client", "false"});
  ASSERT_NE(port_, 0);
  auto created =
      RunContractd({"clients", "create", "--data-dir", data_dir_.string(), "--org", "org_oauth",
                    "--permissions", "contracts:read,contracts:create", "--name", "openid-client"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  auto client = boost::json::parse(created.out).as_object();
  ShellResult result =
      RunShell("cd " + std::string(SOURCE_DIR) + "/tests/oauth && " + NODE_EXECUTABLE +
               " client_credentials.mjs http://127.0.0.1:" + std::to_string(port_) + " " +
               std::string(client.at("clientId").as_string()) + " " +
               std::string(client.at("clientSecret").as_string()) + " 2>&1");
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("client_secret_basic: token obtained and used"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("client_secret_post: wrong secret and wider scope refused"),
            std::string::npos)
      << result.out;
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
