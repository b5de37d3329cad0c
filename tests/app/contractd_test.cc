// contractd as a user runs it: a real process on a real data directory, spoken to over loopback.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

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

// Every path under `dir` whose mode grants its group or others anything, with that mode.
std::vector<std::string> SharedPaths(const std::filesystem::path& dir) {
  std::vector<std::string> shared;
  auto check = [&](const std::filesystem::path& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) == 0 && !S_ISLNK(info.st_mode) && (info.st_mode & 077) != 0) {
      shared.push_back(path.string() + " " + std::to_string(info.st_mode & 0777));
    }
  };
  check(dir);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) check(entry.path());
  return shared;
}

// Under umask 022 the data directory, its databases and backups were 0755/0644: another local user
// read titles, e-mail addresses and secret hashes from the SST files.
TEST_F(ContractdTest, KeepsItsDataOwnerOnlyAndRefusesADirectoryOthersCanRead) {
  const mode_t umask_before = ::umask(022);
  auto server = Start();
  ASSERT_NE(port_, 0) << server->output();
  server->Signal(SIGTERM);
  ASSERT_EQ(server->Wait(30s), 0) << server->output();
  EXPECT_EQ(SharedPaths(data_dir_), std::vector<std::string>{});

  const std::filesystem::path copy = data_dir_.string() + "-copy";
  ChildProcess backup(
      {CONTRACTD_BINARY, "backup", "--data-dir", data_dir_.string(), "--to", copy.string()});
  ASSERT_EQ(backup.Wait(60s), 0) << backup.output();
  EXPECT_EQ(SharedPaths(copy), std::vector<std::string>{});
  std::filesystem::remove_all(copy);

  // A directory others can read (an earlier version's, or one made by hand) is refused, untouched.
  std::filesystem::permissions(
      data_dir_,
      std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
          std::filesystem::perms::others_read | std::filesystem::perms::others_exec,
      std::filesystem::perm_options::add);
  auto modified = [this] {
    std::map<std::string, std::filesystem::file_time_type> times;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(data_dir_)) {
      times[entry.path().string()] = entry.last_write_time();
    }
    return times;
  };
  const auto before = modified();
  ChildProcess refused(
      {CONTRACTD_BINARY, "serve", "--data-dir", data_dir_.string(), "--listen", "127.0.0.1:0"});
  auto status = refused.Wait(30s);
  ASSERT_TRUE(status.has_value());
  EXPECT_NE(*status, 0);
  EXPECT_NE(refused.output().find("chmod 700"), std::string::npos) << refused.output();
  EXPECT_EQ(modified(), before);
  ::umask(umask_before);
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
