#include "projections/contract_batch_states.h"

#include <utility>
#include <vector>

#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "projections/text_fold.h"

namespace esign::projections {

Result<ContractState> ContractBatchStates::Before(const eventstore::EventRecord& event,
                                                  const std::string& contract_id) {
  const uint64_t wanted = event.version.value() - 1;
  ContractState state;
  if (auto it = committed_.find(contract_id); it != committed_.end()) {
    // Taken, not copied: Committed() puts the state back once this batch is written, and a
    // failed batch stops the projector, whose next start reloads from the log anyway.
    if (it->second.version <= wanted) state = std::move(it->second);
    committed_.erase(it);
  }
  if (state.version < wanted) {
    Result<std::vector<eventstore::EventRecord>> earlier =
        log_.ReadStream(event.stream_id, StreamVersion(state.version + 1), wanted - state.version);
    if (!earlier) return Fail(earlier.error());
    for (const eventstore::EventRecord& record : *earlier) {
      Result<DomainEvent> domain_event = eventstore::ToDomainEvent(record);
      if (!domain_event) return Fail(domain_event.error());
      state = esign::Apply(std::move(state), *domain_event);
    }
  }
  if (state.version != wanted) {
    return Fail(ErrorCode::kCorruption, "stream " + event.stream_id + " replays to version " +
                                            std::to_string(state.version) + ", expected " +
                                            std::to_string(wanted));
  }
  return state;
}

Result<std::optional<ContractBatchStates::Applied>> ContractBatchStates::Apply(
    const eventstore::EventRecord& event,
    const std::function<void(const std::string&, const ContractState&)>& first) {
  const std::optional<std::string_view> id_in_stream =
      IdInStream(StreamKind::kContract, event.stream_id);
  if (!id_in_stream) return std::nullopt;
  Applied applied{std::string(*id_in_stream), {}};
  const std::string& contract_id = applied.contract_id;
  if (contract_id.empty() || event.version.value() == 0) {
    return Fail(ErrorCode::kCorruption,
                "event " + event.event_id + " on stream " + event.stream_id + " names no contract");
  }
  Result<DomainEvent> domain_event = eventstore::ToDomainEvent(event);
  if (!domain_event) return Fail(domain_event.error());
  applied.event = std::move(*domain_event);

  auto it = changed_.find(contract_id);
  if (it == changed_.end()) {
    Result<ContractState> before = Before(event, contract_id);
    if (!before) return Fail(before.error());
    Changed changed;
    if (before->exists()) {
      changed.old_search_text = SearchTextOf(*before);
      changed.old_entries = IndexEntriesOf(*before, contract_id, FoldText(changed.old_search_text));
    }
    if (first) first(contract_id, *before);
    changed.state = std::move(*before);
    it = changed_.emplace(contract_id, std::move(changed)).first;
  } else if (it->second.state.version + 1 != event.version.value()) {
    return Fail(ErrorCode::kCorruption, "stream " + event.stream_id + " jumps to version " +
                                            std::to_string(event.version.value()));
  }
  it->second.state = esign::Apply(std::move(it->second.state), applied.event);
  return applied;
}

void ContractBatchStates::Flush(
    const std::function<void(const std::string&, const Changed&,
                             const std::map<std::string, IndexEntry>&)>& write) {
  for (auto& [contract_id, changed] : changed_) {
    const ContractState& state = changed.state;
    std::map<std::string, IndexEntry> entries;
    if (state.exists()) {
      // Folded once per batch, and only when the text changed (a participant replaced).
      std::string search_text = SearchTextOf(state);
      std::string folded = !changed.old_entries.empty() && search_text == changed.old_search_text
                               ? changed.old_entries.begin()->second.text
                               : FoldText(search_text);
      entries = IndexEntriesOf(state, contract_id, std::move(folded));
    }
    write(contract_id, changed, entries);
    flushed_.insert_or_assign(contract_id, std::move(changed.state));
  }
  changed_.clear();
}

void ContractBatchStates::Committed() {
  if (committed_.size() + flushed_.size() > max_cached_) committed_.clear();
  for (auto& [contract_id, state] : flushed_) {
    committed_.insert_or_assign(contract_id, std::move(state));
  }
  flushed_.clear();
}

void ContractBatchStates::Clear() {
  changed_.clear();
  flushed_.clear();
  committed_.clear();
}

}  // namespace esign::projections
