// `contractd backup` end to end: online while creates go on, offline, and refused input. A copy
// must pass contract-ledger verify and serve every contract acknowledged before the backup began,
// with its document and a proof bundle verify-bundle accepts; secrets keep mode 0600.
#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <thread>

#include "app/admin_socket.h"
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

namespace fs = std::filesystem;

// The secret files a data directory holds once the service has started.
const std::vector<std::string> kSecretFiles = {
    "ledger-key.pem",     "token-key",           "cursor-key",
    "signer-secrets-key", "service-signing.pem", "webhook-secrets/kafka-message-key"};

unsigned ModeOf(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return info.st_mode & 07777;
}

// A created contract: its id and the hash of its frozen document.
struct Created {
  std::string id;
  std::string document_sha256;
};

class BackupTest : public RestartedServerFixture {
 protected:
  BackupTest()
      : RestartedServerFixture("org_a",
                               "contracts:read,contracts:create,contracts:send,evidence:write") {}
  void SetUp() override {
    RestartedServerFixture::SetUp();
    source_ = data_dir_;
    copy_ = source_.parent_path() / (source_.filename().string() + "-copy");
    fs::remove_all(copy_);
  }
  void TearDown() override {
    if (server_) StopServer(*server_);
    server_.reset();
    fs::remove_all(copy_);
    data_dir_ = source_;
    RestartedServerFixture::TearDown();
  }

  static std::optional<Created> CreateNda(HttpClient& client,
                                          const std::map<std::string, std::string>& auth) {
    auto created = client.Post("/api/v1/contracts", std::string(kSentNdaBody), auth);
    if (created.status != 201) return std::nullopt;
    const auto& body = created.Json().as_object();
    return Created{std::string(body.at("id").as_string()),
                   std::string(body.at("renderedDocumentSha256").as_string())};
  }

  CommandResult BackUp(const fs::path& from, const fs::path& to) {
    return RunContractd({"backup", "--data-dir", from.string(), "--to", to.string()});
  }

  CommandResult Ledger(const std::vector<std::string>& args) {
    return RunProgram(LEDGER_BINARY, args);
  }

  // Serves the copy and checks, for each contract, the contract, its frozen document, and for
  // the first one a proof bundle that verify-bundle accepts.
  void ServeCopyAndCheck(const std::vector<Created>& contracts) {
    data_dir_ = copy_;
    StartAndLogIn();
    HttpClient client(port_);
    for (const Created& c : contracts) {
      const std::string base = "/api/v1/contracts/" + c.id;
      auto contract = client.Get(base, Auth());
      EXPECT_EQ(contract.status, 200) << c.id << " " << contract.body;
      auto document = client.Get(base + "/documents/rendered-unsigned", Auth());
      EXPECT_EQ(document.status, 200) << c.id;
      EXPECT_EQ(document.Header("etag"), "\"" + c.document_sha256 + "\"") << c.id;
    }
    ASSERT_FALSE(contracts.empty());
    auto bundle =
        client.Get("/api/v1/contracts/" + contracts.front().id + "/evidence/bundle", Auth());
    ASSERT_EQ(bundle.status, 200) << bundle.body;
    const fs::path bundle_file = copy_.parent_path() / (copy_.filename().string() + ".json");
    std::ofstream(bundle_file, std::ios::binary) << bundle.body;
    auto checked = Ledger({"verify-bundle", bundle_file.string(), "--data-dir", copy_.string(),
                           "--public-key-url", "http://127.0.0.1:" + std::to_string(port_)});
    fs::remove(bundle_file);
    EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
    StopServer(*server_);
    server_.reset();
    data_dir_ = source_;
  }

  void ExpectSecretsKeptTheirMode() {
    for (const std::string& name : kSecretFiles) {
      EXPECT_EQ(ModeOf(copy_ / name), 0600u) << name;
      EXPECT_EQ(ModeOf(source_ / name), 0600u) << name;
    }
    EXPECT_EQ(ModeOf(copy_ / "webhook-secrets"), 0700u);
    EXPECT_EQ(ModeOf(copy_), ModeOf(source_));
  }

  // The summary line a successful backup prints.
  static boost::json::object Summary(const CommandResult& result) {
    EXPECT_EQ(result.exit_code, 0) << result.err;
    boost::system::error_code ec;
    auto value = boost::json::parse(result.out, ec);
    if (ec || !value.is_object()) {
      ADD_FAILURE() << "not one JSON object: " << result.out;
      return {};
    }
    return value.as_object();
  }

  fs::path source_;
  fs::path copy_;
};

TEST_F(BackupTest, AnOnlineCopyServesEveryContractAcknowledgedBeforeItBegan) {
  StartAndLogIn();
  std::mutex mutex;
  std::vector<Created> acknowledged;  // guarded by mutex
  std::atomic<bool> stop{false};
  std::atomic<int> refused{0};
  std::thread writer([&, port = port_, auth = Auth()] {
    HttpClient client(port);
    while (!stop.load()) {
      auto created = CreateNda(client, auth);
      if (!created) {
        refused.fetch_add(1);
        continue;
      }
      std::lock_guard lock(mutex);
      acknowledged.push_back(std::move(*created));
    }
  });
  auto count = [&] {
    std::lock_guard lock(mutex);
    return acknowledged.size();
  };
  while (count() < 5) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::vector<Created> before;
  {
    std::lock_guard lock(mutex);
    before = acknowledged;
  }
  const auto backed_up = BackUp(source_, copy_);
  // Writes go on after the backup, and are not part of it.
  const size_t after_backup = count();
  while (count() < after_backup + 3) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stop.store(true);
  writer.join();
  EXPECT_EQ(refused.load(), 0);

  const boost::json::object summary = Summary(backed_up);
  ASSERT_FALSE(summary.empty());
  EXPECT_EQ(summary.at("backup").as_string(), copy_.string());
  // Each create appends at least one event; the client and templates came before.
  EXPECT_GT(summary.at("events").to_number<uint64_t>(), before.size());
  EXPECT_EQ(summary.at("lastPosition").to_number<uint64_t>() + 1,
            summary.at("events").to_number<uint64_t>());
  // The service signed a head over everything it had acknowledged when the backup began.
  EXPECT_GE(summary.at("treeHeadSize").to_number<uint64_t>(), before.size());
  EXPECT_EQ(summary.at("databases").as_array(),
            (boost::json::array{"webhook-deliveries", "mail", "provider-notices", "db"}));
  EXPECT_TRUE(backed_up.err.empty()) << backed_up.err;
  // The checkpoints of the four databases warned nothing into the service's log (RocksDB's
  // nested "File Deletions Disabled, but already disabled" and "File Deletions Enable, but not
  // really enabled" are not warnings worth a line).
  EXPECT_EQ(server_->output().find("File Deletions"), std::string::npos) << server_->output();
  EXPECT_EQ(server_->output().find("rocksdb: [WARN]"), std::string::npos) << server_->output();

  auto verified = Ledger({"verify", "--data-dir", copy_.string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  ExpectSecretsKeptTheirMode();
  EXPECT_FALSE(fs::exists(copy_ / std::string(app::kAdminSocketName)));

  StopServer(*server_);
  server_.reset();
  ServeCopyAndCheck(before);
}

TEST_F(BackupTest, AnOfflineCopyOfAStoppedServiceServesItsContracts) {
  StartAndLogIn();
  HttpClient client(port_);
  std::vector<Created> contracts;
  for (int i = 0; i < 3; ++i) {
    auto created = CreateNda(client, Auth());
    ASSERT_TRUE(created);
    contracts.push_back(*created);
  }
  StopServer(*server_);
  server_.reset();
  const size_t events = StoredEvents().size();

  // No service answers on the socket: the command line copies from the store itself.
  const boost::json::object summary = Summary(BackUp(source_, copy_));
  ASSERT_FALSE(summary.empty());
  EXPECT_EQ(summary.at("events").to_number<uint64_t>(), events);
  EXPECT_EQ(summary.at("treeHeadSize").to_number<uint64_t>(), events);  // the head signed at stop
  EXPECT_EQ(StoredEvents().size(), events);

  auto verified = Ledger({"verify", "--data-dir", copy_.string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  ExpectSecretsKeptTheirMode();
  ServeCopyAndCheck(contracts);
}

TEST_F(BackupTest, BadInputIsRefusedAndWritesNothing) {
  StartAndLogIn();
  HttpClient client(port_);
  ASSERT_TRUE(CreateNda(client, Auth()));

  // A target that holds something.
  fs::create_directories(copy_);
  std::ofstream(copy_ / "keep.txt") << "mine";
  auto occupied = BackUp(source_, copy_);
  EXPECT_EQ(occupied.exit_code, 2);
  EXPECT_NE(occupied.err.find("exists and is not an empty directory"), std::string::npos)
      << occupied.err;
  EXPECT_TRUE(occupied.out.empty());
  // The service refuses it too, when asked through the socket directly.
  auto answer = app::AdminRequest(
      source_ / std::string(app::kAdminSocketName),
      boost::json::serialize(boost::json::object{{"command", "backup"}, {"to", copy_.string()}}),
      std::chrono::seconds(30));
  ASSERT_TRUE(answer && *answer);
  EXPECT_NE((*answer)->find("VALIDATION_FAILED"), std::string::npos) << **answer;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(copy_)) entries.push_back(entry.path());
  EXPECT_EQ(entries, std::vector<fs::path>{copy_ / "keep.txt"});
  fs::remove_all(copy_);

  // A target inside the data directory.
  auto inside = BackUp(source_, source_ / "backup");
  EXPECT_EQ(inside.exit_code, 2);
  EXPECT_NE(inside.err.find("lies inside the data directory"), std::string::npos) << inside.err;
  EXPECT_FALSE(fs::exists(source_ / "backup"));

  // A source that is no data directory, existing or not: nothing is created in either place.
  const fs::path empty = source_.parent_path() / (source_.filename().string() + "-empty");
  fs::create_directories(empty);
  for (const fs::path& not_data : {empty, empty / "absent"}) {
    auto refused = BackUp(not_data, copy_);
    EXPECT_EQ(refused.exit_code, 2) << not_data;
    EXPECT_NE(refused.err.find("not a data directory"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(copy_));
  }
  EXPECT_TRUE(fs::is_empty(empty));
  fs::remove_all(empty);

  // No --to.
  auto missing = RunContractd({"backup", "--data-dir", source_.string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--to is required"), std::string::npos) << missing.err;

  // Nothing was appended by any of it, and no half-made copy was left beside the target.
  StopServer(*server_);
  server_.reset();
  EXPECT_EQ(CountEvents("contract.created"), 1u);
  for (const auto& entry : fs::directory_iterator(copy_.parent_path())) {
    EXPECT_EQ(entry.path().filename().string().find(copy_.filename().string() + ".incomplete"),
              std::string::npos)
        << entry.path();
  }
}

}  // namespace
}  // namespace esign::testing
