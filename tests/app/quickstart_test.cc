// The README's quickstart, run as a user would: the demo client printed at first start, then
// examples/quickstart.sh against the running server.
#include <cstdio>
#include <fstream>
#include <regex>

#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

class QuickstartTest : public ContractdFixture {};

std::string Capture(const std::string& command, int& exit_code) {
  ShellResult result = RunShell(command);
  exit_code = result.exit_code;
  return std::move(result.out);
}

TEST_F(QuickstartTest, TheReadmeQuickstartCreatesSendsAndReadsAContract) {
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  // The banner comes before the "listening on" line that StartServer waited for.
  const std::string out = server->output();
  std::smatch id_match, secret_match;
  ASSERT_TRUE(std::regex_search(out, id_match, std::regex(R"(clientId\s+(cli_\S+))"))) << out;
  ASSERT_TRUE(std::regex_search(out, secret_match, std::regex(R"(clientSecret\s+(\S+))"))) << out;

  int exit_code = -1;
  const std::string output = Capture(
      "cd " + std::string(SOURCE_DIR) + " && CLIENT_ID=" + id_match[1].str() +
          " CLIENT_SECRET=" + secret_match[1].str() +
          " bash examples/quickstart.sh http://127.0.0.1:" + std::to_string(port_) + " 2>&1",
      exit_code);
  EXPECT_EQ(exit_code, 0) << output;
  EXPECT_NE(output.find("created ctr_"), std::string::npos) << output;
  EXPECT_NE(output.find("\"status\":\"sent\""), std::string::npos) << output;
  EXPECT_NE(output.find("\"items\":[{"), std::string::npos) << output;
  EXPECT_NE(output.find("Grace signed"), std::string::npos) << output;
  EXPECT_NE(output.find("\"status\":\"completed\""), std::string::npos) << output;
  std::smatch saved;
  ASSERT_TRUE(std::regex_search(output, saved, std::regex(R"(saved as (signed-ctr_\S+\.pdf))")));
  const std::filesystem::path pdf = std::filesystem::path(SOURCE_DIR) / saved[1].str();
  std::ifstream in(pdf, std::ios::binary);
  std::string head(5, '\0');
  in.read(head.data(), 5);
  EXPECT_EQ(head, "%PDF-");
  std::filesystem::remove(pdf);
  StopServer(*server);
}

}  // namespace
}  // namespace esign::testing
