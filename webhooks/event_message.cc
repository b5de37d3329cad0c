#include "webhooks/event_message.h"

#include <array>
#include <boost/json.hpp>

namespace esign::webhooks {

bool IsPublishedStream(std::string_view stream_id) {
  static constexpr std::array<std::string_view, 3> kInternal = {"client-", "idempotency-",
                                                                "webhook-"};
  for (std::string_view prefix : kInternal) {
    if (stream_id.starts_with(prefix)) return false;
  }
  return true;
}

std::optional<std::string> ContractIdOf(const eventstore::EventRecord& record) {
  constexpr std::string_view kContractPrefix = "contract-";
  if (record.stream_id.starts_with(kContractPrefix)) {
    return record.stream_id.substr(kContractPrefix.size());
  }
  boost::system::error_code ec;
  const boost::json::value data = boost::json::parse(record.data, ec);
  if (ec || !data.is_object()) return std::nullopt;
  const auto* id = data.as_object().if_contains("contractId");
  if (id == nullptr || !id->is_string()) return std::nullopt;
  return std::string(id->as_string());
}

EventMessage MakeEventMessage(const eventstore::EventRecord& record) {
  boost::system::error_code ec;
  boost::json::value data = boost::json::parse(record.data, ec);
  if (ec) data = boost::json::object();
  const std::optional<std::string> contract_id = ContractIdOf(record);
  boost::json::object value;
  value["schemaVersion"] = kEventMessageSchemaVersion;
  value["eventId"] = record.event_id;
  value["type"] = record.type;
  value["position"] = record.position.value();
  value["streamId"] = record.stream_id;
  value["streamVersion"] = record.version.value();
  value["contractId"] = contract_id ? boost::json::value(*contract_id) : boost::json::value();
  value["time"] = eventstore::FormatTimestamp(record.recorded_at_us);
  // Who acted, without the IP address and user agent: those stay in the ledger and audit trail.
  value["actor"] = boost::json::object{{"clientId", record.actor.client_id},
                                       {"organizationId", record.actor.organization_id}};
  value["dataSchemaVersion"] = record.schema_version;
  value["data"] = std::move(data);
  return EventMessage{contract_id ? *contract_id : record.stream_id, boost::json::serialize(value)};
}

}  // namespace esign::webhooks
