// MemoryEventStore: the in-memory twin of the RocksDB store, for tests of the layers above. Same
// semantics (expected versions, idempotency by event id, canonical bytes, Merkle ledger with signed
// heads under an ephemeral key, blobs, WaitForSizeAbove), no durability: everything is lost with
// the object. Appends run synchronously under one mutex; there is no group commit.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "domain/clock.h"
#include "eventstore/append_planner.h"
#include "eventstore/event_store.h"
#include "eventstore/merkle_ledger.h"
#include "eventstore/node_cache.h"

namespace esign::eventstore {

class MemoryEventStore final : public EventStore,
                               private AppendIndex,
                               private LedgerView,
                               private TreeHeadLog {
 public:
  // `clock` (SystemClock when null) stamps records and heads and must outlive the store.
  static Result<std::unique_ptr<MemoryEventStore>> Create(const Clock* clock = nullptr);
  ~MemoryEventStore() override;

  Result<AppendResult> Append(std::string_view stream_id, ExpectedVersion expected,
                              std::vector<NewEvent> events) override;
  Result<std::vector<EventRecord>> ReadStream(std::string_view stream_id, StreamVersion from,
                                              size_t max_count) const override;
  Result<StreamVersion> CurrentVersion(std::string_view stream_id) const override;
  Result<std::vector<EventRecord>> ReadAll(GlobalPosition from, size_t max_count) const override;
  Result<std::string> ReadRaw(GlobalPosition position) const override;
  uint64_t Size() const override;
  uint64_t WaitForSizeAbove(uint64_t size, std::chrono::milliseconds timeout,
                            std::stop_token stop = {}) const override;
  Ledger& ledger() override { return *ledger_; }
  BlobStore& blobs() override { return *blobs_; }
  void Close() override;

 private:
  explicit MemoryEventStore(const Clock& clock);

  // AppendIndex, called by the planner while mutex_ is held.
  Result<StreamVersion> LoadVersion(std::string_view stream_id) const override;
  Status LookupEventIds(std::span<const std::string_view> ids,
                        std::vector<std::optional<EventIdEntry>>& out) const override;
  Result<std::optional<GlobalPosition>> PositionAt(std::string_view stream_id,
                                                   StreamVersion version) const override;
  // LedgerView.
  uint64_t LeafCount() const override { return Size(); }
  const NodeSource& nodes() const override { return nodes_; }
  std::pair<uint64_t, Hash> CurrentHead() const override;
  // TreeHeadLog.
  Status Store(const SignedTreeHead& head) override;
  Result<std::vector<SignedTreeHead>> LoadAll() const override;

  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  template <class V>
  using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

  const Clock& clock_;
  NodeCache nodes_{0};  // every level: it is the ledger's only copy
  std::unique_ptr<MerkleLedger> ledger_;
  std::unique_ptr<BlobStore> blobs_;
  std::atomic<uint64_t> size_{0};

  mutable std::mutex mutex_;
  mutable std::condition_variable_any size_changed_;
  // All guarded by mutex_.
  bool closed_ = false;
  std::vector<EventRecord> records_;
  std::vector<std::string> raw_;
  StringMap<std::vector<GlobalPosition>> streams_;  // positions of versions 1..n
  StringMap<EventIdEntry> event_ids_;
  MerkleFrontier frontier_;
  AppendPlanner planner_;
  BatchPlan plan_;
  std::vector<SignedTreeHead> heads_;
};

}  // namespace esign::eventstore
