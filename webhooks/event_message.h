// The Kafka message of an event of the log: which events are published to which topic, their key
// and their JSON value (schema "contract-events" v1, docs/events.md), and the way back from a value
// to the event record. Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "eventstore/event_record.h"

namespace esign::webhooks {

// The value's schema version; raised only for changes a consumer must know about.
inline constexpr int kEventMessageSchemaVersion = 1;

// Where the events of a stream go. Never published: the internal streams that hold secrets or
// bookkeeping, machine clients ("client-*", their secret hashes) and idempotency reservations
// ("idempotency-*"). Webhook endpoints ("webhook-*", integrator configuration without secrets)
// go to the endpoints topic, for webhook dispatchers outside contractd. Every other stream goes
// to contract-events.
enum class PublishedTopic { kNone, kContractEvents, kEndpoints };
PublishedTopic TopicOfStream(std::string_view stream_id);

// The contract an event belongs to: the id of a "contract-*" stream, else the string member
// "contractId" of its data; nothing for events of no contract (templates).
std::optional<std::string> ContractIdOf(const eventstore::EventRecord& record);

struct EventMessage {
  std::string key;    // the contract id, else the stream id
  std::string value;  // JSON, see docs/events.md
};

// `contract_organization_id`: the organization that controls the event's contract
// (eventstore/contract_controller.h), written as "contractOrganizationId"; null when nothing.
EventMessage MakeEventMessage(const eventstore::EventRecord& record,
                              const std::optional<std::string>& contract_organization_id);

// The record a message value was made from, but for what the topic leaves out (the actor's
// request id, address and user agent); its data is the message's, serialized anew (equal as JSON).
// kValidationFailed for a value that is not such a message.
Result<eventstore::EventRecord> ParseEventMessage(std::string_view value);

}  // namespace esign::webhooks
