#include "eventstore/wal_files.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "tests/support/hold_gate.h"
#include "tests/support/temp_dir.h"

namespace esign::eventstore {
namespace {

// The operating system's files, with every sync counted and appends held on demand.
class CountingFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  CountingFileSystem() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "CountingFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* file,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus opened = target()->NewWritableFile(name, options, file, dbg);
    if (opened.ok()) *file = std::make_unique<File>(std::move(*file), *this);
    return opened;
  }

  // While closed, an append waits before it writes.
  esign::testing::HoldGate appends;
  std::atomic<int> syncs{0};

 private:
  class File final : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    File(std::unique_ptr<rocksdb::FSWritableFile> file, CountingFileSystem& fs)
        : FSWritableFileOwnerWrapper(std::move(file)), fs_(fs) {}
    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override {
      fs_.appends.WaitWhileHeld();
      return target()->Append(data, options, dbg);
    }
    rocksdb::IOStatus Sync(const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override {
      ++fs_.syncs;
      return target()->Sync(options, dbg);
    }

   private:
    CountingFileSystem& fs_;
  };
};

std::unique_ptr<rocksdb::FSWritableFile> NewFile(WalFiles& wal, const std::string& path) {
  std::unique_ptr<rocksdb::FSWritableFile> file;
  EXPECT_TRUE(
      wal.file_system()->NewWritableFile(path, rocksdb::FileOptions(), &file, nullptr).ok());
  return file;
}

TEST(WalFilesTest, SyncsOnlyWalFilesWrittenSinceTheLastSync) {
  const testing::TempDir dir;
  auto counting = std::make_shared<CountingFileSystem>();
  WalFiles wal(counting, dir.path());
  auto log = NewFile(wal, dir.path() + "/000007.log");
  auto table = NewFile(wal, dir.path() + "/000008.sst");
  ASSERT_TRUE(log->Append("record", rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(table->Append("table", rocksdb::IOOptions(), nullptr).ok());

  ASSERT_TRUE(wal.SyncWritten().ok());
  EXPECT_EQ(counting->syncs.load(), 1);  // the WAL file, not the table file
  ASSERT_TRUE(wal.SyncWritten().ok());
  EXPECT_EQ(counting->syncs.load(), 1);  // nothing written since

  ASSERT_TRUE(log->Append("more", rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(log->Close(rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(wal.SyncWritten().ok());
  EXPECT_EQ(counting->syncs.load(), 1);  // a closed file is RocksDB's again
}

// A checkpoint copies WAL files through the database's file system into a directory of its own,
// which it then renames: those copies are not the database's WAL.
TEST(WalFilesTest, AWalNamedFileOutsideTheWalDirectoryIsNotTracked) {
  const testing::TempDir dir;
  auto counting = std::make_shared<CountingFileSystem>();
  WalFiles wal(counting, dir.path() + "/db/");  // spelled with a trailing slash
  std::filesystem::create_directories(dir.path() + "/db");
  std::filesystem::create_directories(dir.path() + "/copy.tmp");
  auto copy = NewFile(wal, dir.path() + "/copy.tmp/000011.log");
  ASSERT_TRUE(copy->Append("copied", rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(copy->Close(rocksdb::IOOptions(), nullptr).ok());
  std::filesystem::rename(dir.path() + "/copy.tmp", dir.path() + "/copy");
  ASSERT_TRUE(wal.SyncWritten().ok());
  EXPECT_EQ(counting->syncs.load(), 0);

  auto log = NewFile(wal, dir.path() + "/db/000012.log");
  ASSERT_TRUE(log->Append("record", rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(wal.SyncWritten().ok());
  EXPECT_EQ(counting->syncs.load(), 1);
}

// A write under way while a sync begins is not counted as synced by it: the next sync syncs it.
TEST(WalFilesTest, AWriteThatEndsAfterASyncBeganIsSyncedByTheNext) {
  const testing::TempDir dir;
  auto counting = std::make_shared<CountingFileSystem>();
  WalFiles wal(counting, dir.path());
  auto log = NewFile(wal, dir.path() + "/000009.log");
  ASSERT_TRUE(log->Append("first", rocksdb::IOOptions(), nullptr).ok());
  ASSERT_TRUE(wal.SyncWritten().ok());
  ASSERT_EQ(counting->syncs.load(), 1);

  counting->appends.Hold();
  std::thread writer(
      [&] { EXPECT_TRUE(log->Append("second", rocksdb::IOOptions(), nullptr).ok()); });
  counting->appends.AwaitHeld();
  ASSERT_TRUE(wal.SyncWritten().ok());  // begins while the write is under way
  counting->appends.Release();
  writer.join();

  const int before = counting->syncs.load();
  ASSERT_TRUE(wal.SyncWritten().ok());
  EXPECT_EQ(counting->syncs.load(), before + 1);
}

}  // namespace
}  // namespace esign::eventstore
