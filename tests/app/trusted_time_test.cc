// contractd with --tsa-url: the tree heads it signs are timestamped by a real RFC 3161 authority
// on loopback (tests/support/tsa_server.mjs), the evidence bundle carries the token and
// `contract-ledger verify-bundle` checks it; with the authority down, heads and bundles claim no
// timestamp and nothing fails.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <string>
#include <thread>

#include "documents/pdf_signature_check.h"
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

  ShellResult VerifyOffline(const boost::json::object& bundle, const std::string& flags = "") {
    const auto path = data_dir_.parent_path() / (data_dir_.filename().string() + "-bundle.json");
    std::ofstream(path) << boost::json::serialize(bundle);
    auto result =
        RunShell(std::string(LEDGER_BINARY) + " verify-bundle " + path.string() + " " + flags);
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

  // Anchored to the authority's CA, and refused against a CA that did not issue it.
  const auto anchored = VerifyOffline(bundle, "--tsa-ca " + tsa.CaFile());
  EXPECT_EQ(anchored.exit_code, 0) << anchored.out;
  EXPECT_NE(anchored.out.find("anchored to the trusted CA"), std::string::npos) << anchored.out;
  const TestTsa other;
  const auto foreign = VerifyOffline(bundle, "--tsa-ca " + other.CaFile());
  EXPECT_EQ(foreign.exit_code, 1) << foreign.out;
  EXPECT_NE(foreign.out.find("FAIL ledger.treeHead.timestamp"), std::string::npos) << foreign.out;

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

// A contract completed through contractd with an authority: its sealed PDF carries the
// certificate pages, pdfsig validates the whole document, the seal's timestamp verifies against
// the authority's CA, and the service's verification report names the timestamp.
TEST_F(TrustedTimeTest, ACompletedContractIsSealedBLtWithItsCertificate) {
  const TestTsa tsa;
  const Credentials credentials = ParseCreated(CreateClient("org_a", kAll));
  server_ = StartServer({"--tsa-url", tsa.Url(), "--tsa-ca-file", tsa.CaFile()});
  HttpClient client(port_);
  const std::map<std::string, std::string> auth = {
      {"Authorization", "Bearer " + TokenFor(credentials)}};
  auto created = client.Post("/api/v1/contracts", NdaBody("Timed", true, true), auth);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.Json().at("id").as_string());
  ASSERT_NO_FATAL_FAILURE(SignSentNda(client, auth, created.Json().as_object()));

  HttpResult pdf;
  for (int attempt = 0; attempt < 300; ++attempt) {
    pdf = client.Get("/api/v1/contracts/" + id + "/documents/signed-only", auth);
    if (pdf.status == 200) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(pdf.status, 200) << pdf.body;
  const auto path = data_dir_.parent_path() / (data_dir_.filename().string() + "-signed.pdf");
  std::ofstream(path, std::ios::binary) << pdf.body;
  const auto pdfsig = RunShell("pdfsig " + path.string());
  EXPECT_NE(pdfsig.out.find("Signature is Valid"), std::string::npos) << pdfsig.out;
  EXPECT_NE(pdfsig.out.find("Total document signed"), std::string::npos) << pdfsig.out;
  const auto text = RunShell("pdftotext " + path.string() + " -");
  EXPECT_NE(text.out.find("Certificate of completion"), std::string::npos);
  std::filesystem::remove(path);

  auto signatures = documents::CheckPdfSignatures(pdf.body, {}, tsa.CaPem());
  ASSERT_TRUE(signatures.has_value()) << signatures.error().message;
  ASSERT_EQ(signatures->size(), 1u);
  EXPECT_TRUE(signatures->front().valid) << signatures->front().error;
  EXPECT_FALSE(signatures->front().timestamp_time.empty());
  EXPECT_NE(signatures->front().timestamp_authority.find("Test Time Stamping Authority"),
            std::string::npos);

  auto report = client.Get("/api/v1/contracts/" + id + "/evidence/verification", auth);
  ASSERT_EQ(report.status, 200) << report.body;
  EXPECT_EQ(report.Json().at("valid"), true) << report.body;
  bool timestamped_seal = false;
  bool timestamped_head = false;
  for (const auto& check : report.Json().at("checks").as_array()) {
    const std::string_view name = check.at("name").as_string();
    const std::string_view detail = check.at("detail").as_string();
    if (name.ends_with(".signed_pdf.signature[Signature1]")) {
      timestamped_seal = detail.find(", timestamped ") != std::string_view::npos;
    }
    // The service anchors its report to --tsa-ca-file.
    if (name == "ledger.treeHead.timestamp") {
      timestamped_head = check.at("passed").as_bool() &&
                         detail.find("anchored to the trusted CA") != std::string_view::npos;
    }
  }
  EXPECT_TRUE(timestamped_seal) << report.body;
  EXPECT_TRUE(timestamped_head) << report.body;
  StopServer(*server_);
}

}  // namespace
}  // namespace esign::testing
