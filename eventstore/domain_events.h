// Conversions between the domain's events (type + JSON object) and the store's records, shared
// by the command handlers (writing) and the projections (reading).
#pragma once

#include <string>
#include <vector>

#include "domain/contract_events.h"
#include "domain/result.h"
#include "eventstore/event_record.h"

namespace esign::eventstore {

// kCorruption when the record's data is not a JSON object.
Result<DomainEvent> ToDomainEvent(const EventRecord& record);
Result<std::vector<DomainEvent>> ToDomainEvents(const std::vector<EventRecord>& records);

NewEvent ToNewEvent(const DomainEvent& event, std::string event_id, const Actor& actor);

}  // namespace esign::eventstore
