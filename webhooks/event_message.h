// The Kafka message of an event of the log: its key and its JSON value (schema "contract-events"
// v1, docs/events.md), and the way back from a value to the event record. Which streams are
// published to which topic is domain/stream_kinds.h's table. Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "eventstore/event_record.h"

namespace esign::webhooks {

// The value's schema version; raised only for changes a consumer must know about.
inline constexpr int kEventMessageSchemaVersion = 1;

// The contract an event belongs to: the id of a "contract-*" stream, else the string member
// "contractId" of its data; nothing for events of no contract (templates).
std::optional<std::string> ContractIdOf(const eventstore::EventRecord& record);

struct EventMessage {
  std::string key;    // the contract id, else the stream id
  std::string value;  // JSON, see docs/events.md
};

// `contract_organization_id`: the organization that controls the event's contract
// (eventstore/contract_controller.h), written as "contractOrganizationId"; null when nothing.
// The data goes into the message as the log holds it, unparsed (the relay's hot path), except for
// the types that leave members out; data that is not one JSON object in valid UTF-8 is sent as
// an empty object.
EventMessage MakeEventMessage(const eventstore::EventRecord& record,
                              const std::optional<std::string>& contract_organization_id);

// The record a message value was made from, but for what the topic leaves out (the actor's
// request id, address and user agent); its data is the message's, serialized anew (equal as JSON).
// kValidationFailed for a value that is not such a message.
Result<eventstore::EventRecord> ParseEventMessage(std::string_view value);

}  // namespace esign::webhooks
