#include "projections/contract_state_cache.h"

#include <algorithm>
#include <utility>

#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"

namespace esign::projections {
namespace {

// Events read from the stream at once while catching up.
constexpr size_t kReadPage = 256;

}  // namespace

ContractStateCache::ContractStateCache(const eventstore::EventStore& log,
                                       ContractStateCacheOptions options)
    : log_(log), options_{options.max_states, std::max<uint64_t>(options.checkpoint_interval, 1)} {}

Result<ContractSnapshot> ContractStateCache::Latest(std::string_view contract_id) const {
  const std::string key(contract_id);
  const Shared start = StartFor(key, 0);
  std::vector<Shared> checkpoints;
  Result<ContractSnapshot> now = Advance(key, start, 0, &checkpoints);
  if (!now) return now;
  if (!now->state.exists()) return now;
  if (start && start->state.version == now->state.version) {
    Keep(key, start, std::move(checkpoints));
    return now;
  }
  Shared latest = std::make_shared<const ContractSnapshot>(*now);
  Keep(key, latest, std::move(checkpoints));
  return now;
}

Result<ContractSnapshot> ContractStateCache::AtVersion(std::string_view contract_id,
                                                       uint64_t version) const {
  const std::string key(contract_id);
  auto too_far = [&] {
    return Fail(ErrorCode::kNotFound, "stream " + ContractStreamId(contract_id) +
                                          " has no version " + std::to_string(version));
  };
  if (version == 0) return too_far();
  Shared start = StartFor(key, version);
  if (!start || start->state.version + options_.checkpoint_interval <= version) {
    // Not cached, or evicted: one replay of the whole stream, which keeps its checkpoints.
    Result<ContractSnapshot> latest = Latest(contract_id);
    if (!latest) return latest;
    if (latest->state.version < version) return too_far();
    if (latest->state.version == version) return latest;
    start = StartFor(key, version);
  }
  if (start && start->state.version == version) return *start;
  Result<ContractSnapshot> at = Advance(key, start, version, nullptr);
  if (!at) return at;
  if (at->state.version != version) return too_far();
  return at;
}

ContractStateCache::Shared ContractStateCache::StartFor(const std::string& contract_id,
                                                        uint64_t version) const {
  const std::lock_guard lock(mutex_);
  const auto found = entries_.find(contract_id);
  if (found == entries_.end()) return nullptr;
  Entry& entry = found->second;
  recency_.splice(recency_.begin(), recency_, entry.recency);
  if (version == 0) return entry.latest;
  Shared best;
  if (entry.latest && entry.latest->state.version <= version) best = entry.latest;
  const uint64_t k =
      std::min<uint64_t>(version / options_.checkpoint_interval, entry.checkpoints.size());
  if (k > 0 && (!best || entry.checkpoints[k - 1]->state.version > best->state.version)) {
    best = entry.checkpoints[k - 1];
  }
  return best;
}

Result<ContractSnapshot> ContractStateCache::Advance(const std::string& contract_id,
                                                     const Shared& from, uint64_t version,
                                                     std::vector<Shared>* checkpoints) const {
  ContractSnapshot at = from ? *from : ContractSnapshot{};
  const std::string stream_id = ContractStreamId(contract_id);
  uint64_t applied = 0;
  while (version == 0 || at.state.version < version) {
    const size_t wanted =
        version == 0
            ? kReadPage
            : static_cast<size_t>(std::min<uint64_t>(kReadPage, version - at.state.version));
    Result<std::vector<eventstore::EventRecord>> page =
        log_.ReadStream(stream_id, StreamVersion(at.state.version + 1), wanted);
    if (!page) return Fail(page.error());
    for (const eventstore::EventRecord& record : *page) {
      if (record.version.value() != at.state.version + 1) {
        return Fail(ErrorCode::kCorruption, "stream " + stream_id + " jumps from version " +
                                                std::to_string(at.state.version) + " to " +
                                                std::to_string(record.version.value()));
      }
      Result<DomainEvent> event = eventstore::ToDomainEvent(record);
      if (!event) return Fail(event.error());
      at.state = Apply(std::move(at.state), *event);
      at.stream_bytes += record.data.size();
      ++applied;
      if (checkpoints != nullptr && at.state.version % options_.checkpoint_interval == 0) {
        checkpoints->push_back(std::make_shared<const ContractSnapshot>(at));
      }
    }
    if (page->size() < wanted) break;
  }
  const std::lock_guard lock(mutex_);
  events_applied_ += applied;
  return at;
}

void ContractStateCache::Keep(const std::string& contract_id, const Shared& latest,
                              std::vector<Shared> checkpoints) const {
  const std::lock_guard lock(mutex_);
  auto [found, added] = entries_.try_emplace(contract_id);
  Entry& entry = found->second;
  if (added) {
    recency_.push_front(contract_id);
    entry.recency = recency_.begin();
  } else {
    recency_.splice(recency_.begin(), recency_, entry.recency);
  }
  if (!entry.latest || entry.latest->state.version < latest->state.version) {
    if (!entry.latest) ++states_;
    entry.latest = latest;
  }
  for (Shared& checkpoint : checkpoints) {
    // Contiguous from the first: a checkpoint past a gap waits for the replay that fills it.
    const uint64_t k = checkpoint->state.version / options_.checkpoint_interval;
    if (entry.checkpoints.size() + 1 != k) continue;
    entry.checkpoints.push_back(std::move(checkpoint));
    ++states_;
  }
  EvictLocked();
}

void ContractStateCache::EvictLocked() const {
  // The contract just used stays even when it alone is over the budget: it is bounded by the
  // stream's own limit (domain/contract_commands.h).
  while (states_ > options_.max_states && recency_.size() > 1) {
    const auto oldest = entries_.find(recency_.back());
    states_ -= (oldest->second.latest ? 1 : 0) + oldest->second.checkpoints.size();
    entries_.erase(oldest);
    recency_.pop_back();
  }
}

ContractStateCacheStats ContractStateCache::Stats() const {
  const std::lock_guard lock(mutex_);
  return {entries_.size(), states_, events_applied_};
}

}  // namespace esign::projections
