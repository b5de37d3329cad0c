// The memory RocksDB may hold for every database of the process, in one place: one block cache
// for the data blocks and, inside it, the index and filter blocks of every table (which otherwise
// stay outside any limit and grow with the data), and one write-buffer manager that holds the
// memtables of every column family of every database within one budget and charges them to the
// same cache. The event store and the delivery stores share one StorageMemory, so what RocksDB
// holds in all stays near `cache_bytes` however large the data grows (docs/operations.md).
// Thread safety: the cache and the manager are RocksDB's, safe from any thread.
#pragma once

#include <cstddef>
#include <memory>

#include <rocksdb/cache.h>
#include <rocksdb/table.h>
#include <rocksdb/write_buffer_manager.h>

namespace esign::eventstore {

struct StorageMemory {
  std::shared_ptr<rocksdb::Cache> cache;
  // nullptr: each family's memtables are limited only by its own write_buffer_size.
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffers;
};

// `cache_bytes` for blocks, index and filter blocks and memtables together; of it, at most
// `write_buffer_bytes` for memtables (0: no shared memtable budget).
std::shared_ptr<const StorageMemory> MakeStorageMemory(size_t cache_bytes,
                                                       size_t write_buffer_bytes);

// Table options that keep a table's index and filter blocks in `memory`'s cache, with high
// priority (evicted after data blocks), and those of level 0 pinned (they are read by every
// look-up).
rocksdb::BlockBasedTableOptions CachedTableOptions(const StorageMemory& memory);

}  // namespace esign::eventstore
