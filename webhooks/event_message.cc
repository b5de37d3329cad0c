#include "webhooks/event_message.h"

#include <boost/json.hpp>

#include "base/time_text.h"
#include "domain/stream_kinds.h"
#include "eventstore/stored_record.h"

namespace esign::webhooks {

std::optional<std::string> ContractIdOf(const eventstore::EventRecord& record) {
  if (const auto contract_id = IdInStream(StreamKind::kContract, record.stream_id)) {
    return std::string(*contract_id);
  }
  return eventstore::StringInData(record, "contractId");
}

namespace {

// The members a type keeps off the topic. What a signer filled in is evidence for the ledger, the
// audit trail and the bundle, not for consumers of the topic: signer.completed keeps
// `filledFields`, the ids, without the values. A file's name can say what it holds: the topic
// keeps its hash, type and size.
std::string_view WithheldMember(std::string_view type) {
  if (type == "signer.completed") return "fieldValues";
  if (type == "signer.attachment_uploaded") return "name";
  return {};
}

// The event's data as the message carries it (JSON text).
std::string MessageData(const eventstore::EventRecord& record) {
  if (!eventstore::IsStrictJsonObject(record.data)) return "{}";
  const std::string_view withheld = WithheldMember(record.type);
  if (withheld.empty()) return record.data;
  boost::json::value data = boost::json::parse(record.data);  // checked just above
  data.as_object().erase(withheld);
  return boost::json::serialize(data);
}

}  // namespace

EventMessage MakeEventMessage(const eventstore::EventRecord& record,
                              const std::optional<std::string>& contract_organization_id) {
  const std::optional<std::string> contract_id = ContractIdOf(record);
  boost::json::object value;
  value.reserve(11);
  value["schemaVersion"] = kEventMessageSchemaVersion;
  value["eventId"] = record.event_id;
  value["type"] = record.type;
  value["position"] = record.position.value();
  value["streamId"] = record.stream_id;
  value["streamVersion"] = record.version.value();
  value["contractId"] = contract_id ? boost::json::value(*contract_id) : boost::json::value();
  value["contractOrganizationId"] = contract_organization_id
                                        ? boost::json::value(*contract_organization_id)
                                        : boost::json::value();
  value["time"] = FormatTimestamp(record.recorded_at_us);
  // Who acted, without the IP address and user agent: those stay in the ledger and audit trail.
  value["actor"] = boost::json::object{{"clientId", record.actor.client_id},
                                       {"organizationId", record.actor.organization_id}};
  value["dataSchemaVersion"] = record.schema_version;
  // The data last, as text: the envelope's closing brace gives way to it.
  std::string text = boost::json::serialize(value);
  text.pop_back();
  text += ",\"data\":";
  text += MessageData(record);
  text += '}';
  return EventMessage{contract_id ? *contract_id : record.stream_id, std::move(text)};
}

Result<eventstore::EventRecord> ParseEventMessage(std::string_view value) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(value, ec);
  if (ec || !parsed.is_object()) {
    return Fail(ErrorCode::kValidationFailed, "event message is not a JSON object");
  }
  try {
    const auto& o = parsed.as_object();
    eventstore::EventRecord record;
    record.position = GlobalPosition(o.at("position").to_number<uint64_t>());
    record.stream_id = o.at("streamId").as_string();
    record.version = StreamVersion(o.at("streamVersion").to_number<uint64_t>());
    record.event_id = o.at("eventId").as_string();
    record.type = o.at("type").as_string();
    record.schema_version = o.at("dataSchemaVersion").to_number<int>();
    const auto time = ParseTimestampMicros(o.at("time").as_string());
    if (!time) return Fail(ErrorCode::kValidationFailed, "event message: time");
    record.recorded_at_us = *time;
    const auto& actor = o.at("actor").as_object();
    record.actor.client_id = actor.at("clientId").as_string();
    record.actor.organization_id = actor.at("organizationId").as_string();
    if (!o.at("data").is_object()) return Fail(ErrorCode::kValidationFailed, "event message: data");
    record.data = boost::json::serialize(o.at("data"));
    return record;
  } catch (const std::exception& ex) {
    return Fail(ErrorCode::kValidationFailed, std::string("event message: ") + ex.what());
  }
}

}  // namespace esign::webhooks
