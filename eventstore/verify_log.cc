#include "eventstore/verify_log.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "eventstore/stored_record.h"

namespace esign::eventstore {
namespace {

void Problem(LogVerification& result, std::string text) {
  result.ok = false;
  result.problems.push_back(std::move(text));
}

void BadPosition(LogVerification& result, uint64_t position, std::string text) {
  if (!result.first_bad_position) result.first_bad_position = position;
  Problem(result, "position " + std::to_string(position) + ": " + std::move(text));
}

// With a ledger, any changed byte fails the leaf comparison, so the record's head is read in
// place; without one, the full parse checks the record.
Result<GlobalPosition> RecordPosition(const VerifyOptions& options, std::string_view raw) {
  if (options.ledger != nullptr) return StoredRecordPosition(raw);
  Result<EventRecord> record = ParseRecord(raw);
  if (!record) return Fail(record.error());
  return record->position;
}

std::string HeadName(const SignedTreeHead& head) {
  return "tree head of size " + std::to_string(head.size);
}

}  // namespace

LogVerifier::LogVerifier(const VerifyOptions& options, uint64_t size)
    : options_(options), heads_(options.heads) {
  std::sort(heads_.begin(), heads_.end(),
            [](const SignedTreeHead& a, const SignedTreeHead& b) { return a.size < b.size; });
  result_.size = size;
  if (!heads_.empty() && heads_.back().size > size) {
    Problem(result_, HeadName(heads_.back()) + " covers more events than the log holds (" +
                         std::to_string(size) + ")");
  }
  for (const SignedTreeHead& head : heads_) {
    if (!VerifyTreeHead(head, options_.public_key_pem)) {
      Problem(result_, HeadName(head) + " has an invalid signature");
    }
  }
  CheckHeadsAt(0);
}

// Each head's root is checked when the recomputed tree reaches its size.
void LogVerifier::CheckHeadsAt(uint64_t size) {
  for (; next_head_ < heads_.size() && heads_[next_head_].size == size; ++next_head_) {
    ++result_.heads_checked;
    if (frontier_.Root() != heads_[next_head_].root) {
      Problem(result_, HeadName(heads_[next_head_]) +
                           " does not match the root recomputed from the stored events");
    }
  }
}

LogVerifier::PositionCheck LogVerifier::Check(const VerifyOptions& options, uint64_t position,
                                              const Result<std::string_view>& raw,
                                              const Result<Hash>& stored_leaf) {
  PositionCheck check;
  if (raw) check.leaf = LeafHash(*raw);
  if (!raw) {
    check.problem = raw.error().message;
  } else if (Result<GlobalPosition> held = RecordPosition(options, *raw); !held) {
    check.problem = "not a record: " + held.error().message;
  } else if (held->value() != position) {
    check.problem = "holds the record of position " + std::to_string(held->value());
  } else if (options.ledger != nullptr) {
    if (!stored_leaf) {
      check.problem = "no leaf in the ledger: " + stored_leaf.error().message;
    } else if (*stored_leaf != check.leaf) {
      check.problem = "the stored bytes no longer hash to the ledger's leaf";
    }
  }
  return check;
}

void LogVerifier::Fold(uint64_t position, PositionCheck check) {
  if (!check.problem.empty()) BadPosition(result_, position, std::move(check.problem));
  scratch_.clear();
  frontier_.Append(check.leaf, scratch_);
  CheckHeadsAt(position + 1);
}

void LogVerifier::FoldSubtree(uint64_t first, std::vector<PositionCheck>& checks, uint32_t level,
                              const Hash& root) {
  const uint64_t end = first + checks.size();
  // A head that ends inside needs the root at its size: then the leaves go in one by one.
  const bool head_inside = next_head_ < heads_.size() && heads_[next_head_].size < end;
  if (head_inside || checks.size() != (uint64_t{1} << level) || frontier_.size() != first ||
      first % checks.size() != 0) {
    for (size_t i = 0; i < checks.size(); ++i) Fold(first + i, std::move(checks[i]));
    return;
  }
  for (size_t i = 0; i < checks.size(); ++i) {
    if (!checks[i].problem.empty()) BadPosition(result_, first + i, std::move(checks[i].problem));
  }
  frontier_.AppendSubtree(level, root);
  CheckHeadsAt(end);
}

void LogVerifier::Add(uint64_t position, const Result<std::string_view>& raw,
                      const Result<Hash>& stored_leaf) {
  Fold(position, Check(options_, position, raw, stored_leaf));
}

LogVerification LogVerifier::Finish() && {
  result_.root = frontier_.Root();
  if (options_.ledger != nullptr) {
    for (size_t i = 1; i < heads_.size(); ++i) {
      const SignedTreeHead& older = heads_[i - 1];
      const SignedTreeHead& newer = heads_[i];
      if (newer.size > result_.size) break;
      Result<std::vector<Hash>> proof = options_.ledger->ConsistencyProof(older.size, newer.size);
      if (!proof) {
        Problem(result_, "no consistency proof from " + HeadName(older) + " to " + HeadName(newer) +
                             ": " + proof.error().message);
      } else if (!VerifyConsistency(older.size, newer.size, older.root, newer.root, *proof)) {
        Problem(result_, HeadName(newer) + " is not consistent with " + HeadName(older));
      }
    }
  }
  return std::move(result_);
}

void VerifyChunk::AddBytes(std::string_view raw, Result<Hash> stored_leaf) {
  entries.push_back({.offset = bytes.size(),
                     .length = raw.size(),
                     .unreadable = std::nullopt,
                     .stored_leaf = std::move(stored_leaf)});
  bytes.append(raw);
}

void VerifyChunk::AddUnreadable(Error error, Result<Hash> stored_leaf) {
  entries.push_back({.offset = bytes.size(),
                     .length = 0,
                     .unreadable = std::move(error),
                     .stored_leaf = std::move(stored_leaf)});
}

struct ChunkedLogVerifier::Checked {
  uint64_t first = 0;
  std::vector<LogVerifier::PositionCheck> checks;
  // For a full chunk from a multiple of its size: the root of its leaves' perfect subtree, so
  // the folding thread need not hash the chunk's inner nodes.
  std::optional<Hash> subtree_root;
};

ChunkedLogVerifier::ChunkedLogVerifier(const VerifyOptions& options, uint64_t size, size_t threads)
    : options_(options),
      verifier_(options, size),
      threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

// A chunk still being checked reads only its own bytes and the options, which outlive it.
ChunkedLogVerifier::~ChunkedLogVerifier() {
  for (auto& checked : in_flight_) checked.wait();
}

void ChunkedLogVerifier::Add(VerifyChunk chunk) {
  if (in_flight_.size() >= threads_) FoldOldest();
  in_flight_.push_back(std::async(std::launch::async, [&options = options_,
                                                       chunk = std::move(chunk)] {
    auto checked = std::make_unique<Checked>();
    checked->first = chunk.first;
    checked->checks.reserve(chunk.entries.size());
    for (size_t i = 0; i < chunk.entries.size(); ++i) {
      const VerifyChunk::Entry& entry = chunk.entries[i];
      const Result<std::string_view> raw =
          entry.unreadable ? Result<std::string_view>(std::unexpected(*entry.unreadable))
                           : Result<std::string_view>(
                                 std::string_view(chunk.bytes).substr(entry.offset, entry.length));
      checked->checks.push_back(
          LogVerifier::Check(options, chunk.first + i, raw, entry.stored_leaf));
    }
    if (checked->checks.size() == kVerifyChunkPositions &&
        chunk.first % kVerifyChunkPositions == 0) {
      std::vector<Hash> leaves;
      leaves.reserve(checked->checks.size());
      for (const LogVerifier::PositionCheck& check : checked->checks) leaves.push_back(check.leaf);
      checked->subtree_root = RootFromLeafHashes(leaves);
    }
    return checked;
  }));
}

void ChunkedLogVerifier::FoldOldest() {
  std::unique_ptr<Checked> checked = in_flight_.front().get();
  in_flight_.pop_front();
  if (checked->subtree_root) {
    verifier_.FoldSubtree(checked->first, checked->checks, kVerifyChunkLevel,
                          *checked->subtree_root);
    return;
  }
  for (size_t i = 0; i < checked->checks.size(); ++i) {
    verifier_.Fold(checked->first + i, std::move(checked->checks[i]));
  }
}

LogVerification ChunkedLogVerifier::Finish() && {
  while (!in_flight_.empty()) FoldOldest();
  return std::move(verifier_).Finish();
}

Result<LogVerification> VerifyLog(const EventStore& store, const VerifyOptions& options) {
  const uint64_t size = store.Size();
  ChunkedLogVerifier verifier(options, size);
  VerifyChunk chunk;
  for (uint64_t position = 0; position < size; ++position) {
    Result<std::string> raw = store.ReadRaw(GlobalPosition(position));
    if (!raw && raw.error().code == ErrorCode::kStorage) return Fail(raw.error());
    Result<Hash> leaf =
        options.ledger != nullptr ? options.ledger->LeafHashAt(position) : Result<Hash>(Hash{});
    if (raw) {
      chunk.AddBytes(*raw, std::move(leaf));
    } else {
      chunk.AddUnreadable(std::move(raw.error()), std::move(leaf));
    }
    if (chunk.entries.size() == kVerifyChunkPositions) {
      verifier.Add(std::move(chunk));
      chunk = VerifyChunk{.first = position + 1};
    }
  }
  if (!chunk.entries.empty()) verifier.Add(std::move(chunk));
  return std::move(verifier).Finish();
}

Result<LogVerification> VerifyLog(EventStore& store) {
  Result<std::vector<SignedTreeHead>> heads = store.ledger().TreeHeads();
  if (!heads) return Fail(heads.error());
  VerifyOptions options;
  options.public_key_pem = store.ledger().PublicKeyPem();
  options.heads = std::move(*heads);
  options.ledger = &store.ledger();
  return VerifyLog(store, options);
}

}  // namespace esign::eventstore
