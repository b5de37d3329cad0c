#include "projections/contract_text_index.h"

#include <optional>
#include <string>

#include "projections/contract_index.h"

namespace esign::projections {

Status ContractTextIndex::Apply(const eventstore::EventRecord& event, ViewBatch& /*batch*/) {
  auto applied = states_.Apply(event);
  if (!applied) return Fail(applied.error());
  return {};
}

Status ContractTextIndex::Flush(ViewBatch& batch) {
  states_.Flush([&](const std::string& /*contract_id*/, const ContractBatchStates::Changed& changed,
                    const std::map<std::string, IndexEntry>& entries) {
    WriteTextIndexChanges(changed.old_entries, entries, batch);
  });
  return {};
}

Status ContractTextIndex::Load(const ViewReader& /*rows*/) {
  // As ContractViews: states are replayed from the log as they are needed.
  states_.Clear();
  return {};
}

}  // namespace esign::projections
