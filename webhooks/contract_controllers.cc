#include "webhooks/contract_controllers.h"

#include <algorithm>

#include "eventstore/contract_controller.h"
#include "eventstore/domain_events.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {

ContractControllers::ContractControllers(const eventstore::EventStore& store, size_t capacity)
    : store_(store), capacity_(std::max<size_t>(capacity, 1)) {}

Result<std::optional<std::string>> ContractControllers::Of(const eventstore::EventRecord& record) {
  const std::optional<std::string> contract_id = ContractIdOf(record);
  if (!contract_id) return std::optional<std::string>();
  if (auto it = controllers_.find(*contract_id); it != controllers_.end()) {
    return std::optional<std::string>(it->second);
  }
  std::optional<std::string> controller;
  if (record.version == StreamVersion(1) &&
      record.stream_id == eventstore::ContractStreamId(*contract_id)) {
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

void ContractControllers::Remember(const std::string& contract_id,
                                   const std::string& organization_id) {
  if (controllers_.size() >= capacity_) {
    controllers_.erase(insertion_order_.front());
    insertion_order_.pop_front();
  }
  controllers_.emplace(contract_id, organization_id);
  insertion_order_.push_back(contract_id);
}

}  // namespace esign::webhooks
