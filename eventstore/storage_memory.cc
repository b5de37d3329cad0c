#include "eventstore/storage_memory.h"

namespace esign::eventstore {

std::shared_ptr<const StorageMemory> MakeStorageMemory(size_t cache_bytes,
                                                       size_t write_buffer_bytes) {
  auto memory = std::make_shared<StorageMemory>();
  // Half of the cache for high-priority entries (index and filter blocks); they are evicted only
  // when that half is full, data blocks first.
  memory->cache = rocksdb::NewLRUCache(cache_bytes, /*num_shard_bits=*/-1,
                                       /*strict_capacity_limit=*/false,
                                       /*high_pri_pool_ratio=*/0.5);
  if (write_buffer_bytes > 0) {
    // Memtables are charged to the cache, so blocks give way as memtables grow; writes never
    // stall for it (allow_stall false): a full budget makes the largest memtable flush.
    memory->write_buffers = std::make_shared<rocksdb::WriteBufferManager>(
        write_buffer_bytes, memory->cache, /*allow_stall=*/false);
  }
  return memory;
}

rocksdb::BlockBasedTableOptions CachedTableOptions(const StorageMemory& memory) {
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = memory.cache;
  table.cache_index_and_filter_blocks = true;
  table.cache_index_and_filter_blocks_with_high_priority = true;
  table.pin_l0_filter_and_index_blocks_in_cache = true;
  return table;
}

}  // namespace esign::eventstore
