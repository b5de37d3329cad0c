#include "eventstore/merkle_ledger.h"

#include <algorithm>
#include <utility>

namespace esign::eventstore {

MerkleLedger::MerkleLedger(const LedgerView& view, TreeHeadLog& heads,
                           std::unique_ptr<TreeHeadSigner> signer, const Clock& clock)
    : view_(view), heads_(heads), signer_(std::move(signer)), clock_(clock) {}

Result<std::unique_ptr<MerkleLedger>> MerkleLedger::Open(const LedgerView& view, TreeHeadLog& heads,
                                                         std::unique_ptr<TreeHeadSigner> signer,
                                                         const Clock& clock) {
  Result<std::vector<SignedTreeHead>> stored = heads.LoadAll();
  if (!stored) return Fail(stored.error());
  std::unique_ptr<MerkleLedger> ledger(new MerkleLedger(view, heads, std::move(signer), clock));
  if (!stored->empty()) {
    if (stored->back().size > view.LeafCount()) {
      return Fail(ErrorCode::kCorruption,
                  "a signed tree head covers " + std::to_string(stored->back().size) +
                      " events but the log holds " + std::to_string(view.LeafCount()));
    }
    ledger->newest_ = std::move(stored->back());
  }
  return ledger;
}

uint64_t MerkleLedger::Size() const { return view_.LeafCount(); }

Status MerkleLedger::CheckSize(uint64_t size) const {
  const uint64_t leaves = view_.LeafCount();
  if (size > leaves) {
    return Fail(ErrorCode::kNotFound, "tree size " + std::to_string(size) +
                                          " is beyond the log, which holds " +
                                          std::to_string(leaves) + " events");
  }
  return {};
}

Result<Hash> MerkleLedger::LeafHashAt(uint64_t index) const {
  if (index >= view_.LeafCount()) {
    return Fail(ErrorCode::kNotFound, "no event at position " + std::to_string(index));
  }
  return view_.nodes().Get(NodeId{0, index});
}

Result<Hash> MerkleLedger::Root(uint64_t size) const {
  if (Status checked = CheckSize(size); !checked) return Fail(checked.error());
  // The current root comes from the appender's frontier without reading nodes.
  const auto [current_size, current_root] = view_.CurrentHead();
  if (size == current_size) return current_root;
  return RootAt(view_.nodes(), size);
}

Result<std::vector<Hash>> MerkleLedger::InclusionProof(uint64_t index, uint64_t size) const {
  if (Status checked = CheckSize(size); !checked) return Fail(checked.error());
  return eventstore::InclusionProof(view_.nodes(), index, size);
}

Result<std::vector<Hash>> MerkleLedger::ConsistencyProof(uint64_t old_size,
                                                         uint64_t new_size) const {
  if (Status checked = CheckSize(new_size); !checked) return Fail(checked.error());
  return eventstore::ConsistencyProof(view_.nodes(), old_size, new_size);
}

Result<SignedTreeHead> MerkleLedger::SignTreeHead() {
  SignedTreeHead head;
  TreeHeadTimestamper timestamper;
  {
    std::lock_guard lock(sign_mutex_);
    const auto [size, root] = view_.CurrentHead();
    const std::optional<SignedTreeHead> newest = NewestTreeHead();
    if (newest && newest->size >= size) return *newest;
    int64_t timestamp_ms = clock_.NowMicros() / 1000;
    // Later heads never carry an earlier timestamp, even if the wall clock steps back.
    if (newest) timestamp_ms = std::max(timestamp_ms, newest->timestamp_ms);
    head = signer_->Sign(size, root, timestamp_ms);
    if (Status stored = heads_.Store(head); !stored) return Fail(stored.error());
    SetNewest(head);
    timestamper = timestamper_;
  }
  if (!timestamper) return head;
  // A slow authority holds up only this call: the head is already the newest, so concurrent
  // callers (bundle reads) take it as it is instead of waiting behind the lock.
  std::string token = timestamper(head);
  if (token.empty()) return head;
  head.timestamp_token = std::move(token);
  std::lock_guard lock(sign_mutex_);
  if (Status stored = heads_.Store(head); !stored) return Fail(stored.error());
  SetNewest(head);
  return head;
}

void MerkleLedger::SetNewest(const SignedTreeHead& head) {
  std::lock_guard lock(newest_mutex_);
  if (!newest_ || newest_->size <= head.size) newest_ = head;
}

void MerkleLedger::AdoptTreeHead(const SignedTreeHead& head) { SetNewest(head); }

Result<std::vector<SignedTreeHead>> MerkleLedger::TreeHeads() const { return heads_.LoadAll(); }

std::optional<SignedTreeHead> MerkleLedger::NewestTreeHead() const {
  std::lock_guard lock(newest_mutex_);
  return newest_;
}

std::string MerkleLedger::PublicKeyPem() const { return signer_->PublicKeyPem(); }

void MerkleLedger::SetTimestamper(TreeHeadTimestamper timestamper) {
  std::lock_guard lock(sign_mutex_);
  timestamper_ = std::move(timestamper);
}

}  // namespace esign::eventstore
