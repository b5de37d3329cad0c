#include "commands/contract_at.h"

#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"

namespace esign::commands {

Result<ContractState> ContractAt(const eventstore::EventStore& store, std::string_view contract_id,
                                 uint64_t version) {
  auto records = store.ReadStream(ContractStreamId(contract_id), StreamVersion(1), version);
  if (!records) return std::unexpected(records.error());
  auto events = eventstore::ToDomainEvents(*records);
  if (!events) return std::unexpected(events.error());
  return Replay(*events);
}

Result<ContractState> LatestContract(const eventstore::EventStore& store,
                                     std::string_view contract_id) {
  auto version = store.CurrentVersion(ContractStreamId(contract_id));
  if (!version) return std::unexpected(version.error());
  return ContractAt(store, contract_id, version->value());
}

}  // namespace esign::commands
