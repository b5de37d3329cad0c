// How contractd divides its memory budget (--memory-budget-mb) among the structures that would
// otherwise grow with the data: RocksDB's blocks, index and filter blocks and memtables of every
// database (one cache, eventstore/storage_memory.h), the ledger nodes kept in memory, the
// appender's stream versions, the projectors' contract states, the relay's controllers and its
// producer queue. What is left of the budget is for the rest of the process: code and fonts,
// threads, connections, renders in progress, the embedded Kafka cluster (which keeps at most
// 5 MiB of each partition), and the allocator's slack. docs/operations.md has the figures.
// Pure; safe from any thread.
#pragma once

#include <cstddef>

namespace esign::app {

// Allowed --memory-budget-mb, and the default.
inline constexpr size_t kMinMemoryBudgetMb = 256;
inline constexpr size_t kMaxMemoryBudgetMb = size_t{1} << 20;
inline constexpr size_t kDefaultMemoryBudgetMb = 1024;

struct MemoryShares {
  size_t storage_bytes = 0;          // RocksDB's cache, memtables included: 1/2
  size_t write_buffer_bytes = 0;     // of storage_bytes, the memtables of every database: 1/4
  size_t ledger_node_bytes = 0;      // 1/32
  size_t stream_versions = 0;        // 1/32, about kStreamVersionBytes each
  size_t contract_states = 0;        // 1/16, about kContractStateBytes each; views and text index
  size_t relay_controllers = 0;      // 1/64, about kRelayControllerBytes each
  size_t relay_in_flight_bytes = 0;  // 1/32
};

// What one entry holds, measured with jemalloc's heap profile under benchmarks/soak.sh.
inline constexpr size_t kStreamVersionBytes = 128;
inline constexpr size_t kContractStateBytes = 1536;
inline constexpr size_t kRelayControllerBytes = 160;

MemoryShares SplitMemoryBudget(size_t budget_bytes);

}  // namespace esign::app
