#include "app/memory_budget.h"

namespace esign::app {

MemoryShares SplitMemoryBudget(size_t budget_bytes) {
  MemoryShares shares;
  shares.storage_bytes = budget_bytes / 2;
  shares.write_buffer_bytes = budget_bytes / 4;
  shares.ledger_node_bytes = budget_bytes / 32;
  shares.stream_versions = budget_bytes / 32 / kStreamVersionBytes;
  shares.contract_states = budget_bytes / 16 / kContractStateBytes;
  shares.relay_controllers = budget_bytes / 64 / kRelayControllerBytes;
  shares.relay_in_flight_bytes = budget_bytes / 32;
  return shares;
}

}  // namespace esign::app
