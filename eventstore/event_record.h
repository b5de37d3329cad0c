// The event record: what the log stores for every event, and its canonical bytes, which are the
// leaf of the Merkle ledger. The canonical bytes are the stored bytes: a reader hashes exactly what
// it read, so one changed byte on disk changes the leaf hash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/result.h"
#include "domain/strong_types.h"

namespace esign::eventstore {

// Who caused an event. Every field may be empty (for example for events of the CLI).
struct Actor {
  std::string client_id;
  std::string organization_id;
  std::string request_id;
  std::string ip;
  std::string user_agent;
  friend bool operator==(const Actor&, const Actor&) = default;
};

// An event as a caller proposes it, before the store assigns its position and version.
struct NewEvent {
  std::string event_id;    // unique, e.g. "evt_..."; a repeated id makes the append idempotent
  std::string type;        // e.g. "contract.created"
  int schema_version = 1;  // of `data`
  std::string data;        // a JSON object, serialized
  Actor actor;
};

struct EventRecord {
  GlobalPosition position;
  std::string stream_id;
  StreamVersion version;
  std::string event_id;
  std::string type;
  int schema_version = 1;
  int64_t recorded_at_us = 0;  // microseconds since the Unix epoch, UTC
  Actor actor;
  std::string data;  // a JSON object, serialized
  friend bool operator==(const EventRecord&, const EventRecord&) = default;
};

// The canonical bytes of a record: a JSON object with a fixed key order and no white space:
// {"position":..,"streamId":..,"version":..,"eventId":..,"type":..,"schemaVersion":..,
//  "recordedAt":..,"actor":{"clientId":..,"organizationId":..,"requestId":..,"ip":..,
//  "userAgent":..},"data":<data as given>}
std::string CanonicalBytes(const EventRecord& record);

// Parses canonical bytes back into a record; kCorruption when they are not a record.
Result<EventRecord> ParseRecord(std::string_view bytes);

// The string member `key` of the record's data; nothing when the data is not a JSON object or the
// member is absent or not a string.
std::optional<std::string> StringInData(const EventRecord& record, std::string_view key);

}  // namespace esign::eventstore
