#include "domain/contract_events.h"

namespace esign {

boost::json::object DomainEventToJson(const DomainEvent& event) {
  return {{"type", event.type}, {"data", event.data}};
}

DomainEvent DomainEventFromJson(const boost::json::object& object) {
  DomainEvent event;
  const auto* type = object.if_contains("type");
  const auto* data = object.if_contains("data");
  if (type != nullptr && type->is_string()) event.type = std::string(type->get_string());
  if (data != nullptr && data->is_object()) event.data = data->get_object();
  return event;
}

}  // namespace esign
