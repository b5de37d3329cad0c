// contractd as a user runs it: a real process on a real data directory, spoken to over loopback.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "eventstore/rocksdb_event_store.h"
#include "tests/support/child_process.h"
#include "tests/support/http_client.h"

namespace esign {
namespace {

using namespace std::chrono_literals;
using testing::ChildProcess;
using testing::HttpClient;

class ContractdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    data_dir_ = std::filesystem::temp_directory_path() /
                ("contractd-test-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(data_dir_);
  }
  void TearDown() override { std::filesystem::remove_all(data_dir_); }

  std::unique_ptr<ChildProcess> Start() {
    auto child = std::make_unique<ChildProcess>(std::vector<std::string>{
        CONTRACTD_BINARY, "serve", "--data-dir", data_dir_.string(), "--listen", "127.0.0.1:0"});
    auto line = child->WaitForLine("listening on", 30s);
    EXPECT_TRUE(line.has_value()) << child->output();
    std::smatch match;
    if (line && std::regex_search(*line, match, std::regex(R"(127\.0\.0\.1:(\d+))"))) {
      port_ = static_cast<uint16_t>(std::stoi(match[1]));
    }
    return child;
  }

  std::filesystem::path data_dir_;
  uint16_t port_ = 0;
};

TEST_F(ContractdTest, ServesHealthImportsTemplatesAndStopsOnSigterm) {
  auto child = Start();
  ASSERT_NE(port_, 0);
  HttpClient client(port_);
  auto health = client.Get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.Json().at("status"), "ok");
  EXPECT_FALSE(health.Header("x-request-id").empty());
  EXPECT_EQ(client.Get("/readyz").status, 200);

  auto missing = client.Get("/nothing-here", {{"X-Request-Id", "req_given"}});
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.ErrorCode(), "NOT_FOUND");
  EXPECT_EQ(missing.Header("x-request-id"), "req_given");

  const std::string& out = child->output();
  for (const char* id : {"tpl_mutual_nda", "tpl_services_agreement", "tpl_employment_offer"}) {
    EXPECT_NE(out.find(std::string("template ") + id), std::string::npos) << out;
  }
  EXPECT_NE(out.find(" imported"), std::string::npos) << out;

  child->Signal(SIGTERM);
  auto status = child->Wait(20s);
  ASSERT_TRUE(status.has_value()) << "did not stop on SIGTERM";
  EXPECT_EQ(*status, 0) << child->output();
  EXPECT_NE(child->output().find("stopped"), std::string::npos);
}

TEST_F(ContractdTest, RestartKeepsDataAndReimportsNothingUnchanged) {
  {
    auto first = Start();
    ASSERT_NE(port_, 0);
    first->Signal(SIGINT);
    ASSERT_EQ(first->Wait(20s), std::optional<int>(0)) << first->output();
  }
  auto second = Start();
  ASSERT_NE(port_, 0);
  EXPECT_EQ(HttpClient(port_).Get("/healthz").status, 200);
  second->Signal(SIGTERM);
  ASSERT_EQ(second->Wait(20s), std::optional<int>(0));
  const std::string& out = second->output();
  EXPECT_EQ(out.find(" imported"), std::string::npos) << out;
  EXPECT_NE(out.find(" unchanged"), std::string::npos) << out;
}

TEST_F(ContractdTest, SignsTreeHeadsWhileRunningAndAtStop) {
  auto child = Start();  // imports the example templates: events to cover
  ASSERT_NE(port_, 0);
  child->Signal(SIGTERM);
  ASSERT_EQ(child->Wait(20s), std::optional<int>(0)) << child->output();

  eventstore::RocksStoreOptions options;
  options.data_dir = data_dir_.string();
  options.read_only = true;
  auto store = eventstore::RocksEventStore::Open(options);
  ASSERT_TRUE(store) << store.error().message;
  auto heads = (*store)->ledger().TreeHeads();
  ASSERT_TRUE(heads);
  ASSERT_FALSE(heads->empty());
  EXPECT_EQ(heads->back().size, (*store)->Size());  // the head at stop covers every event
  (*store)->Close();
}

TEST_F(ContractdTest, RefusesABadListenAddress) {
  ChildProcess child(
      {CONTRACTD_BINARY, "serve", "--data-dir", data_dir_.string(), "--listen", "nonsense"});
  auto status = child.Wait(20s);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(*status, 2);
  EXPECT_NE(child.output().find("HOST:PORT"), std::string::npos) << child.output();
}

}  // namespace
}  // namespace esign
