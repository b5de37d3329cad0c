// Independent verification of an event log against its ledger and its signed tree heads: the
// Merkle tree is recomputed from the stored bytes (ReadRaw), never from the stored nodes, so
// changing one byte of one stored event is detected. Used by the tests and the auditor's tool.
//
// Thread safety: a pure function of what it reads; the store may be appended to meanwhile (only
// the first Size() events, read at the start, are checked).
#pragma once

#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eventstore/event_store.h"
#include "eventstore/merkle.h"

namespace esign::eventstore {

struct VerifyOptions {
  // The key the heads must be signed with. An auditor passes the key it trusts, not the one the
  // store reports.
  std::string public_key_pem;
  // Heads to check, e.g. from Ledger::TreeHeads() or from evidence handed to a client.
  std::vector<SignedTreeHead> heads;
  // When set, the stored leaf hashes are compared with the recomputed ones (naming the first
  // changed event even without a head) and consistency proofs between successive heads are
  // requested and verified.
  const Ledger* ledger = nullptr;
};

struct LogVerification {
  uint64_t size = 0;  // events checked
  Hash root{};        // recomputed over those events
  size_t heads_checked = 0;
  bool ok = true;
  // The first position whose stored bytes are missing, unreadable, not a record of that position,
  // or no longer hash to the leaf the ledger recorded.
  std::optional<uint64_t> first_bad_position;
  // Every finding, in the order found, readable by a person.
  std::vector<std::string> problems;
};

// Reads every event once. An Error only for failures to read (kStorage); tampering is reported
// in the LogVerification.
Result<LogVerification> VerifyLog(const EventStore& store, const VerifyOptions& options);

// VerifyLog's checks fed one position at a time, for a reader that scans the stored events and
// leaves in bulk (contract-ledger iterates the database's families instead of looking each
// position up). Positions must come in order, 0 to size - 1, each once.
// Records are read with StoredRecordPosition (ParseStoredRecord's checks, without copying the
// record's strings) when the stored leaves are compared (options.ledger): then any changed byte
// already fails the leaf comparison, so only the head of the record (its position) needs
// reading; without a ledger the full ParseRecord runs.
class LogVerifier {
 public:
  LogVerifier(const VerifyOptions& options, uint64_t size);

  // `raw`: the stored bytes, or why they could not be read. `stored_leaf`: the ledger's leaf at
  // this position (or why there is none); ignored unless options.ledger is set.
  void Add(uint64_t position, const Result<std::string_view>& raw, const Result<Hash>& stored_leaf);
  // Checks the consistency proofs between successive heads (with options.ledger).
  LogVerification Finish() &&;

  // Add in two halves, so that the costly half (hashing and parsing one position) can run on
  // other threads while the tree is still folded in order: Add(p, raw, leaf) is
  // Fold(p, Check(options, p, raw, leaf)).
  struct PositionCheck {
    Hash leaf{};          // the recomputed leaf hash
    std::string problem;  // empty when the position is sound
  };
  static PositionCheck Check(const VerifyOptions& options, uint64_t position,
                             const Result<std::string_view>& raw, const Result<Hash>& stored_leaf);
  void Fold(uint64_t position, PositionCheck check);
  // Fold for each of the 2^level positions of `checks` from `first`, given the root of their
  // leaves' perfect subtree: the tree takes the subtree whole unless a head ends inside it.
  void FoldSubtree(uint64_t first, std::vector<PositionCheck>& checks, uint32_t level,
                   const Hash& root);

 private:
  void CheckHeadsAt(uint64_t size);

  const VerifyOptions& options_;
  std::vector<SignedTreeHead> heads_;  // by increasing size
  size_t next_head_ = 0;
  MerkleFrontier frontier_;
  std::vector<NewNode> scratch_;
  LogVerification result_;
};

// Positions per chunk: large enough that starting a thread per chunk costs nothing measurable,
// small enough that the chunks in flight hold a few megabytes. A power of two, so that a full
// chunk from a multiple of it is one perfect subtree, hashed on the chunk's thread.
inline constexpr uint32_t kVerifyChunkLevel = 12;
inline constexpr size_t kVerifyChunkPositions = size_t{1} << kVerifyChunkLevel;

// Consecutive positions read ahead: their stored bytes back to back and their stored leaves.
struct VerifyChunk {
  struct Entry {
    size_t offset = 0;  // into bytes
    size_t length = 0;
    std::optional<Error> unreadable;  // why the bytes are missing, else they are in `bytes`
    Result<Hash> stored_leaf = Hash{};
  };
  uint64_t first = 0;  // the position of entries[0]
  std::string bytes;
  std::vector<Entry> entries;

  void AddBytes(std::string_view raw, Result<Hash> stored_leaf);
  void AddUnreadable(Error error, Result<Hash> stored_leaf);
};

// A LogVerifier fed whole chunks: each chunk's positions are checked on a thread of its own (up
// to `threads` chunks at once, so the caller can read the next ones meanwhile), and folded into
// the tree in order on the caller's thread. The findings are exactly LogVerifier's.
class ChunkedLogVerifier {
 public:
  // `threads`: 0 means one per core.
  ChunkedLogVerifier(const VerifyOptions& options, uint64_t size, size_t threads = 0);
  ~ChunkedLogVerifier();
  ChunkedLogVerifier(const ChunkedLogVerifier&) = delete;
  ChunkedLogVerifier& operator=(const ChunkedLogVerifier&) = delete;

  // Chunks must come in order of position, without gaps. Blocks while `threads` chunks are
  // being checked.
  void Add(VerifyChunk chunk);
  LogVerification Finish() &&;

 private:
  struct Checked;
  void FoldOldest();

  const VerifyOptions& options_;
  LogVerifier verifier_;
  size_t threads_;
  std::deque<std::future<std::unique_ptr<Checked>>> in_flight_;
};

// Verifies a store against its own key, heads and ledger.
Result<LogVerification> VerifyLog(EventStore& store);

}  // namespace esign::eventstore
