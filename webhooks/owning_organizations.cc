#include "webhooks/owning_organizations.h"

#include <algorithm>

#include "domain/stream_kinds.h"
#include "eventstore/contract_controller.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {

OwningOrganizations::OwningOrganizations(const eventstore::EventStore& store, size_t capacity)
    : store_(store), capacity_(std::max<size_t>(capacity, 1)) {}

Result<std::optional<std::string>> OwningOrganizations::Of(const eventstore::EventRecord& record) {
  const std::optional<std::string> contract_id = ContractIdOf(record);
  if (!contract_id) return std::optional<std::string>();
  if (auto it = owners_.find(*contract_id); it != owners_.end()) {
    return std::optional<std::string>(it->second);
  }
  std::optional<std::string> controller;
  if (record.version == StreamVersion(1) && record.stream_id == ContractStreamId(*contract_id)) {
    controller = eventstore::ControllerInFirstEvent(record);  // contract.created itself
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
