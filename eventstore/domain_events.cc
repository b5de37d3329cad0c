#include "eventstore/domain_events.h"

#include <boost/json.hpp>

namespace esign::eventstore {

Result<DomainEvent> ToDomainEvent(const EventRecord& record) {
  boost::system::error_code ec;
  auto value = boost::json::parse(record.data, ec);
  if (ec || !value.is_object()) {
    return Fail(ErrorCode::kCorruption, "event at position " +
                                            std::to_string(record.position.value()) +
                                            " does not hold a JSON object");
  }
  return DomainEvent{record.type, std::move(value.as_object())};
}

Result<std::vector<DomainEvent>> ToDomainEvents(const std::vector<EventRecord>& records) {
  std::vector<DomainEvent> events;
  events.reserve(records.size());
  for (const auto& record : records) {
    auto event = ToDomainEvent(record);
    if (!event) return std::unexpected(event.error());
    events.push_back(std::move(*event));
  }
  return events;
}

NewEvent ToNewEvent(const DomainEvent& event, std::string event_id, const Actor& actor) {
  NewEvent out;
  out.event_id = std::move(event_id);
  out.type = event.type;
  out.data = boost::json::serialize(event.data);
  out.actor = actor;
  return out;
}

}  // namespace esign::eventstore
