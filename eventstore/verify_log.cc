#include "eventstore/verify_log.h"

#include <algorithm>
#include <utility>

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

Result<LogVerification> VerifyLog(const EventStore& store, const VerifyOptions& options) {
  LogVerification result;
  std::vector<SignedTreeHead> heads = options.heads;
  std::sort(heads.begin(), heads.end(),
            [](const SignedTreeHead& a, const SignedTreeHead& b) { return a.size < b.size; });
  result.size = store.Size();
  if (!heads.empty() && heads.back().size > result.size) {
    Problem(result, HeadName(heads.back()) + " covers more events than the log holds (" +
                        std::to_string(result.size) + ")");
  }
  for (const SignedTreeHead& head : heads) {
    if (!VerifyTreeHead(head, options.public_key_pem)) {
      Problem(result, HeadName(head) + " has an invalid signature");
    }
  }

  // One pass over the log, checking each head's root when the recomputed tree reaches its size.
  MerkleFrontier frontier;
  std::vector<NewNode> scratch;
  size_t next_head = 0;
  auto check_heads_at = [&](uint64_t size) {
    for (; next_head < heads.size() && heads[next_head].size == size; ++next_head) {
      ++result.heads_checked;
      if (frontier.Root() != heads[next_head].root) {
        Problem(result, HeadName(heads[next_head]) +
                            " does not match the root recomputed from the stored events");
      }
    }
  };
  check_heads_at(0);
  for (uint64_t position = 0; position < result.size; ++position) {
    Result<std::string> raw = store.ReadRaw(GlobalPosition(position));
    if (!raw && raw.error().code == ErrorCode::kStorage) return Fail(raw.error());
    const Hash leaf = raw ? LeafHash(*raw) : Hash{};
    if (!raw) {
      BadPosition(result, position, raw.error().message);
    } else if (Result<EventRecord> record = ParseRecord(*raw); !record) {
      BadPosition(result, position, "not a record: " + record.error().message);
    } else if (record->position.value() != position) {
      BadPosition(result, position,
                  "holds the record of position " + std::to_string(record->position.value()));
    } else if (options.ledger != nullptr) {
      Result<Hash> stored = options.ledger->LeafHashAt(position);
      if (!stored) {
        BadPosition(result, position, "no leaf in the ledger: " + stored.error().message);
      } else if (*stored != leaf) {
        BadPosition(result, position, "the stored bytes no longer hash to the ledger's leaf");
      }
    }
    scratch.clear();
    frontier.Append(leaf, scratch);
    check_heads_at(position + 1);
  }
  result.root = frontier.Root();

  if (options.ledger != nullptr) {
    for (size_t i = 1; i < heads.size(); ++i) {
      const SignedTreeHead& older = heads[i - 1];
      const SignedTreeHead& newer = heads[i];
      if (newer.size > result.size) break;
      Result<std::vector<Hash>> proof = options.ledger->ConsistencyProof(older.size, newer.size);
      if (!proof) {
        Problem(result, "no consistency proof from " + HeadName(older) + " to " + HeadName(newer) +
                            ": " + proof.error().message);
      } else if (!VerifyConsistency(older.size, newer.size, older.root, newer.root, *proof)) {
        Problem(result, HeadName(newer) + " is not consistent with " + HeadName(older));
      }
    }
  }
  return result;
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
