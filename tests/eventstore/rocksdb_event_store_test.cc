// What only the durable store promises: reopening keeps everything, damage is detected.
#include "eventstore/rocksdb_event_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/env.h>

#include "domain/clock.h"
#include "eventstore/rocksdb_options.h"
#include "eventstore/store_keys.h"
#include "eventstore/verify_log.h"
#include "tests/eventstore/store_test_support.h"
#include "tests/support/eventually.h"
#include "tests/support/hold_gate.h"

namespace esign::eventstore {
namespace {

using testing::Event;
using testing::Events;
using testing::MustOpen;
using testing::RecomputedRoot;
using testing::TempDir;
using testing::TestRocksOptions;

// The store's database opened directly, as an attacker with disk access or a repair tool would.
class RawDb {
 public:
  explicit RawDb(const std::string& data_dir) {
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (const std::string& name : RocksEventStore::FamilyNames()) {
      families.emplace_back(name, rocksdb::ColumnFamilyOptions());
    }
    rocksdb::DB* db = nullptr;
    const rocksdb::Status status =
        rocksdb::DB::Open(rocksdb::DBOptions(), data_dir + "/db", families, &handles_, &db);
    EXPECT_TRUE(status.ok()) << status.ToString();
    db_.reset(db);
  }
  ~RawDb() {
    for (rocksdb::ColumnFamilyHandle* handle : handles_) {
      db_->DestroyColumnFamilyHandle(handle).PermitUncheckedError();
    }
  }
  rocksdb::DB* db() { return db_.get(); }
  rocksdb::ColumnFamilyHandle* family(const std::string& name) {
    const std::vector<std::string> names = RocksEventStore::FamilyNames();
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return handles_[i];
    }
    return nullptr;
  }

 private:
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

TEST(RocksEventStoreTest, ExposesTheFamiliesOfTheLayersAbove) {
  const TempDir dir;
  std::unique_ptr<RocksEventStore> store = MustOpen(TestRocksOptions(dir.path()));
  ASSERT_NE(store, nullptr);
  EXPECT_NE(store->db(), nullptr);
  for (const char* name : {"projections", "checkpoints", "events", "blobs"}) {
    EXPECT_NE(store->Family(name), nullptr) << name;
  }
  EXPECT_EQ(store->Family("nope"), nullptr);
  rocksdb::WriteOptions write;
  ASSERT_TRUE(store->db()->Put(write, store->Family("checkpoints"), "view", "42").ok());
  std::string value;
  ASSERT_TRUE(store->db()->Get({}, store->Family("checkpoints"), "view", &value).ok());
  EXPECT_EQ(value, "42");
}

TEST(RocksEventStoreTest, RecordsCarryTheInjectedClock) {
  const TempDir dir;
  ManualClock clock(1'795'000'000'000'000);
  RocksStoreOptions options = TestRocksOptions(dir.path());
  options.clock = &clock;
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("e", 1)));
  EXPECT_EQ(store->ReadAll(GlobalPosition(0), 1).value()[0].recorded_at_us, clock.NowMicros());
  EXPECT_EQ(store->ledger().SignTreeHead().value().timestamp_ms, clock.NowMicros() / 1000);
}

TEST(RocksEventStoreTest, ReopeningKeepsEverything) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  Hash root;
  std::vector<SignedTreeHead> heads;
  std::string key_pem;
  std::string blob;
  std::string frozen;
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    ASSERT_TRUE(store->Append("a", ExpectedVersion::NoStream(), Events("a", 3)));
    ASSERT_TRUE(store->ledger().SignTreeHead());
    ASSERT_TRUE(store->Append("b", ExpectedVersion::NoStream(), Events("b", 2)));
    ASSERT_TRUE(store->Append("a", ExpectedVersion::Any(), {Event("a-last")}));
    ASSERT_TRUE(store->ledger().SignTreeHead());
    root = store->ledger().Root(6).value();
    heads = store->ledger().TreeHeads().value();
    key_pem = store->ledger().PublicKeyPem();
    blob = store->blobs().Put("%PDF-1.7 contract").value();
    frozen = store->blobs().PutBeforeAppend("%PDF-1.7 frozen").value();
    store->Close();
  }
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->Size(), 6u);
  EXPECT_EQ(store->CurrentVersion("a").value(), StreamVersion(4));
  EXPECT_EQ(store->CurrentVersion("b").value(), StreamVersion(2));
  EXPECT_EQ(store->ledger().Root(6).value(), root);
  EXPECT_EQ(store->ledger().TreeHeads().value(), heads);
  EXPECT_EQ(store->ledger().PublicKeyPem(), key_pem);
  EXPECT_EQ(store->blobs().Get(blob).value(), "%PDF-1.7 contract");
  EXPECT_EQ(store->blobs().Get(frozen).value(), "%PDF-1.7 frozen");
  EXPECT_EQ(store->ledger().SignTreeHead().value(), heads.back());

  // The indexes survived too: conflicts, retries and new appends behave as before.
  EXPECT_EQ(store->Append("a", ExpectedVersion::NoStream(), {Event("x")}).error().code,
            ErrorCode::kStreamVersionConflict);
  const AppendResult retry =
      store->Append("b", ExpectedVersion::NoStream(), Events("b", 2)).value();
  EXPECT_TRUE(retry.replayed);
  EXPECT_EQ(retry.first_position, GlobalPosition(3));
  const AppendResult next =
      store->Append("b", ExpectedVersion::Exactly(StreamVersion(2)), {Event("b-new")}).value();
  EXPECT_EQ(next.first_position, GlobalPosition(6));
  EXPECT_EQ(next.version, StreamVersion(3));
  EXPECT_EQ(store->ledger().Root(7).value(), RecomputedRoot(*store));
  EXPECT_TRUE(VerifyLog(*store).value().ok);
}

TEST(RocksEventStoreTest, ReopeningWithAColdNodeCacheServesTheSameProofs) {
  const TempDir dir;
  RocksStoreOptions options = TestRocksOptions(dir.path());
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("e" + std::to_string(i), 3)));
    }
  }
  options.ledger_cache_min_level = 3;
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  const uint64_t size = store->Size();
  const Hash root = RecomputedRoot(*store);
  EXPECT_EQ(store->ledger().Root(size).value(), root);
  for (uint64_t i = 0; i < size; ++i) {
    const Hash leaf = LeafHash(store->ReadRaw(GlobalPosition(i)).value());
    EXPECT_TRUE(
        VerifyInclusion(leaf, i, size, store->ledger().InclusionProof(i, size).value(), root));
  }
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("more", 5)));
  EXPECT_EQ(store->ledger().Root(size + 5).value(), RecomputedRoot(*store));
}

TEST(RocksEventStoreTest, ANodeCacheOverItsLimitServesTheSameProofsFromDisk) {
  const TempDir dir;
  RocksStoreOptions options = TestRocksOptions(dir.path());
  // Room for 16 hashes: the lower levels go to disk while the log grows, and a reopened store
  // starts above them.
  options.ledger_cache_max_bytes = 16 * sizeof(Hash);
  const auto check_proofs = [](RocksEventStore& store) {
    const uint64_t size = store.Size();
    const Hash root = RecomputedRoot(store);
    EXPECT_EQ(store.ledger().Root(size).value(), root);
    for (uint64_t i = 0; i < size; ++i) {
      const Hash leaf = LeafHash(store.ReadRaw(GlobalPosition(i)).value());
      EXPECT_TRUE(
          VerifyInclusion(leaf, i, size, store.ledger().InclusionProof(i, size).value(), root));
    }
  };
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    for (int i = 0; i < 30; ++i) {
      ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("e" + std::to_string(i), 3)));
    }
    check_proofs(*store);
  }
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  check_proofs(*store);
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("more", 5)));
  check_proofs(*store);
}

TEST(RocksEventStoreTest, AChangedByteOnDiskIsDetectedAndLocated) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    for (int i = 0; i < 10; ++i) {
      ASSERT_TRUE(store->Append("s" + std::to_string(i % 3), ExpectedVersion::Any(),
                                Events("e" + std::to_string(i), 1)));
    }
    ASSERT_TRUE(store->ledger().SignTreeHead());
    EXPECT_TRUE(VerifyLog(*store).value().ok);
  }
  {
    // Position 6: "n":1 becomes "n":7 -- still a well-formed record of that position.
    RawDb raw(dir.path());
    const U64Key key = EncodeU64(6);
    const rocksdb::Slice key_slice(key.data(), key.size());
    std::string bytes;
    ASSERT_TRUE(raw.db()->Get({}, raw.family("events"), key_slice, &bytes).ok());
    const size_t digit = bytes.rfind("\"n\":1");
    ASSERT_NE(digit, std::string::npos);
    bytes[digit + 4] = '7';
    ASSERT_TRUE(raw.db()->Put({}, raw.family("events"), key_slice, bytes).ok());
  }
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_NE(store, nullptr);
  const SignedTreeHead head = store->ledger().TreeHeads().value().back();
  EXPECT_TRUE(VerifyTreeHead(head, store->ledger().PublicKeyPem()));
  EXPECT_NE(RecomputedRoot(*store), head.root);

  const LogVerification verification = VerifyLog(*store).value();
  EXPECT_FALSE(verification.ok);
  ASSERT_TRUE(verification.first_bad_position);
  EXPECT_EQ(*verification.first_bad_position, 6u);
  EXPECT_NE(verification.root, head.root);

  // An auditor holding only the signed head and the key, not trusting the store's ledger nodes,
  // still sees the mismatch.
  VerifyOptions auditor;
  auditor.public_key_pem = store->ledger().PublicKeyPem();
  auditor.heads = {head};
  const LogVerification independent = VerifyLog(*store, auditor).value();
  EXPECT_FALSE(independent.ok);
  EXPECT_EQ(independent.heads_checked, 1u);
}

TEST(RocksEventStoreTest, ALogLongerThanItsLedgerIsCorruption) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("e", 4)));
  }
  {
    RawDb raw(dir.path());
    const NodeKey last_leaf = EncodeNodeKey(NodeId{0, 3});
    ASSERT_TRUE(raw.db()
                    ->Delete({}, raw.family("ledger_nodes"),
                             rocksdb::Slice(last_leaf.data(), last_leaf.size()))
                    .ok());
  }
  const Result<std::unique_ptr<RocksEventStore>> reopened = RocksEventStore::Open(options);
  ASSERT_FALSE(reopened);
  EXPECT_EQ(reopened.error().code, ErrorCode::kCorruption);
}

TEST(RocksEventStoreTest, ADeletedEventIsNamedByVerifyLog) {
  const TempDir dir;
  const RocksStoreOptions options = TestRocksOptions(dir.path());
  {
    std::unique_ptr<RocksEventStore> store = MustOpen(options);
    ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("e", 5)));
  }
  {
    RawDb raw(dir.path());
    const U64Key key = EncodeU64(2);
    ASSERT_TRUE(raw.db()->Delete({}, raw.family("events"), rocksdb::Slice(key.data(), 8)).ok());
  }
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  EXPECT_EQ(store->ReadRaw(GlobalPosition(2)).error().code, ErrorCode::kCorruption);
  EXPECT_EQ(store->ReadAll(GlobalPosition(0), 10).error().code, ErrorCode::kCorruption);
  const LogVerification verification = VerifyLog(*store).value();
  EXPECT_FALSE(verification.ok);
  EXPECT_EQ(verification.first_bad_position, 2u);
}

// Lets a test make writes or syncs of the WAL fail.
class FaultyEnv : public rocksdb::EnvWrapper {
 public:
  FaultyEnv() : EnvWrapper(rocksdb::Env::Default()) {}
  const char* Name() const override { return "FaultyEnv"; }

  rocksdb::Status NewWritableFile(const std::string& name,
                                  std::unique_ptr<rocksdb::WritableFile>* file,
                                  const rocksdb::EnvOptions& options) override {
    rocksdb::Status status = target()->NewWritableFile(name, file, options);
    if (status.ok() && name.ends_with(".log")) {
      *file = std::make_unique<WalFile>(std::move(*file), *this);
    }
    return status;
  }

  std::atomic<bool> fail_appends{false};
  std::atomic<bool> fail_syncs{false};

  // While closed, a WAL sync waits in the file system.
  esign::testing::HoldGate syncs;

 private:
  class WalFile : public rocksdb::WritableFileWrapper {
   public:
    WalFile(std::unique_ptr<rocksdb::WritableFile> file, FaultyEnv& env)
        : WritableFileWrapper(file.get()), file_(std::move(file)), env_(env) {}
    rocksdb::Status Append(const rocksdb::Slice& data) override {
      if (env_.fail_appends) return rocksdb::Status::IOError("injected write failure");
      return WritableFileWrapper::Append(data);
    }
    rocksdb::Status Append(const rocksdb::Slice& data,
                           const rocksdb::DataVerificationInfo& info) override {
      if (env_.fail_appends) return rocksdb::Status::IOError("injected write failure");
      return WritableFileWrapper::Append(data, info);
    }
    rocksdb::Status Sync() override {
      env_.syncs.WaitWhileHeld();
      if (env_.fail_syncs) return rocksdb::Status::IOError("injected sync failure");
      return WritableFileWrapper::Sync();
    }
    rocksdb::Status Fsync() override {
      if (env_.fail_syncs) return rocksdb::Status::IOError("injected sync failure");
      return WritableFileWrapper::Fsync();
    }

   private:
    std::unique_ptr<rocksdb::WritableFile> file_;
    FaultyEnv& env_;
  };
};

class RocksFaultTest : public ::testing::TestWithParam<bool> {};

TEST_P(RocksFaultTest, AFailedSyncIsNeverAcknowledgedAndStopsAppends) {
  const TempDir dir;
  FaultyEnv env;
  RocksStoreOptions options = TestRocksOptions(dir.path());
  options.env = &env;
  options.pipelined_sync = GetParam();
  std::vector<std::string> logged;
  options.storage_log = [&logged](const std::string& line) { logged.push_back(line); };
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("ok", 2)));
  const Hash root = store->ledger().Root(2).value();

  env.fail_syncs = true;
  const Result<AppendResult> failed = store->Append("s", ExpectedVersion::Any(), Events("bad", 1));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::kStorage);
  // Nothing unsynced became visible.
  EXPECT_EQ(store->Size(), 2u);
  EXPECT_EQ(store->ledger().Root(2).value(), root);
  EXPECT_EQ(store->ReadAll(GlobalPosition(0), 10).value().size(), 2u);

  env.fail_syncs = false;
  // RocksDB itself stops writing after a failed WAL sync; either way, no append succeeds.
  EXPECT_FALSE(store->Append("s", ExpectedVersion::Any(), Events("after", 1)));
  store->Close();
  store.reset();
  // Close flushes nothing after a failed sync (the store skips it, or RocksDB refuses it): the
  // WAL stays for the next open to replay, and the operator is told.
  EXPECT_GT(testing::WalBytes(dir.path()), 0u);
  ASSERT_FALSE(logged.empty());
  EXPECT_NE(logged.back().find("the next open replays the write-ahead log"), std::string::npos)
      << logged.back();

  options.env = nullptr;
  options.storage_log = nullptr;
  store = MustOpen(options);
  ASSERT_NE(store, nullptr);
  EXPECT_GE(store->Size(), 2u);  // the unacknowledged append may or may not have survived
  EXPECT_EQ(store->ledger().Root(store->Size()).value(), RecomputedRoot(*store));
  // A retry settles it: the event is stored exactly once.
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("bad", 1)));
  EXPECT_EQ(store->ReadStream("s", StreamVersion(1), 10).value().size(), 3u);
}

TEST_P(RocksFaultTest, AFailedWriteFailsItsAppendsAndChangesNothing) {
  const TempDir dir;
  FaultyEnv env;
  RocksStoreOptions options = TestRocksOptions(dir.path());
  options.env = &env;
  options.pipelined_sync = GetParam();
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("ok", 1)));
  env.fail_appends = true;
  const Result<AppendResult> failed = store->Append("s", ExpectedVersion::Any(), Events("bad", 1));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::kStorage);
  EXPECT_EQ(store->Size(), 1u);
  EXPECT_EQ(store->CurrentVersion("s").value(), StreamVersion(1));
  EXPECT_EQ(store->ledger().Root(1).value(), RecomputedRoot(*store));
}

// Entries of a family, counted directly in the database: what is written, synced or not.
size_t WrittenEntries(RocksEventStore& store, const std::string& family) {
  std::unique_ptr<rocksdb::Iterator> it(
      store.db()->NewIterator(rocksdb::ReadOptions(), store.Family(family)));
  size_t entries = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++entries;
  return entries;
}

// Another writer of the database (a view's commit) fails on the WAL after an append's batch is
// written and before its sync: the batch precedes the failed record, so it is synced and
// acknowledged, and the process goes on (RocksDB's SyncWAL would abort it on that WAL file).
TEST(RocksWalFaultTest, ABatchWrittenBeforeAnotherWritersFailedWriteIsSyncedAndAcknowledged) {
  const TempDir dir;
  FaultyEnv env;
  RocksStoreOptions options = TestRocksOptions(dir.path());
  options.env = &env;
  options.pipelined_sync = true;
  std::unique_ptr<RocksEventStore> store = MustOpen(options);
  ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("first", 1)));

  // The syncer waits in its next sync, so the append after it stays written and unsynced.
  env.syncs.Hold();
  std::thread held(
      [&] { ASSERT_TRUE(store->Append("s", ExpectedVersion::Any(), Events("a", 1))); });
  env.syncs.AwaitHeld();
  Result<AppendResult> second;
  std::thread unsynced(
      [&] { second = store->Append("s", ExpectedVersion::Any(), Events("b", 1)); });
  ASSERT_TRUE(esign::testing::Eventually(
      [&] { return WrittenEntries(*store, family::kEvents) == 3; }, std::chrono::seconds(10)));

  env.fail_appends = true;
  const rocksdb::Status side = store->db()->Put(
      rocksdb::WriteOptions(), store->Family(family::kCheckpoints), "a view", "its position");
  env.fail_appends = false;
  EXPECT_FALSE(side.ok());
  env.syncs.Release();
  held.join();
  unsynced.join();
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(store->Size(), 3u);
  store->Close();
  store.reset();

  options.env = nullptr;
  store = MustOpen(options);
  EXPECT_EQ(store->Size(), 3u);
  EXPECT_EQ(store->ledger().Root(3).value(), RecomputedRoot(*store));
}

INSTANTIATE_TEST_SUITE_P(SyncModes, RocksFaultTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Pipelined" : "Inline";
                         });

TEST(RocksEventStoreTest, OpenNeedsADataDirectory) {
  EXPECT_EQ(RocksEventStore::Open(RocksStoreOptions{}).error().code, ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::eventstore
