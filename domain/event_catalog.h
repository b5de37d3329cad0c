// The published JSON Schema (2020-12) of the events: one definition per event type for its
// `data`, generated from the structs of domain/event_data.h, and the envelope of the messages on
// the Kafka topic, whose `data` is checked against its type's definition. Served at GET
// /api/v1/events/schemas and described in docs/events.md. Safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

namespace esign {

inline constexpr std::string_view kEventSchemasId = "urn:esign:schemas:events:1";

// {"$schema", "$id", "title", "description", "$defs": {"<type>": data schema, ...,
// "envelope": message schema}}.
const boost::json::object& EventSchemas();
const std::string& EventSchemasText();

// Whether `type` is an event type with a published schema.
bool HasEventSchema(std::string_view type);

}  // namespace esign
