// What a clean Close leaves on disk: every family's data in table files and no WAL data, so the
// next open (contractd's start check, the service, contract-ledger) has nothing to replay.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <rocksdb/db.h>

#include "eventstore/rocksdb_event_store.h"
#include "eventstore/verify_log.h"
#include "tests/eventstore/store_test_support.h"
#include "tests/support/dir_snapshot.h"

namespace esign::eventstore {
namespace {

using testing::Events;
using testing::MustOpen;
using testing::ReadEverything;
using testing::TempDir;
using testing::TestRocksOptions;
using testing::WalBytes;

RocksStoreOptions ReadOnly(RocksStoreOptions options) {
  options.read_only = true;
  return options;
}

TEST(CleanCloseTest, LeavesNoWalToReplayAndKeepsEverything) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  Hash root;
  std::string blob;
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    ASSERT_NE(store, nullptr);
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(store->Append("s" + std::to_string(i % 3), ExpectedVersion::Any(),
                                Events("e" + std::to_string(i), 10)));
    }
    ASSERT_TRUE(store->ledger().SignTreeHead());
    blob = store->blobs().Put("%PDF-1.7 contract").value();
    // A family the layers above write through db(), as the views and checkpoints do.
    ASSERT_TRUE(store->db()
                    ->Put(rocksdb::WriteOptions(), store->Family("checkpoints"), "view", "200")
                    .ok());
    root = store->ledger().Root(200).value();
    ASSERT_GT(WalBytes(dir.path()), 0u) << "the appends went through the WAL";
    store->Close();
    // Reads keep working after Close.
    EXPECT_EQ(store->ReadAll(GlobalPosition(0), 1000).value().size(), 200u);
  }
  EXPECT_EQ(WalBytes(dir.path()), 0u);

  std::unique_ptr<RocksEventStore> store = MustOpen(ReadOnly(options));
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->Size(), 200u);
  EXPECT_EQ(ReadEverything(*store).size(), 200u);
  EXPECT_EQ(store->CurrentVersion("s0").value(), StreamVersion(70));
  EXPECT_EQ(store->ledger().Root(200).value(), root);
  EXPECT_EQ(store->ledger().TreeHeads().value().size(), 1u);
  EXPECT_EQ(store->blobs().Get(blob).value(), "%PDF-1.7 contract");
  std::string checkpoint;
  ASSERT_TRUE(store->db()
                  ->Get(rocksdb::ReadOptions(), store->Family("checkpoints"), "view", &checkpoint)
                  .ok());
  EXPECT_EQ(checkpoint, "200");
  const LogVerification verified = VerifyLog(*store).value();
  EXPECT_TRUE(verified.ok);
  EXPECT_EQ(verified.heads_checked, 1u);
}

TEST(CleanCloseTest, ClosingTwiceFlushesOnceAndStillLeavesNoWal) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("e", 5)));
  store->Close();
  store->Close();
  store.reset();  // the destructor closes once more
  EXPECT_EQ(WalBytes(dir.path()), 0u);
  EXPECT_EQ(MustOpen(ReadOnly(options))->Size(), 5u);
}

TEST(CleanCloseTest, AReadOnlyStoreChangesNoFileWhenClosed) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  {
    std::unique_ptr<RocksEventStore> writer = MustOpen(options);
    ASSERT_NE(writer, nullptr);
    ASSERT_TRUE(writer->Append("s", ExpectedVersion::Any(), Events("e", 5)));
    // Killed, in effect: the appends stay in the WAL, as a service that crashed leaves them.
    writer->db()->FlushWAL(/*sync=*/true).PermitUncheckedError();
    const std::string db_dir = dir.path() + "/db";
    // A copy of the directory as the crash left it, before the writer's own Close flushes.
    std::filesystem::copy(db_dir, dir.path() + "/crashed",
                          std::filesystem::copy_options::recursive);
  }
  std::filesystem::remove_all(dir.path() + "/db");
  std::filesystem::rename(dir.path() + "/crashed", dir.path() + "/db");
  ASSERT_GT(WalBytes(dir.path()), 0u);
  const auto before = esign::testing::DirSnapshot(dir.path());
  {
    std::unique_ptr<RocksEventStore> reader = MustOpen(ReadOnly(options));
    ASSERT_NE(reader, nullptr);
    EXPECT_EQ(reader->Size(), 5u);
    reader->Close();
  }
  EXPECT_TRUE(esign::testing::DirSnapshot(dir.path()) == before) << "a file changed";
}

}  // namespace
}  // namespace esign::eventstore
