// Shared pieces of the event store tests: a temporary directory, event builders, and one harness
// per store implementation so a typed suite runs the same tests against both.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "eventstore/event_store.h"
#include "eventstore/memory_event_store.h"
#include "eventstore/rocksdb_event_store.h"
#include "tests/support/temp_dir.h"

namespace esign::eventstore::testing {

using esign::testing::TempDir;

inline NewEvent Event(std::string id, std::string data = R"({"n":1})") {
  NewEvent event;
  event.event_id = std::move(id);
  event.type = "test.happened";
  event.data = std::move(data);
  event.actor = Actor{"cli_test", "org_test", "req_1", "192.0.2.1", "gtest"};
  return event;
}

inline std::vector<NewEvent> Events(const std::string& prefix, size_t count) {
  std::vector<NewEvent> events;
  for (size_t i = 0; i < count; ++i) events.push_back(Event(prefix + "-" + std::to_string(i)));
  return events;
}

inline RocksStoreOptions TestRocksOptions(const std::string& dir) {
  RocksStoreOptions options;
  options.data_dir = dir;
  options.block_cache_bytes = size_t{8} << 20;
  options.write_buffer_bytes = size_t{4} << 20;
  return options;
}

// The opened store, or null after a failed expectation naming why.
inline std::unique_ptr<RocksEventStore> MustOpen(const RocksStoreOptions& options) {
  Result<std::unique_ptr<RocksEventStore>> store = RocksEventStore::Open(options);
  EXPECT_TRUE(store) << store.error().message;
  return store ? std::move(*store) : nullptr;
}

struct MemoryHarness {
  static constexpr const char* kName = "Memory";
  std::unique_ptr<EventStore> Open() {
    Result<std::unique_ptr<MemoryEventStore>> store = MemoryEventStore::Create();
    EXPECT_TRUE(store) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }
};

struct RocksHarness {
  static constexpr const char* kName = "RocksDB";
  std::unique_ptr<EventStore> Open() {
    Result<std::unique_ptr<RocksEventStore>> store =
        RocksEventStore::Open(TestRocksOptions(dir.path()));
    EXPECT_TRUE(store) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }
  TempDir dir;
};

using StoreHarnesses = ::testing::Types<MemoryHarness, RocksHarness>;

// The fixture of a typed suite: the harness's store, opened before each test and closed after it.
template <class Harness>
class OpenStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = harness_.Open();
    ASSERT_NE(store_, nullptr);
  }
  void TearDown() override {
    if (store_) store_->Close();
  }

  Harness harness_;
  std::unique_ptr<EventStore> store_;
};

struct HarnessNames {
  template <class T>
  static std::string GetName(int) {
    return T::kName;
  }
};

// Every record of the log, in order.
inline std::vector<EventRecord> ReadEverything(const EventStore& store) {
  Result<std::vector<EventRecord>> records = store.ReadAll(GlobalPosition(0), SIZE_MAX);
  EXPECT_TRUE(records) << records.error().message;
  return records ? std::move(*records) : std::vector<EventRecord>{};
}

// The root of the log computed from scratch over the stored bytes.
inline Hash RecomputedRoot(const EventStore& store) {
  std::vector<Hash> leaves;
  for (uint64_t i = 0; i < store.Size(); ++i) {
    Result<std::string> raw = store.ReadRaw(GlobalPosition(i));
    EXPECT_TRUE(raw) << raw.error().message;
    leaves.push_back(LeafHash(raw.value_or("")));
  }
  return RootFromLeafHashes(leaves);
}

// Bytes in the WAL files of the store in `data_dir`: what the next open would replay.
inline uintmax_t WalBytes(const std::string& data_dir) {
  uintmax_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir + "/db")) {
    if (entry.path().extension() == ".log") bytes += entry.file_size();
  }
  return bytes;
}

}  // namespace esign::eventstore::testing
