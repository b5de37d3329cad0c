// OwningOrganizations: the organization that owns (controls) the contract of an event of the log,
// for the relay's messages (contractOrganizationId), read from the store
// (eventstore/contract_controller.h) and kept in a bounded map: a contract never changes owner, so
// an entry never goes stale; past `capacity` the oldest entry makes room.
// Thread safety: none; one thread (the relay's producer thread) uses it.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

#include "eventstore/event_store.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {

class OwningOrganizations {
 public:
  // `store` must outlive this object. `capacity` >= 1.
  OwningOrganizations(const eventstore::EventStore& store, size_t capacity);

  // The controller of the event's contract (webhooks/event_message.h ContractIdOf); nothing for
  // events of no contract, or of a contract that names none. An error when the store cannot be
  // read.
  Result<std::optional<std::string>> Of(const eventstore::EventRecord& record);

  size_t cached() const { return owners_.size(); }

 private:
  void Remember(const std::string& contract_id, const std::string& organization_id);

  const eventstore::EventStore& store_;
  const size_t capacity_;
  std::unordered_map<std::string, std::string> owners_;
  std::deque<std::string> insertion_order_;  // of owners_' keys, oldest first
};

}  // namespace esign::webhooks
