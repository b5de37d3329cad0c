// The README's quickstarts, run as a user would: the demo client printed at first start, then
// examples/quickstart.sh (a template) and examples/upload-quickstart.sh (the integrator's own
// PDF) against the running server.
#include <cstdio>
#include <fstream>
#include <regex>

#include "domain/contract_events.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

class QuickstartTest : public ContractdFixture {
 protected:
  // Runs an example script with the demo client printed at first start; its output.
  std::string RunExample(const std::string& script, int& exit_code) {
    // The banner comes before the "listening on" line that StartServer waited for.
    const std::string out = server_->output();
    std::smatch id_match, secret_match;
    EXPECT_TRUE(std::regex_search(out, id_match, std::regex(R"(clientId\s+(cli_\S+))"))) << out;
    EXPECT_TRUE(std::regex_search(out, secret_match, std::regex(R"(clientSecret\s+(\S+))"))) << out;
    if (id_match.empty() || secret_match.empty()) return "";
    ShellResult result = RunShell(
        "cd " + std::string(SOURCE_DIR) + " && CLIENT_ID=" + id_match[1].str() +
        " CLIENT_SECRET=" + secret_match[1].str() + " OUTBOX=" + (data_dir_ / "outbox").string() +
        " bash " + script + " http://127.0.0.1:" + std::to_string(port_) + " 2>&1");
    exit_code = result.exit_code;
    return std::move(result.out);
  }

  // The signed PDF the script saved (and removes it).
  static void ExpectSignedPdfSaved(const std::string& output) {
    std::smatch saved;
    ASSERT_TRUE(std::regex_search(output, saved, std::regex(R"(saved as (signed-ctr_\S+\.pdf))")));
    const std::filesystem::path pdf = std::filesystem::path(SOURCE_DIR) / saved[1].str();
    std::ifstream in(pdf, std::ios::binary);
    std::string head(5, '\0');
    in.read(head.data(), 5);
    EXPECT_EQ(head, "%PDF-");
    std::filesystem::remove(pdf);
  }

  // Ada signed through the link she was mailed at the send, as the README says: no second
  // session replaced it. Only Grace's, made by the integrator, came besides.
  void ExpectAdaSignedThroughHerMailedLink(const std::string& output) {
    EXPECT_NE(output.find("signing link for Ada, from her mail: http://127.0.0.1:"),
              std::string::npos)
        << output;
    EXPECT_EQ(CountEvents(event_type::kSessionCancelled), 0u);
    EXPECT_EQ(CountEvents(event_type::kSessionCreated), 2u);
  }

  std::unique_ptr<ChildProcess> server_;
};

TEST_F(QuickstartTest, TheReadmeQuickstartCreatesSendsAndReadsAContract) {
  server_ = StartServer();
  ASSERT_NE(port_, 0);
  int exit_code = -1;
  const std::string output = RunExample("examples/quickstart.sh", exit_code);
  EXPECT_EQ(exit_code, 0) << output;
  EXPECT_NE(output.find("created ctr_"), std::string::npos) << output;
  EXPECT_NE(output.find("\"status\":\"sent\""), std::string::npos) << output;
  EXPECT_NE(output.find("\"items\":[{"), std::string::npos) << output;
  EXPECT_NE(output.find("Grace signed"), std::string::npos) << output;
  EXPECT_NE(output.find("\"status\":\"completed\""), std::string::npos) << output;
  ExpectSignedPdfSaved(output);
  StopServer(*server_);
  ExpectAdaSignedThroughHerMailedLink(output);
}

TEST_F(QuickstartTest, TheUploadQuickstartSignsTheIntegratorsOwnPdf) {
  server_ = StartServer();
  ASSERT_NE(port_, 0);
  int exit_code = -1;
  const std::string output = RunExample("examples/upload-quickstart.sh", exit_code);
  EXPECT_EQ(exit_code, 0) << output;
  EXPECT_NE(output.find("with 2 text tags"), std::string::npos) << output;
  EXPECT_NE(output.find("created and sent ctr_"), std::string::npos) << output;
  EXPECT_NE(output.find("Grace signed"), std::string::npos) << output;
  EXPECT_NE(output.find("\"status\":\"completed\""), std::string::npos) << output;
  ExpectSignedPdfSaved(output);
  StopServer(*server_);
  ExpectAdaSignedThroughHerMailedLink(output);
}

}  // namespace
}  // namespace esign::testing
