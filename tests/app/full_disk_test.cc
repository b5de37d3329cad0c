// contractd on a full disk and on a read-only one, each a small tmpfs of the test's own. Full:
// writes answer 503 STORAGE_UNAVAILABLE and store nothing, everything acknowledged stays readable,
// reads keep working, /readyz says so, and writes resume without a restart once space returns;
// the log then verifies. Read-only at start: contractd refuses at once, naming the directory, and
// changes nothing.
#include <sys/mount.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/dir_snapshot.h"
#include "tests/support/eventually.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

namespace fs = std::filesystem;

constexpr char kPermissions[] = "contracts:create,contracts:read,contracts:send,webhooks:manage";
constexpr char kEndpointBody[] =
    R"({"url":"https://hooks.example/esign","eventTypes":["contract.completed"]})";

// Writes `path` until the filesystem has no byte left: large chunks first, then smaller ones, so
// the last pages are taken too. The bytes written.
uint64_t FillUntilFull(const fs::path& path) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return 0;
  std::setvbuf(file, nullptr, _IONBF, 0);
  const std::string chunk(size_t{1} << 16, 'x');
  uint64_t written = 0;
  for (size_t size = chunk.size(); size > 0; size /= 2) {
    while (std::fwrite(chunk.data(), 1, size, file) == size) written += size;
    std::clearerr(file);
  }
  std::fclose(file);
  return written;
}

class FullDiskTest : public RestartedServerFixture {
 protected:
  FullDiskTest() : RestartedServerFixture("org_full", kPermissions) {}

  // A tmpfs of its own, with the data directory inside; the client is created before the start.
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root";
    ContractdFixture::SetUp();
    mount_ = fs::temp_directory_path() /
             ("fd-" + std::to_string(::getpid()) + "-" + std::to_string(counter_));
    fs::create_directories(mount_);
    ASSERT_EQ(::mount("tmpfs", mount_.c_str(), "tmpfs", 0, "size=12m,mode=0755"), 0)
        << std::strerror(errno);
    mounted_ = true;
    data_dir_ = mount_ / "data";
    credentials_ = ParseCreated(CreateClient(organization_, permissions_));
    ASSERT_FALSE(credentials_.client_id.empty());
    reader_ = ParseCreated(CreateClient(organization_, permissions_, "Reader"));
  }

  void TearDown() override {
    if (server_) {
      server_->Signal(SIGKILL);
      server_->Wait(std::chrono::seconds(30));
      server_.reset();
    }
    if (mounted_ && ::umount2(mount_.c_str(), 0) != 0) {
      ADD_FAILURE() << "umount " << mount_ << ": " << std::strerror(errno);
      ::umount2(mount_.c_str(), MNT_DETACH);
    }
    std::error_code ignored;
    fs::remove_all(mount_, ignored);
  }

  void RemountReadOnly() {
    ASSERT_EQ(::mount(nullptr, mount_.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0)
        << std::strerror(errno);
  }

  uint64_t LogEvents(HttpClient& client) {
    const std::string metrics = client.Get("/metrics").body;
    std::smatch match;
    EXPECT_TRUE(std::regex_search(metrics, match, std::regex(R"(contractd_log_events (\d+))")));
    return match.empty() ? 0 : std::stoull(match[1]);
  }

  // The titles of every contract the list shows to the writing client (or to `auth`).
  std::set<std::string> ListedTitles(HttpClient& client,
                                     const std::map<std::string, std::string>& auth = {}) {
    std::set<std::string> titles;
    auto listed = client.Get("/api/v1/contracts?limit=200", auth.empty() ? Auth() : auth);
    EXPECT_EQ(listed.status, 200) << listed.body;
    if (listed.status != 200) return titles;
    for (const auto& item : listed.Json().at("items").as_array()) {
      titles.insert(std::string(item.at("title").as_string()));
    }
    return titles;
  }

  void ExpectStorageUnavailable(const HttpResult& response, const std::string& what) const {
    ASSERT_EQ(response.status, 503) << what << ": " << response.body << server_->output();
    EXPECT_EQ(response.ErrorCode(), "STORAGE_UNAVAILABLE") << what << ": " << response.body;
    EXPECT_EQ(response.Header("retry-after"), "5") << what;
    // The store's message names files of the data directory: it stays in the log.
    EXPECT_EQ(response.body.find(data_dir_.string()), std::string::npos) << response.body;
  }

  fs::path mount_;
  bool mounted_ = false;
  // A second client of the organization that writes nothing: its reads need no write of its own
  // to be projected first.
  Credentials reader_;
};

TEST_F(FullDiskTest, WritesAreRefusedReadsWorkAndWritesResumeWhenSpaceReturns) {
  StartAndLogIn();
  const std::map<std::string, std::string> reader = {
      {"Authorization", "Bearer " + TokenFor(reader_)}};
  HttpClient client(port_);
  std::set<std::string> acknowledged;
  std::string draft_id;
  for (int i = 0; i < 3; ++i) {
    const std::string title = "Before " + std::to_string(i);
    auto created = client.Post("/api/v1/contracts", NdaBody(title, true), Auth());
    ASSERT_EQ(created.status, 201) << created.body;
    acknowledged.insert(title);
    draft_id = std::string(created.Json().at("id").as_string());
  }
  EXPECT_EQ(ListedTitles(client), acknowledged);
  EXPECT_EQ(client.Get("/readyz").status, 200);

  const fs::path filler = mount_ / "filler";
  ASSERT_GT(FillUntilFull(filler), 0u);

  // Until the store notices, a create may still fit in space RocksDB already holds: each one
  // either is stored (201) or refused (503), never anything else.
  std::set<std::string> refused;
  int attempt = 0;
  for (; attempt < 200 && refused.empty(); ++attempt) {
    const std::string title = "Full " + std::to_string(attempt);
    auto created = client.Post("/api/v1/contracts", NdaBody(title, true), Auth());
    if (created.status == 201) {
      acknowledged.insert(title);
    } else {
      ExpectStorageUnavailable(created, "create");
      refused.insert(title);
    }
  }
  ASSERT_FALSE(refused.empty()) << "no write was refused on a full disk";

  const uint64_t events_while_full = LogEvents(client);
  for (int i = 0; i < 3; ++i) {
    const std::string title = "Refused " + std::to_string(i);
    ExpectStorageUnavailable(client.Post("/api/v1/contracts", NdaBody(title, true), Auth()),
                             "create");
    refused.insert(title);
  }
  // Sending renders the PDF and stores it as a blob before the event.
  ExpectStorageUnavailable(client.Post("/api/v1/contracts/" + draft_id + "/send", "", Auth()),
                           "send");
  ExpectStorageUnavailable(client.Post("/api/v1/webhooks/endpoints", kEndpointBody, Auth()),
                           "webhook endpoint");
  EXPECT_EQ(LogEvents(client), events_while_full);

  // Reads keep working; the refused writes left nothing behind. A create acknowledged as the
  // disk filled may not be in the views yet (their commit waits for space), so the reader sees
  // the list as projected, and the writer, whose reads must show its own writes, is either
  // answered or told that the read side waits for space.
  auto got = client.Get("/api/v1/contracts/" + draft_id, reader);
  EXPECT_EQ(got.status, 200) << got.body;
  if (got.status == 200) {
    EXPECT_EQ(got.Json().at("status").as_string(), "draft") << got.body;
  }
  auto status = client.Get("/api/v1/contracts/" + draft_id + "/status", reader);
  EXPECT_EQ(status.status, 200) << status.body;
  const std::set<std::string> listed = ListedTitles(client, reader);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(listed.contains("Before " + std::to_string(i)));
  for (const std::string& title : listed) EXPECT_TRUE(acknowledged.contains(title)) << title;
  auto own = client.Get("/api/v1/contracts/" + draft_id, Auth());
  if (own.status != 200) ExpectStorageUnavailable(own, "the writer's own read");
  auto endpoints = client.Get("/api/v1/webhooks/endpoints", reader);
  EXPECT_EQ(endpoints.status, 200) << endpoints.body;
  EXPECT_TRUE(endpoints.Json().at("items").as_array().empty()) << endpoints.body;

  EXPECT_EQ(client.Get("/healthz").status, 200);
  auto readyz = client.Get("/readyz");
  EXPECT_EQ(readyz.status, 503) << readyz.body;
  EXPECT_NE(readyz.body.find("storage_unavailable"), std::string::npos) << readyz.body;
  EXPECT_NE(server_->output().find("contractd: storage: appends refused until space returns"),
            std::string::npos)
      << server_->output();

  // Space returns: writes resume without a restart.
  fs::remove(filler);
  HttpResult resumed;
  const bool came_back = Eventually(
      [&] {
        resumed = client.Post("/api/v1/contracts", NdaBody("After", true), Auth());
        if (resumed.status != 201) std::this_thread::sleep_for(std::chrono::milliseconds(200));
        return resumed.status == 201;
      },
      std::chrono::seconds(20));
  ASSERT_TRUE(came_back) << resumed.status << " " << resumed.body << server_->output();
  acknowledged.insert("After");
  EXPECT_EQ(client.Get("/readyz").status, 200);
  auto sent = client.Post("/api/v1/contracts/" + draft_id + "/send", "", Auth());
  EXPECT_EQ(sent.status, 200) << sent.body;
  auto endpoint = client.Post("/api/v1/webhooks/endpoints", kEndpointBody, Auth());
  EXPECT_EQ(endpoint.status, 201) << endpoint.body;
  EXPECT_EQ(ListedTitles(client), acknowledged);
  EXPECT_NE(server_->output().find("contractd: storage: appends resume"), std::string::npos)
      << server_->output();

  StopServer(*server_);
  server_.reset();
  const ShellResult verified = RunShell(std::string("'") + LEDGER_BINARY + "' verify --data-dir '" +
                                        data_dir_.string() + "' 2>&1");
  EXPECT_EQ(verified.exit_code, 0) << verified.out;

  // The log holds every acknowledged contract and none of the refused ones.
  size_t created_events = 0;
  for (const auto& event : StoredEvents()) {
    if (event.type != "contract.created") continue;
    ++created_events;
    for (const std::string& title : refused) {
      EXPECT_EQ(event.data.find("\"title\":\"" + title + "\""), std::string::npos) << title;
    }
  }
  EXPECT_EQ(created_events, acknowledged.size());
}

TEST_F(FullDiskTest, AReadOnlyDataDirectoryIsRefusedAtStartAndLeftUnchanged) {
  RemountReadOnly();
  const std::map<std::string, std::string> before = DirSnapshot(data_dir_);
  const auto started = std::chrono::steady_clock::now();
  CommandResult run =
      RunContractd({"serve", "--data-dir", data_dir_.string(), "--listen", "127.0.0.1:0"},
                   std::chrono::seconds(30));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err, "contractd: the data directory " + data_dir_.string() +
                         " is not writable (Read-only file system); nothing was changed\n");
  EXPECT_TRUE(DirSnapshot(data_dir_) == before) << "a file changed";

  // A data directory still to be created, under a read-only parent.
  const fs::path fresh = mount_ / "fresh";
  run = RunContractd({"serve", "--data-dir", fresh.string(), "--listen", "127.0.0.1:0"},
                     std::chrono::seconds(30));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_EQ(run.err, "contractd: cannot create the data directory " + fresh.string() +
                         ": Read-only file system\n");
  EXPECT_FALSE(fs::exists(fresh));
}

}  // namespace
}  // namespace esign::testing
