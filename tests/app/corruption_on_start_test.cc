// contractd on a damaged data directory: a service writes a few contracts and a signed tree head
// and stops, the test damages what it wrote (a changed event, a changed ledger node, a lost or
// replaced key, a torn WAL), and the next start either refuses, naming the problem and leaving
// every file as it was, or (the torn WAL) recovers and keeps the WAL as found.
#include <sys/stat.h>

#include <bit>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "eventstore/store_keys.h"
#include "eventstore/tree_head.h"
#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"
#include "tests/app/raw_db.h"
#include "tests/support/dir_snapshot.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Names(const std::map<std::string, std::string>& files) {
  std::vector<std::string> names;
  for (const auto& [name, state] : files) names.push_back(name);
  return names;
}

class CorruptionOnStartTest : public RestartedServerFixture {
 protected:
  CorruptionOnStartTest() : RestartedServerFixture("org_c", "contracts:create,contracts:read") {}

  // Three contracts and a signed tree head over them, then a clean stop.
  void SetUp() override {
    RestartedServerFixture::SetUp();
    StartAndLogIn({"--tree-head-interval", "1"});
    HttpClient client(port_);
    for (int i = 0; i < 3; ++i) {
      auto created =
          client.Post("/api/v1/contracts", NdaBody("Damage " + std::to_string(i), false), Auth());
      ASSERT_EQ(created.status, 201) << created.body;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    StopServer(*server_);
    server_.reset();
    // Read-only: opening the store for writing would move the WAL's records into table files.
    auto store = OpenReadOnlyStore();
    ASSERT_NE(store, nullptr);
    size_ = store->Size();
    ASSERT_GT(size_, 3u);
  }

  // Starts contractd on the damaged directory: it must refuse with one line naming `problem`,
  // exit 1, and leave every file of the directory as it was.
  void ExpectRefusedUnchanged(const std::string& problem) {
    const std::map<std::string, std::string> before = DirSnapshot(data_dir_);
    CommandResult run =
        RunContractd({"serve", "--data-dir", data_dir_.string(), "--listen", "127.0.0.1:0"},
                     std::chrono::seconds(30));
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find("contractd: " + problem), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("; run contract-ledger verify --data-dir " + data_dir_.string() +
                           " for a full report; nothing was changed\n"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    const std::map<std::string, std::string> after = DirSnapshot(data_dir_);
    EXPECT_EQ(Names(after), Names(before));
    EXPECT_TRUE(after == before) << "a file changed";
  }

  ShellResult Verify() {
    return RunShell(std::string("'") + LEDGER_BINARY + "' verify --data-dir '" +
                    data_dir_.string() + "' 2>&1");
  }

  size_t size_ = 0;
};

TEST_F(CorruptionOnStartTest, AChangedByteInARecentEventIsRefusedAtItsPosition) {
  const uint64_t position = size_ - 2;
  const auto key = eventstore::EncodeU64(position);
  ChangeStoredValue(data_dir_, "events", std::string_view(key.data(), key.size()),
                    [](std::string& value) { value[value.size() / 2] ^= 0x01; });
  ExpectRefusedUnchanged("the event log is damaged at position " + std::to_string(position) +
                         ": its stored bytes no longer hash to the ledger's leaf");
  const ShellResult verified = Verify();
  EXPECT_EQ(verified.exit_code, 1) << verified.out;
  EXPECT_NE(verified.out.find("first bad position: " + std::to_string(position)), std::string::npos)
      << verified.out;
}

TEST_F(CorruptionOnStartTest, ALedgerThatNoLongerGivesTheSignedRootIsRefused) {
  uint64_t signed_size = 0;
  {
    auto store = OpenReadOnlyStore();
    ASSERT_NE(store, nullptr);
    auto heads = store->ledger().TreeHeads();
    ASSERT_TRUE(heads && !heads->empty());
    signed_size = heads->back().size;
  }
  // The largest perfect subtree of the signed tree: every root over it reads this node.
  const eventstore::NodeId top{static_cast<uint32_t>(std::bit_width(signed_size) - 1), 0};
  const auto key = eventstore::EncodeNodeKey(top);
  ChangeStoredValue(data_dir_, "ledger_nodes", std::string_view(key.data(), key.size()),
                    [](std::string& value) { value[0] ^= 0x01; });
  ExpectRefusedUnchanged("the ledger's root differs from the newest signed tree head (size " +
                         std::to_string(signed_size) + ")");
}

TEST_F(CorruptionOnStartTest, AMissingLedgerKeyIsRefusedAndNotReplaced) {
  const fs::path key = data_dir_ / "ledger-key.pem";
  ASSERT_TRUE(fs::remove(key));
  ExpectRefusedUnchanged(key.string() + " is missing but the log already holds events");
  EXPECT_FALSE(fs::exists(key));
  // The commands that open the store for writing refuse as well.
  CommandResult created = CreateClient("org_c", "contracts:read", "After the loss");
  EXPECT_NE(created.exit_code, 0) << created.out;
  EXPECT_NE(created.err.find(key.string() + " is missing"), std::string::npos) << created.err;
  EXPECT_FALSE(fs::exists(key));
}

TEST_F(CorruptionOnStartTest, AnotherLedgerKeyIsRefused) {
  const fs::path elsewhere = data_dir_.string() + "-other";
  ASSERT_TRUE(eventstore::TreeHeadSigner::OpenOrCreate(elsewhere.string()));
  fs::copy_file(elsewhere / "ledger-key.pem", data_dir_ / "ledger-key.pem",
                fs::copy_options::overwrite_existing);
  fs::remove_all(elsewhere);
  ExpectRefusedUnchanged("the newest signed tree head (size ");
}

TEST_F(CorruptionOnStartTest, MissingSecretsThatTheLogDependsOnAreRefused) {
  for (const std::string name : {"signer-secrets-key", "service-signing.pem"}) {
    const fs::path file = data_dir_ / name;
    const fs::path aside = data_dir_.string() + "-" + name;
    fs::rename(file, aside);
    ExpectRefusedUnchanged(file.string() +
                           " is missing but the log already holds contract-* streams");
    fs::rename(aside, file);
  }
}

TEST_F(CorruptionOnStartTest, ALostTokenKeyIsCreatedAgain) {
  ASSERT_TRUE(fs::remove(data_dir_ / "token-key"));
  ASSERT_TRUE(fs::remove(data_dir_ / "cursor-key"));
  StartAndLogIn();
  EXPECT_FALSE(token_.empty());
  StopServer(*server_);
  EXPECT_TRUE(fs::exists(data_dir_ / "token-key"));
}

// The newest WAL file that holds records, by its number (a killed service may leave an empty one
// after it).
fs::path NewestWal(const fs::path& db_dir) {
  fs::path newest;
  for (const fs::directory_entry& entry : fs::directory_iterator(db_dir)) {
    if (entry.path().extension() == ".log" && entry.file_size() > 0 &&
        (newest.empty() || entry.path().filename() > newest.filename())) {
      newest = entry.path();
    }
  }
  return newest;
}

TEST_F(CorruptionOnStartTest, ATornWalStartsUpToTheTearAndKeepsTheWalAsFound) {
  // A clean stop flushes the WAL into table files; a torn WAL is what a killed service leaves.
  EXPECT_EQ(NewestWal(data_dir_ / "db"), fs::path()) << "a clean stop left WAL data";
  StartAndLogIn();
  HttpClient client(port_);
  auto created = client.Post("/api/v1/contracts", NdaBody("Before the kill", false), Auth());
  ASSERT_EQ(created.status, 201) << created.body;
  Kill();
  {
    auto store = OpenReadOnlyStore();
    ASSERT_NE(store, nullptr);
    ASSERT_GT(store->Size(), size_);
    size_ = store->Size();
  }
  const fs::path wal = NewestWal(data_dir_ / "db");
  ASSERT_FALSE(wal.empty());
  const uintmax_t size = fs::file_size(wal);
  ASSERT_GT(size, 100u);
  fs::resize_file(wal, size - 7);
  const std::string torn = FileBytes(wal);

  StartAndLogIn();
  const std::string output = server_->output();
  EXPECT_NE(output.find("contractd: warning: the write-ahead log ends in a torn record"),
            std::string::npos)
      << output;
  StopServer(*server_);
  server_.reset();

  size_t kept = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(data_dir_)) {
    if (!entry.path().filename().string().starts_with("wal-tail-")) continue;
    EXPECT_NE(output.find(entry.path().string()), std::string::npos) << output;
    EXPECT_EQ(FileBytes(entry.path() / wal.filename()), torn);
    ++kept;
  }
  EXPECT_EQ(kept, 1u);
  const ShellResult verified = Verify();
  EXPECT_EQ(verified.exit_code, 0) << verified.out;
  EXPECT_LE(StoredEvents().size(), size_);
}

}  // namespace
}  // namespace esign::testing
