#include "eventstore/contract_controller.h"

#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"

namespace esign::eventstore {

std::optional<std::string> ControllerInFirstEvent(const EventRecord& first) {
  return StringInData(first, "organizationId");
}

Result<std::optional<std::string>> ReadContractController(const EventStore& store,
                                                          std::string_view contract_id) {
  auto first = store.ReadStream(ContractStreamId(contract_id), StreamVersion(1), 1);
  if (!first) return std::unexpected(first.error());
  if (first->empty()) return std::optional<std::string>();
  return ControllerInFirstEvent(first->front());
}

}  // namespace esign::eventstore
