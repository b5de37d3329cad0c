// The OpenAPI document against the wire: tests/openapi/wire_check.mjs drives a live contractd
// through every operation family (authentication, templates, contracts, documents, evidence,
// signing sessions, hosted signing, webhooks, and an error of each status it can cause) and
// checks every answer against the document's schemas, closed to undescribed members.
#include <regex>

#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

class OpenApiWireTest : public ContractdFixture {};

TEST_F(OpenApiWireTest, EveryAnswerMatchesTheDocument) {
  // Loopback webhook URLs allowed: the endpoint points at a closed local port, so each delivery
  // attempt fails at once and is recorded.
  auto server = StartServer({"--webhook-allow-loopback", "true"});
  ASSERT_NE(port_, 0);
  const std::string banner = server->output();
  std::smatch id, secret;
  ASSERT_TRUE(std::regex_search(banner, id, std::regex(R"(clientId\s+(cli_\S+))"))) << banner;
  ASSERT_TRUE(std::regex_search(banner, secret, std::regex(R"(clientSecret\s+(\S+))"))) << banner;
  // A client of the same organization that may only read: the 403 answers.
  const Credentials reader = ParseCreated(CreateClient("org_demo", "contracts:read", "Reader"));

  const std::string dir = std::string(SOURCE_DIR) + "/tests/openapi";
  const ShellResult result =
      RunShell("cd " + dir + " && CLIENT_ID=" + id[1].str() + " CLIENT_SECRET=" + secret[1].str() +
               " READER_ID=" + reader.client_id + " READER_SECRET=" + reader.client_secret + " " +
               NODE_EXECUTABLE + " wire_check.mjs " + SOURCE_DIR +
               "/http/openapi.json http://127.0.0.1:" + std::to_string(port_) + " 2>&1");
  EXPECT_EQ(result.exit_code, 0) << result.out;
  // It reached the end of every family, not only the first answers.
  EXPECT_NE(result.out.find("every answer matches the document"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("retryWebhookDelivery 202"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("completeSigningSession 200"), std::string::npos) << result.out;
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
