#include "eventstore/memory_event_store.h"

#include <algorithm>
#include <utility>

#include "base/sha256.h"

namespace esign::eventstore {
namespace {

std::unexpected<Error> Closed() { return Fail(ErrorCode::kStorage, "the event store is closed"); }

class MemoryBlobStore final : public BlobStore {
 public:
  Result<std::string> Put(std::string_view bytes) override {
    std::string key = Sha256Hex(bytes);
    std::lock_guard lock(mutex_);
    blobs_.try_emplace(key, bytes);
    return key;
  }
  Result<std::string> Get(std::string_view sha256_hex) const override {
    std::lock_guard lock(mutex_);
    const auto it = blobs_.find(std::string(sha256_hex));
    if (it == blobs_.end()) {
      return Fail(ErrorCode::kNotFound, "no blob " + std::string(sha256_hex));
    }
    return it->second;
  }
  Result<bool> Contains(std::string_view sha256_hex) const override {
    std::lock_guard lock(mutex_);
    return blobs_.contains(std::string(sha256_hex));
  }
  Status Delete(std::string_view sha256_hex) override {
    std::lock_guard lock(mutex_);
    blobs_.erase(std::string(sha256_hex));
    return {};
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::string> blobs_;  // guarded by mutex_
};

}  // namespace

MemoryEventStore::MemoryEventStore(const Clock& clock)
    : clock_(clock),
      blobs_(std::make_unique<MemoryBlobStore>()),
      // Every stream version is one map look-up away, so the planner need not cache them.
      planner_(*this, 0) {}

MemoryEventStore::~MemoryEventStore() { Close(); }

Result<std::unique_ptr<MemoryEventStore>> MemoryEventStore::Create(const Clock* clock) {
  Result<std::unique_ptr<TreeHeadSigner>> signer = TreeHeadSigner::CreateEphemeral();
  if (!signer) return Fail(signer.error());
  std::unique_ptr<MemoryEventStore> store(
      new MemoryEventStore(clock != nullptr ? *clock : SystemClock::Instance()));
  Result<std::unique_ptr<MerkleLedger>> ledger =
      MerkleLedger::Open(*store, *store, std::move(*signer), store->clock_);
  if (!ledger) return Fail(ledger.error());
  store->ledger_ = std::move(*ledger);
  return store;
}

Result<AppendResult> MemoryEventStore::Append(std::string_view stream_id, ExpectedVersion expected,
                                              std::vector<NewEvent> events) {
  if (Status checked = CheckAppend(stream_id, events); !checked) return Fail(checked.error());
  std::unique_lock lock(mutex_);
  if (closed_) return Closed();
  const AppendInput input{stream_id, expected, &events};
  planner_.Plan({&input, 1}, records_.size(), clock_.NowMicros(), plan_);
  Result<AppendResult> outcome = std::move(plan_.appends.front().outcome);
  if (!outcome || outcome->replayed) return outcome;

  planner_.Commit(plan_);
  std::vector<NewNode> fresh;
  for (size_t i = 0; i < plan_.records.size(); ++i) {
    EventRecord& record = plan_.records[i];
    std::string raw = CanonicalBytes(record);
    frontier_.Append(LeafHash(raw), fresh);
    streams_[record.stream_id].push_back(record.position);
    event_ids_.emplace(record.event_id, plan_.id_entries[i]);
    raw_.push_back(std::move(raw));
    records_.push_back(std::move(record));
  }
  if (Status added = nodes_.Add(fresh); !added) return Fail(added.error());
  size_.store(records_.size(), std::memory_order_release);
  lock.unlock();
  size_changed_.notify_all();
  return outcome;
}

Result<std::vector<EventRecord>> MemoryEventStore::ReadStream(std::string_view stream_id,
                                                              StreamVersion from,
                                                              size_t max_count) const {
  std::lock_guard lock(mutex_);
  std::vector<EventRecord> out;
  const auto it = streams_.find(stream_id);
  if (it == streams_.end()) return out;
  const std::vector<GlobalPosition>& positions = it->second;
  for (size_t i = std::max<uint64_t>(from.value(), 1) - 1;
       i < positions.size() && out.size() < max_count; ++i) {
    out.push_back(records_[positions[i].value()]);
  }
  return out;
}

Result<StreamVersion> MemoryEventStore::CurrentVersion(std::string_view stream_id) const {
  std::lock_guard lock(mutex_);
  return LoadVersion(stream_id);
}

Result<std::vector<EventRecord>> MemoryEventStore::ReadAll(GlobalPosition from,
                                                           size_t max_count) const {
  std::lock_guard lock(mutex_);
  std::vector<EventRecord> out;
  for (uint64_t i = from.value(); i < records_.size() && out.size() < max_count; ++i) {
    out.push_back(records_[i]);
  }
  return out;
}

Result<std::string> MemoryEventStore::ReadRaw(GlobalPosition position) const {
  std::lock_guard lock(mutex_);
  if (position.value() >= raw_.size()) {
    return Fail(ErrorCode::kNotFound, "no event at position " + std::to_string(position.value()));
  }
  return raw_[position.value()];
}

uint64_t MemoryEventStore::Size() const { return size_.load(std::memory_order_acquire); }

uint64_t MemoryEventStore::WaitForSizeAbove(uint64_t size, std::chrono::milliseconds timeout,
                                            std::stop_token stop) const {
  std::unique_lock lock(mutex_);
  size_changed_.wait_for(lock, stop, timeout, [&] { return records_.size() > size || closed_; });
  return records_.size();
}

void MemoryEventStore::Close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  size_changed_.notify_all();
}

Result<StreamVersion> MemoryEventStore::LoadVersion(std::string_view stream_id) const {
  const auto it = streams_.find(stream_id);
  return StreamVersion(it == streams_.end() ? 0 : it->second.size());
}

Status MemoryEventStore::LookupEventIds(std::span<const std::string_view> ids,
                                        std::vector<std::optional<EventIdEntry>>& out) const {
  out.clear();
  for (const std::string_view id : ids) {
    const auto it = event_ids_.find(id);
    out.push_back(it == event_ids_.end() ? std::nullopt : std::optional(it->second));
  }
  return {};
}

Result<std::optional<GlobalPosition>> MemoryEventStore::PositionAt(std::string_view stream_id,
                                                                   StreamVersion version) const {
  const auto it = streams_.find(stream_id);
  if (it == streams_.end() || version.value() == 0 || version.value() > it->second.size()) {
    return std::optional<GlobalPosition>();
  }
  return std::optional(it->second[version.value() - 1]);
}

std::pair<uint64_t, Hash> MemoryEventStore::CurrentHead() const {
  std::lock_guard lock(mutex_);
  return {frontier_.size(), frontier_.Root()};
}

Status MemoryEventStore::Store(const SignedTreeHead& head) {
  std::lock_guard lock(mutex_);
  for (SignedTreeHead& stored : heads_) {
    if (stored.size == head.size) {
      stored = head;
      return {};
    }
  }
  heads_.push_back(head);
  return {};
}

Result<std::vector<SignedTreeHead>> MemoryEventStore::LoadAll() const {
  std::lock_guard lock(mutex_);
  return heads_;
}

}  // namespace esign::eventstore
