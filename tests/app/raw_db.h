// Direct access to a stopped data directory's RocksDB database, for tests that damage what the
// store wrote the way an intruder or a failing disk would, behind the store's back.
#pragma once

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eventstore/rocksdb_event_store.h"

namespace esign::testing {

// Runs `change` on the database of `data_dir` opened directly, with the family `name`.
inline void WithRawDb(
    const std::filesystem::path& data_dir, const std::string& name,
    const std::function<void(rocksdb::DB&, rocksdb::ColumnFamilyHandle*)>& change) {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& family : eventstore::RocksEventStore::FamilyNames()) {
    descriptors.emplace_back(family, rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), (data_dir / "db").string(), descriptors,
                                &families, &raw)
                  .ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::ColumnFamilyHandle* wanted = nullptr;
  for (size_t i = 0; i < families.size(); ++i) {
    if (descriptors[i].name == name) wanted = families[i];
  }
  if (wanted != nullptr) change(*db, wanted);
  EXPECT_NE(wanted, nullptr) << name;
  for (auto* family : families) EXPECT_TRUE(db->DestroyColumnFamilyHandle(family).ok());
}

// Rewrites the stored value of `key` in the family `name` with `change`.
inline void ChangeStoredValue(const std::filesystem::path& data_dir, const std::string& name,
                              std::string_view key,
                              const std::function<void(std::string&)>& change) {
  WithRawDb(data_dir, name, [&](rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family) {
    const rocksdb::Slice key_slice(key.data(), key.size());
    std::string value;
    ASSERT_TRUE(db.Get(rocksdb::ReadOptions(), family, key_slice, &value).ok());
    change(value);
    ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), family, key_slice, value).ok());
  });
}

}  // namespace esign::testing
