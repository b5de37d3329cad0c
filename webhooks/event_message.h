// The Kafka message of an event of the log: which events are published, their key and their
// JSON value (schema "contract-events" v1, docs/events.md). Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "eventstore/event_record.h"

namespace esign::webhooks {

// The value's schema version; raised only for changes a consumer must know about.
inline constexpr int kEventMessageSchemaVersion = 1;

// False for the internal streams that hold secrets or bookkeeping: machine clients ("client-*",
// their secret hashes), idempotency reservations ("idempotency-*") and webhook endpoints
// ("webhook-*", integrator configuration). Every other stream is published.
bool IsPublishedStream(std::string_view stream_id);

// The contract an event belongs to: the id of a "contract-*" stream, else the string member
// "contractId" of its data; nothing for events of no contract (templates).
std::optional<std::string> ContractIdOf(const eventstore::EventRecord& record);

struct EventMessage {
  std::string key;    // the contract id, else the stream id
  std::string value;  // JSON, see docs/events.md
};

EventMessage MakeEventMessage(const eventstore::EventRecord& record);

}  // namespace esign::webhooks
