#include "eventstore/rocksdb_options.h"

#include <algorithm>
#include <memory>
#include <string_view>

#include <rocksdb/filter_policy.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_log.h"
#include "eventstore/storage_memory.h"

namespace esign::eventstore {
namespace {

// The stream id and its 0x00 separator: every key of one stream shares it, so prefix bloom
// filters answer "no such stream" for new streams without a seek through every level.
class StreamPrefix final : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "esign.StreamPrefix"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    const std::string_view view = key.ToStringView();
    return rocksdb::Slice(key.data(), view.find('\0') + 1);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return key.ToStringView().find('\0') != std::string_view::npos;
  }
};

rocksdb::ColumnFamilyOptions Family(const RocksStoreOptions& options, const StorageMemory& memory,
                                    bool bloom, size_t block_size) {
  rocksdb::BlockBasedTableOptions table = CachedTableOptions(memory);
  table.block_size = block_size;
  table.format_version = 5;
  if (bloom) table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  rocksdb::ColumnFamilyOptions family;
  family.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  family.write_buffer_size = options.write_buffer_bytes;
  family.level_compaction_dynamic_level_bytes = true;
  // LZ4 decompresses several times faster than the default Snappy: a log scan is read-bound.
  family.compression = rocksdb::kLZ4Compression;
  return family;
}

}  // namespace

std::vector<std::string> StoreFamilyNames() {
  return {rocksdb::kDefaultColumnFamilyName,
          family::kEvents,
          family::kStreams,
          family::kEventIds,
          family::kLedgerNodes,
          family::kTreeHeads,
          family::kBlobs,
          family::kProjections,
          family::kCheckpoints};
}

std::vector<std::string> OpenedFamilyNames(const RocksStoreOptions& options) {
  std::vector<std::string> names = StoreFamilyNames();
  if (options.read_only && options.log_and_ledger_only) {
    // RocksDB lets a read-only open name a subset; the WAL's writes to the others are skipped.
    std::erase_if(names, [](const std::string& name) {
      return name == family::kStreams || name == family::kEventIds ||
             name == family::kProjections || name == family::kCheckpoints;
    });
  }
  return names;
}

rocksdb::DBOptions StoreDBOptions(const RocksStoreOptions& options) {
  rocksdb::DBOptions db;
  db.create_if_missing = true;
  db.create_missing_column_families = true;
  if (options.env != nullptr) db.env = options.env;
  db.max_background_jobs = 2;
  db.info_log = MakeRocksLog();
  // Appends are acknowledged only after their own synced write; a manual flush would add a step.
  db.manual_wal_flush = false;
  // One appender writes the log; concurrent memtable inserts would only disable insert hints.
  db.allow_concurrent_memtable_write = false;
  // Families written rarely (tree heads, checkpoints) must not pin old WAL files forever.
  db.max_total_wal_size = 4 * options.write_buffer_bytes;
  if (options.memory != nullptr) db.write_buffer_manager = options.memory->write_buffers;
  if (options.strict_wal) db.wal_recovery_mode = rocksdb::WALRecoveryMode::kAbsoluteConsistency;
  return db;
}

std::vector<rocksdb::ColumnFamilyDescriptor> StoreFamilies(const RocksStoreOptions& options) {
  const std::shared_ptr<const StorageMemory> memory =
      options.memory != nullptr ? options.memory : MakeStorageMemory(options.block_cache_bytes, 0);
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& name : OpenedFamilyNames(options)) {
    // Events are read by position in runs or as hits: a filter would only cost space.
    const bool bloom = name != family::kEvents && name != family::kTreeHeads;
    // Events are mostly read in runs (ReadAll): larger blocks mean fewer block look-ups.
    const size_t block_size = name == family::kEvents ? 16 << 10 : 4 << 10;
    rocksdb::ColumnFamilyOptions family = Family(options, *memory, bloom, block_size);
    if (name == family::kEvents || name == family::kLedgerNodes) {
      // Keys only grow (positions; indexes within a level): each insert starts where the last
      // one of its prefix ended instead of searching the memtable from the top.
      family.memtable_insert_with_hint_prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(1));
    } else if (name == family::kEventIds) {
      // Event ids are time-ordered ("evt_" then the time): new ones land near the previous one.
      family.memtable_insert_with_hint_prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(4));
      // Almost every look-up is for a new id: let the memtable say "absent" cheaply as well.
      family.memtable_prefix_bloom_size_ratio = 0.05;
      family.memtable_whole_key_filtering = true;
    } else if (name == family::kStreams) {
      family.prefix_extractor = std::make_shared<StreamPrefix>();
      // A stream's next version sorts right after its last one: each insert starts at the
      // place the stream's previous insert left (one hint per stream and memtable, about 200
      // bytes of its arena) instead of descending the skip list through every other stream.
      family.memtable_insert_with_hint_prefix_extractor = std::make_shared<StreamPrefix>();
      family.memtable_prefix_bloom_size_ratio = 0.05;
    } else if (name == family::kProjections) {
      // Most reads of a view row (a status, a grant) are of rows flushed long ago: a whole-key
      // filter over the memtable answers "not here" without descending its skip list.
      family.memtable_prefix_bloom_size_ratio = 0.02;
      family.memtable_whole_key_filtering = true;
    } else if (name == rocksdb::kDefaultColumnFamilyName || name == family::kTreeHeads ||
               name == family::kCheckpoints) {
      family.write_buffer_size = std::min<size_t>(options.write_buffer_bytes, size_t{4} << 20);
    }
    families.emplace_back(name, std::move(family));
  }
  return families;
}

}  // namespace esign::eventstore
