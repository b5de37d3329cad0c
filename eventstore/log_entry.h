// The entries of the replicated log (DESIGN 22): what the writer publishes to the log topic, one
// Kafka message each, and what every node applies in offset order. Each entry carries the epoch of
// the writer that published it and the log's size when it was published, and ends with an
// HMAC-SHA256 under the shard's replication key, so that a message no node wrote is never applied.
//
// Layout (integers big-endian): "CLOG" 0x01, kind (u8), epoch (u64), size (u64), the kind's body,
// then the 32-byte MAC of everything before it.
//   batch  root (32), appends (u32) and each append's event count (u32), records (u32) and each
//          record as length (u32) and canonical bytes: the positions size .. size+records-1
//   blob   sha256 hex (64), chunk (u32), chunks (u32), bytes: one piece of a blob; chunks 0
//          means the blob was deleted
//   head   a signed tree head as the tree_heads family stores it
//   claim  base root (32) and the claimant's name: epoch takes over from the base (size, root)
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "eventstore/merkle.h"

namespace esign::eventstore {

enum class LogEntryKind : uint8_t { kBatch = 1, kBlob = 2, kHead = 3, kClaim = 4 };

std::string_view ToString(LogEntryKind kind);

struct LogEntry {
  LogEntryKind kind = LogEntryKind::kBatch;
  uint64_t epoch = 0;
  uint64_t size = 0;  // the log's size before the entry; a batch's first position
  Hash root{};        // batch: the root after it; claim: the root at `size`
  // batch
  std::vector<uint32_t> append_sizes;  // events of each append, in order; they sum to records
  std::vector<std::string> records;
  // blob
  std::string sha256;
  uint32_t chunk = 0;
  uint32_t chunks = 0;
  std::string bytes;  // blob: the chunk's bytes; head: the stored head; claim: the claimant
};

// The largest entry the writer publishes: the topic's messages are at most 8 MiB (DESIGN 22).
inline constexpr size_t kMaxLogEntryBytes = size_t{8} << 20;
// Blobs go in chunks of this size, and the writer keeps a batch of appends to about as much event
// data (librdkafka's mock cluster serves no message of 4 MiB to a fetch; 1 MiB ones it does).
inline constexpr size_t kLogBlobChunkBytes = size_t{1} << 20;

std::string EncodeLogEntry(const LogEntry& entry, std::string_view key);
// kUnauthenticated when the MAC does not match `key`; kValidationFailed when malformed.
Result<LogEntry> DecodeLogEntry(std::string_view bytes, std::string_view key);

}  // namespace esign::eventstore
