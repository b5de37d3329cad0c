#include "eventstore/verify_log.h"

#include <algorithm>
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

void LogVerifier::Add(uint64_t position, const Result<std::string_view>& raw,
                      const Result<Hash>& stored_leaf) {
  const Hash leaf = raw ? LeafHash(*raw) : Hash{};
  if (!raw) {
    BadPosition(result_, position, raw.error().message);
  } else if (Result<EventRecord> record =
                 options_.ledger != nullptr ? ParseStoredRecord(*raw) : ParseRecord(*raw);
             !record) {
    BadPosition(result_, position, "not a record: " + record.error().message);
  } else if (record->position.value() != position) {
    BadPosition(result_, position,
                "holds the record of position " + std::to_string(record->position.value()));
  } else if (options_.ledger != nullptr) {
    if (!stored_leaf) {
      BadPosition(result_, position, "no leaf in the ledger: " + stored_leaf.error().message);
    } else if (*stored_leaf != leaf) {
      BadPosition(result_, position, "the stored bytes no longer hash to the ledger's leaf");
    }
  }
  scratch_.clear();
  frontier_.Append(leaf, scratch_);
  CheckHeadsAt(position + 1);
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

Result<LogVerification> VerifyLog(const EventStore& store, const VerifyOptions& options) {
  const uint64_t size = store.Size();
  LogVerifier verifier(options, size);
  for (uint64_t position = 0; position < size; ++position) {
    Result<std::string> raw = store.ReadRaw(GlobalPosition(position));
    if (!raw && raw.error().code == ErrorCode::kStorage) return Fail(raw.error());
    const Result<std::string_view> bytes =
        raw ? Result<std::string_view>(*raw) : std::unexpected(raw.error());
    verifier.Add(
        position, bytes,
        options.ledger != nullptr ? options.ledger->LeafHashAt(position) : Result<Hash>(Hash{}));
  }
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
