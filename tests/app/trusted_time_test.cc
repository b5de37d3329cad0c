// contractd with --tsa-url: the tree heads it signs are timestamped by a real RFC 3161 authority
// on loopback (tests/support/tsa_server.mjs), the evidence bundle carries the token and
// `contract-ledger verify-bundle` checks it; with the authority down, heads and bundles claim no
// timestamp and nothing fails.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <string>

#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"
#include "tests/support/test_tsa.h"

namespace esign::testing {
namespace {

class TrustedTimeTest : public ContractdFixture {
 protected:
  // The evidence bundle of a freshly sent contract, from a server timestamping at `tsa_url`.
  boost::json::object BundleWith(const std::string& tsa_url) {
    const Credentials credentials =
        ParseCreated(CreateClient("org_a", "contracts:read,contracts:create,contracts:send"));
    server_ = StartServer({"--tsa-url", tsa_url});
    HttpClient client(port_);
    const std::map<std::string, std::string> auth = {
        {"Authorization", "Bearer " + TokenFor(credentials)}};
    auto created = client.Post("/api/v1/contracts", NdaBody("Timed", true, true), auth);
    EXPECT_EQ(created.status, 201) << created.body;
    if (created.status != 201) return {};
    const std::string id(created.Json().at("id").as_string());
    auto bundle = client.Get("/api/v1/contracts/" + id + "/evidence/bundle", auth);
    EXPECT_EQ(bundle.status, 200) << bundle.body;
    return bundle.status == 200 ? bundle.Json().as_object() : boost::json::object{};
  }

  ShellResult VerifyOffline(const boost::json::object& bundle) {
    const auto path = data_dir_.parent_path() / (data_dir_.filename().string() + "-bundle.json");
    std::ofstream(path) << boost::json::serialize(bundle);
    auto result = RunShell(std::string(LEDGER_BINARY) + " verify-bundle " + path.string());
    std::filesystem::remove(path);
    return result;
  }

  std::unique_ptr<ChildProcess> server_;
};

TEST_F(TrustedTimeTest, TreeHeadsAreTimestampedAndTheAuditorsToolChecksTheToken) {
  const TestTsa tsa;
  const boost::json::object bundle = BundleWith(tsa.Url());
  ASSERT_TRUE(bundle.contains("ledger"));
  const auto& ledger = bundle.at("ledger").as_object();
  ASSERT_TRUE(ledger.contains("treeHeadTimestamp")) << boost::json::serialize(ledger);
  EXPECT_GE(tsa.Served(), 1u);

  const auto checked = VerifyOffline(bundle);
  EXPECT_EQ(checked.exit_code, 0) << checked.out;
  EXPECT_NE(checked.out.find("pass ledger.treeHead.timestamp"), std::string::npos) << checked.out;
  EXPECT_NE(checked.out.find("Test Time Stamping Authority"), std::string::npos) << checked.out;

  boost::json::object changed = bundle;
  std::string token(changed["ledger"].as_object()["treeHeadTimestamp"].as_string());
  token[token.size() - 6] = token[token.size() - 6] == 'A' ? 'B' : 'A';
  changed["ledger"].as_object()["treeHeadTimestamp"] = token;
  const auto refused = VerifyOffline(changed);
  EXPECT_NE(refused.exit_code, 0) << refused.out;
  EXPECT_NE(refused.out.find("FAIL ledger.treeHead.timestamp"), std::string::npos) << refused.out;
  StopServer(*server_);
}

TEST_F(TrustedTimeTest, AnAuthorityDownLeavesHeadsWithoutATimestampAndClaimsNone) {
  const boost::json::object bundle = BundleWith(RefusingUrl());
  ASSERT_TRUE(bundle.contains("ledger"));
  EXPECT_FALSE(bundle.at("ledger").as_object().contains("treeHeadTimestamp"));
  const auto checked = VerifyOffline(bundle);
  EXPECT_EQ(checked.exit_code, 0) << checked.out;
  EXPECT_EQ(checked.out.find("treeHead.timestamp"), std::string::npos) << checked.out;
  EXPECT_TRUE(server_->WaitForLine("kept without a timestamp", std::chrono::seconds(5)));
  StopServer(*server_);
}

}  // namespace
}  // namespace esign::testing
