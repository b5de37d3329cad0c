// contractd with --tsa-url: the tree heads it signs are timestamped by a real RFC 3161 authority
// on loopback (tests/support/tsa_server.mjs), the evidence bundle carries the token and
// `contract-ledger verify-bundle` checks it; with the authority down, heads and bundles claim no
// timestamp and nothing fails.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/admin_socket.h"
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
    // Against the key the running service publishes.
    auto result =
        RunShell(std::string(LEDGER_BINARY) + " verify-bundle " + path.string() +
                 " --public-key-url http://127.0.0.1:" + std::to_string(port_) + " " + flags);
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

// An authority that never answers (tsa_server.mjs "slow", --tsa-timeout-ms 1500). The bundle read
// that signed a new head waits for it once; the reads that come meanwhile take that head as it is
// instead of queueing behind it. Three failures in a row pause the authority: the next heads are
// signed without asking it (it receives nothing more) until the pause of 60 s has passed (the
// admin socket moves the service's clock), and then a head is timestamped again.
TEST_F(TrustedTimeTest, AHangingAuthorityHoldsUpOneReadOnceAndIsPausedAfterThreeFailures) {
  using std::chrono::milliseconds;
  using std::chrono::steady_clock;
  constexpr milliseconds kTimeout(1500);
  const TestTsa tsa("slow");
  const Credentials credentials =
      ParseCreated(CreateClient("org_a", "contracts:read,contracts:create,contracts:send"));
  server_ =
      StartServer({"--tsa-url", tsa.Url(), "--tsa-timeout-ms", std::to_string(kTimeout.count()),
                   "--tree-head-interval", "3600", "--clock-offset", "0"});
  const std::map<std::string, std::string> auth = {
      {"Authorization", "Bearer " + TokenFor(credentials)}};
  // A new contract (so that the next bundle read signs a new head), and its bundle's path.
  const auto new_contract = [&] {
    HttpClient client(port_);
    auto created = client.Post("/api/v1/contracts", NdaBody("Timed", true, true), auth);
    EXPECT_EQ(created.status, 201) << created.body;
    return "/api/v1/contracts/" + std::string(created.Json().at("id").as_string()) +
           "/evidence/bundle";
  };
  struct Read {
    HttpResult answer;
    milliseconds took{};
  };
  const auto read = [&](const std::string& path) {
    HttpClient client(port_);
    const auto started = steady_clock::now();
    Read done{client.Get(path, auth)};
    done.took = std::chrono::duration_cast<milliseconds>(steady_clock::now() - started);
    EXPECT_EQ(done.answer.status, 200) << done.answer.body;
    return done;
  };
  const auto timestamped = [](const Read& done) {
    return done.answer.status == 200 &&
           done.answer.Json().at("ledger").as_object().contains("treeHeadTimestamp");
  };

  const std::string first = new_contract();
  Read signing;
  std::thread signer([&] { signing = read(first); });
  for (int i = 0; i < 500 && tsa.Received() == 0; ++i) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  ASSERT_EQ(tsa.Received(), 1u);
  std::vector<Read> reads(5);
  std::vector<std::thread> readers;
  for (Read& r : reads) readers.emplace_back([&] { r = read(first); });
  for (std::thread& t : readers) t.join();
  signer.join();
  for (const Read& r : reads) {
    EXPECT_LT(r.took, kTimeout / 2) << "a read waited for the authority it did not ask";
    EXPECT_FALSE(timestamped(r));
  }
  EXPECT_GE(signing.took, kTimeout);
  EXPECT_LT(signing.took, 2 * kTimeout);
  EXPECT_FALSE(timestamped(signing));
  EXPECT_EQ(tsa.Received(), 1u);

  // Failures two and three open the breaker.
  for (int i = 0; i < 2; ++i) EXPECT_GE(read(new_contract()).took, kTimeout);
  EXPECT_EQ(tsa.Received(), 3u);
  EXPECT_TRUE(server_->WaitForLine("failed 3 times in a row", std::chrono::seconds(5)));
  for (int i = 0; i < 2; ++i) {
    const Read paused = read(new_contract());
    EXPECT_LT(paused.took, kTimeout / 2);
    EXPECT_FALSE(timestamped(paused));
  }
  EXPECT_EQ(tsa.Received(), 3u);

  // The pause over, the next head asks again, and the authority, now answering, timestamps it.
  tsa.SetMode("ok");
  auto advanced =
      app::AdminRequest(data_dir_ / "admin.sock", R"({"command":"clock.advance","seconds":61})",
                        std::chrono::seconds(10));
  ASSERT_TRUE(advanced && *advanced);
  EXPECT_NE((*advanced)->find(R"("ok":true)"), std::string::npos) << **advanced;
  const Read again = read(new_contract());
  EXPECT_TRUE(timestamped(again)) << again.answer.body;
  EXPECT_EQ(tsa.Received(), 4u);
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
