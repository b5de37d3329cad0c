// A contract as of one version of its stream, replayed from the log: what an outbox that reads
// the log (mail, provider notices) decides on, the contract as the event it reads left it.
// Thread safety: as the store's reads.
#pragma once

#include <cstdint>
#include <string_view>

#include "domain/contract.h"
#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

// The contract after the events of its stream up to `version`.
Result<ContractState> ContractAt(const eventstore::EventStore& store, std::string_view contract_id,
                                 uint64_t version);
// The contract now.
Result<ContractState> LatestContract(const eventstore::EventStore& store,
                                     std::string_view contract_id);

}  // namespace esign::commands
