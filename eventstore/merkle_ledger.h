// The Ledger of both stores: roots and proofs from the merkle.h functions over the store's nodes,
// and signed tree heads kept in a TreeHeadLog. The store supplies what differs between them: where
// nodes live, where heads are stored, and a consistent (size, root) snapshot of its log.
//
// Thread safety: every method may be called from any thread. SignTreeHead signs and stores under
// a lock, and timestamps outside it (Ledger::SetTimestamper).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "domain/clock.h"
#include "eventstore/event_store.h"

namespace esign::eventstore {

// What the ledger reads from its store. Every method may be called from any thread.
class LedgerView {
 public:
  virtual ~LedgerView() = default;
  // Leaves appended and durable.
  virtual uint64_t LeafCount() const = 0;
  // Nodes of every tree up to LeafCount().
  virtual const NodeSource& nodes() const = 0;
  // The size and root of the current tree, taken together so that they match.
  virtual std::pair<uint64_t, Hash> CurrentHead() const = 0;
};

// Where signed heads are kept.
class TreeHeadLog {
 public:
  virtual ~TreeHeadLog() = default;
  // Storing a head of the size of one stored before replaces it (the same head, now with its
  // timestamp token).
  virtual Status Store(const SignedTreeHead& head) = 0;
  // By increasing size.
  virtual Result<std::vector<SignedTreeHead>> LoadAll() const = 0;
};

class MerkleLedger final : public Ledger {
 public:
  // `view`, `heads` and `clock` must outlive the ledger.
  static Result<std::unique_ptr<MerkleLedger>> Open(const LedgerView& view, TreeHeadLog& heads,
                                                    std::unique_ptr<TreeHeadSigner> signer,
                                                    const Clock& clock);

  uint64_t Size() const override;
  Result<Hash> LeafHashAt(uint64_t index) const override;
  Result<Hash> Root(uint64_t size) const override;
  Result<std::vector<Hash>> InclusionProof(uint64_t index, uint64_t size) const override;
  Result<std::vector<Hash>> ConsistencyProof(uint64_t old_size, uint64_t new_size) const override;
  Result<SignedTreeHead> SignTreeHead() override;
  Result<std::vector<SignedTreeHead>> TreeHeads() const override;
  std::optional<SignedTreeHead> NewestTreeHead() const override;
  std::string PublicKeyPem() const override;
  void SetTimestamper(TreeHeadTimestamper timestamper) override;
  // A head the store applied from the replicated log, already stored: the newest from now on
  // unless a newer one is. Takes only the lock of the newest head, so the store's appender may
  // call it while another thread signs (and waits for the appender to store its head).
  void AdoptTreeHead(const SignedTreeHead& head);

 private:
  MerkleLedger(const LedgerView& view, TreeHeadLog& heads, std::unique_ptr<TreeHeadSigner> signer,
               const Clock& clock);
  Status CheckSize(uint64_t size) const;
  // Makes `head` the newest when it is at least as large as the newest.
  void SetNewest(const SignedTreeHead& head);

  const LedgerView& view_;
  TreeHeadLog& heads_;
  const std::unique_ptr<TreeHeadSigner> signer_;
  const Clock& clock_;
  mutable std::mutex sign_mutex_;         // one signer at a time
  TreeHeadTimestamper timestamper_;       // guarded by sign_mutex_
  mutable std::mutex newest_mutex_;       // never held while storing
  std::optional<SignedTreeHead> newest_;  // guarded by newest_mutex_
};

}  // namespace esign::eventstore
