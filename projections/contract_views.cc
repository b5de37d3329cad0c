#include "projections/contract_views.h"

#include <utility>

#include <boost/json.hpp>

#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "projections/audit_entry.h"
#include "projections/contract_index.h"
#include "projections/due_timer_index.h"
#include "projections/key_codec.h"
#include "projections/status_row.h"
#include "projections/text_fold.h"

namespace esign::projections {

std::string ContractRowKey(std::string_view contract_id) {
  std::string key = "c/";
  AppendKeyPart(key, contract_id);
  return key;
}

std::string StatusRowKey(std::string_view contract_id) {
  std::string key = "s/";
  AppendKeyPart(key, contract_id);
  return key;
}

std::string AuditPrefix(std::string_view contract_id) {
  std::string key = "a/";
  AppendKeyPart(key, contract_id);
  key.push_back('/');
  return key;
}

std::string AuditRowKey(std::string_view contract_id, uint64_t stream_version) {
  return AuditPrefix(contract_id) + HexU64(stream_version);
}

ContractViews::ContractViews(const eventstore::EventStore& log, ContractViewsOptions options)
    : log_(log), options_(std::move(options)) {}

Result<ContractState> ContractViews::StateBefore(const eventstore::EventRecord& event,
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

Status ContractViews::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const std::optional<std::string_view> id_in_stream =
      IdInStream(StreamKind::kContract, event.stream_id);
  if (!id_in_stream) return {};
  const std::string contract_id(*id_in_stream);
  if (contract_id.empty() || event.version.value() == 0) {
    return Fail(ErrorCode::kCorruption,
                "event " + event.event_id + " on stream " + event.stream_id + " names no contract");
  }

  auto it = changed_.find(contract_id);
  if (it == changed_.end()) {
    Result<ContractState> before = StateBefore(event, contract_id);
    if (!before) return Fail(before.error());
    Changed changed;
    if (before->exists()) {
      changed.old_search_text = SearchTextOf(*before, contract_id);
      changed.old_entries = IndexEntriesOf(*before, contract_id, FoldText(changed.old_search_text));
    }
    changed.old_due_key = DueTimerKey(*before, contract_id);
    changed.state = std::move(*before);
    it = changed_.emplace(contract_id, std::move(changed)).first;
  } else if (it->second.state.version + 1 != event.version.value()) {
    return Fail(ErrorCode::kCorruption, "stream " + event.stream_id + " jumps to version " +
                                            std::to_string(event.version.value()));
  }
  Result<DomainEvent> domain_event = eventstore::ToDomainEvent(event);
  if (!domain_event) return Fail(domain_event.error());
  batch.Put(AuditRowKey(contract_id, event.version.value()),
            boost::json::serialize(AuditEntryOf(event, domain_event->data)));
  it->second.state = esign::Apply(std::move(it->second.state), *domain_event);
  return {};
}

Status ContractViews::Flush(ViewBatch& batch) {
  for (auto& [contract_id, changed] : changed_) {
    const ContractState& state = changed.state;
    std::map<std::string, IndexEntry> entries;
    if (state.exists()) {
      // Folded once per batch, and only when the text changed (a participant replaced).
      std::string search_text = SearchTextOf(state, contract_id);
      std::string folded = !changed.old_entries.empty() && search_text == changed.old_search_text
                               ? changed.old_entries.begin()->second.text
                               : FoldText(search_text);
      entries = IndexEntriesOf(state, contract_id, std::move(folded));
      batch.Put(ContractRowKey(contract_id), boost::json::serialize(ContractToJson(state)));
      std::map<std::string, uint8_t> roles_by_organization;
      for (const auto& [organization, entry] : entries) {
        roles_by_organization.emplace(organization, entry.roles);
      }
      batch.Put(StatusRowKey(contract_id),
                EncodeStatusRow(state.version, roles_by_organization,
                                boost::json::serialize(ContractStatusToJson(state))));
    }
    WriteIndexChanges(changed.old_entries, entries, batch);
    if (const std::optional<std::string> due = DueTimerKey(state, contract_id);
        due != changed.old_due_key) {
      if (changed.old_due_key) batch.Delete(*changed.old_due_key);
      if (due) batch.Put(*due, "");
      due_timers_changed_ = true;
    }
    flushed_.insert_or_assign(contract_id, std::move(changed.state));
  }
  changed_.clear();
  return {};
}

void ContractViews::Committed() {
  if (committed_.size() + flushed_.size() > options_.max_cached_states) committed_.clear();
  for (auto& [contract_id, state] : flushed_) {
    committed_.insert_or_assign(contract_id, std::move(state));
  }
  flushed_.clear();
  if (due_timers_changed_ && options_.due_timers_changed) options_.due_timers_changed();
  due_timers_changed_ = false;
}

Status ContractViews::Load(const ViewReader& /*rows*/) {
  // Nothing is trusted from before: states are replayed from the log as they are needed.
  changed_.clear();
  flushed_.clear();
  committed_.clear();
  return {};
}

}  // namespace esign::projections
