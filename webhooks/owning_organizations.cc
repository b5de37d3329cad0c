#include "webhooks/owning_organizations.h"

#include <algorithm>

#include "base/json_read.h"
#include "domain/stream_kinds.h"
#include "eventstore/contract_controller.h"
#include "eventstore/domain_events.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {

OwningOrganizations::OwningOrganizations(const eventstore::EventStore& store, size_t capacity)
    : store_(store), capacity_(std::max<size_t>(capacity, 1)) {}

Result<std::optional<std::string>> OwningOrganizations::Of(const eventstore::EventRecord& record) {
  return Of(ParsedEvent(record));
}

Result<std::optional<std::string>> OwningOrganizations::Of(const ParsedEvent& event) {
  const std::optional<std::string>& contract_id = event.contract_id;
  if (!contract_id) return std::optional<std::string>();
  if (auto it = owners_.find(*contract_id); it != owners_.end()) {
    return std::optional<std::string>(it->second);
  }
  const eventstore::EventRecord& record = event.record;
  std::optional<std::string> controller;
  if (record.version == StreamVersion(1) && record.stream_id == ContractStreamId(*contract_id)) {
    // contract.created itself (eventstore::ControllerInFirstEvent), from the data parsed already.
    if (const auto* data = event.data.if_object()) {
      if (const auto id = StringMember(*data, "organizationId")) controller = std::string(*id);
    }
  } else {
    auto read = eventstore::ReadContractController(store_, *contract_id);
    if (!read) return std::unexpected(read.error());
    controller = std::move(*read);
  }
  // A contract that does not exist (yet) or names no organization is not remembered.
  if (controller) Remember(*contract_id, *controller);
  return controller;
}

void OwningOrganizations::Remember(const std::string& contract_id,
                                   const std::string& organization_id) {
  if (owners_.size() >= capacity_) {
    owners_.erase(insertion_order_.front());
    insertion_order_.pop_front();
  }
  owners_.emplace(contract_id, organization_id);
  insertion_order_.push_back(contract_id);
}

}  // namespace esign::webhooks
