#include "projections/contract_views.h"

#include <utility>

#include <boost/json.hpp>

#include "domain/contract.h"
#include "projections/audit_entry.h"
#include "projections/contract_index.h"
#include "projections/due_timer_index.h"
#include "projections/key_codec.h"
#include "projections/status_row.h"

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
    : options_(std::move(options)), states_(log, options_.max_cached_states) {}

Status ContractViews::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  auto applied =
      states_.Apply(event, [&](const std::string& contract_id, const ContractState& before) {
        old_due_keys_.insert_or_assign(contract_id, DueTimerKey(before, contract_id));
      });
  if (!applied) return Fail(applied.error());
  if (!*applied) return {};  // not a contract's event
  batch.Put(AuditRowKey((*applied)->contract_id, event.version.value()),
            boost::json::serialize(AuditEntryOf(event, (*applied)->event.data)));
  return {};
}

Status ContractViews::Flush(ViewBatch& batch) {
  states_.Flush([&](const std::string& contract_id, const ContractBatchStates::Changed& changed,
                    const std::map<std::string, IndexEntry>& entries) {
    const ContractState& state = changed.state;
    if (state.exists()) {
      batch.Put(ContractRowKey(contract_id), boost::json::serialize(ContractToJson(state)));
      std::map<std::string, uint8_t> roles_by_organization;
      for (const auto& [organization, entry] : entries) {
        roles_by_organization.emplace(organization, entry.roles);
      }
      batch.Put(StatusRowKey(contract_id),
                EncodeStatusRow(state.version, roles_by_organization,
                                boost::json::serialize(ContractStatusToJson(state))));
    }
    WriteIndexChanges(changed.old_entries, entries, batch);  // the trigrams are the text index's
    const std::optional<std::string>& old_due_key = old_due_keys_[contract_id];
    if (const std::optional<std::string> due = DueTimerKey(state, contract_id);
        due != old_due_key) {
      if (old_due_key) batch.Delete(*old_due_key);
      if (due) batch.Put(*due, "");
      due_timers_changed_ = true;
    }
  });
  old_due_keys_.clear();
  return {};
}

void ContractViews::Committed() {
  states_.Committed();
  if (due_timers_changed_ && options_.due_timers_changed) options_.due_timers_changed();
  due_timers_changed_ = false;
}

Status ContractViews::Load(const ViewReader& /*rows*/) {
  // Nothing is trusted from before: states are replayed from the log as they are needed.
  old_due_keys_.clear();
  states_.Clear();
  return {};
}

}  // namespace esign::projections
