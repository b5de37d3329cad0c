// The quickstart in TypeScript (examples/typescript), as an integrator runs it: compiled by tsc
// --strict against the types generated from the OpenAPI document, then run with the demo client
// against a live contractd. It signs for both signers and saves the signed PDF.
#include <fstream>
#include <regex>

#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

class TypescriptQuickstartTest : public ContractdFixture {};

TEST_F(TypescriptQuickstartTest, TheTypedClientCreatesSendsSignsAndDownloads) {
  const std::string example = std::string(SOURCE_DIR) + "/examples/typescript";
  const ShellResult compiled = RunShell("cd " + example + " && node_modules/.bin/tsc 2>&1");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.out;

  auto server = StartServer();
  ASSERT_NE(port_, 0);
  const std::string banner = server->output();
  std::smatch id, secret;
  ASSERT_TRUE(std::regex_search(banner, id, std::regex(R"(clientId\s+(cli_\S+))"))) << banner;
  ASSERT_TRUE(std::regex_search(banner, secret, std::regex(R"(clientSecret\s+(\S+))"))) << banner;
  // Run in the data directory, where the PDF is saved and removed with it.
  const ShellResult run =
      RunShell("cd " + data_dir_.string() + " && CLIENT_ID=" + id[1].str() +
               " CLIENT_SECRET=" + secret[1].str() + " " + NODE_EXECUTABLE + " " + example +
               "/dist/quickstart.js http://127.0.0.1:" + std::to_string(port_) + " 2>&1");
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("Ada signed"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Grace signed"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("status: completed"), std::string::npos) << run.out;
  std::smatch saved;
  ASSERT_TRUE(std::regex_search(run.out, saved, std::regex(R"(saved as (signed-ctr_\S+\.pdf))")))
      << run.out;
  std::ifstream in(data_dir_ / saved[1].str(), std::ios::binary);
  std::string head(5, '\0');
  in.read(head.data(), 5);
  EXPECT_EQ(head, "%PDF-");
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
