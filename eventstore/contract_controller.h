// The organization that controls a contract: the string "organizationId" of the data of the
// contract stream's first event (contract.created). Contracts never change controller, so callers
// may cache the answer for good. Shared by the service (authorization of deliveries) and the
// Kafka relay (the field contractOrganizationId of every contract's message).
// Thread safety: as safe as the store's reads.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "eventstore/event_record.h"
#include "eventstore/event_store.h"

namespace esign::eventstore {

// The controller named by a contract stream's first event; nothing when its data names none.
std::optional<std::string> ControllerInFirstEvent(const EventRecord& first);

// Reads the contract stream's first event. Nothing when the contract does not exist (or names no
// organization); an error only when the store cannot be read.
Result<std::optional<std::string>> ReadContractController(const EventStore& store,
                                                          std::string_view contract_id);

}  // namespace esign::eventstore
