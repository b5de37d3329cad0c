// ContractViews: the read models of contracts, from every event of the streams
// "contract-<contractId>" (types in docs/domain.md).
//
// Rows (under "contracts/"; <id> is the contract id, escaped by EscapeKeyPart):
//   c/<id>                       the contract representation (domain ContractToJson)
//   s/<id>                       the status representation (ContractStatusToJson)
//   a/<id>/<streamVersion hex16> one audit-trail entry per event: position, eventId, type,
//                                recordedAt, actor {clientId, organizationId, requestId, ip,
//                                userAgent}, streamVersion, leafHash (the event's Merkle leaf),
//                                details (participantId, reason, document hashes, signer
//                                evidence, voidedBy/voidedAt, expiresAt/expiredAt,
//                                reminderNumber/trigger/channel, when the event has them;
//                                strings over 1 KiB are replaced by "sha256:<hex>")
//   g/..., gs/...                grants and list indexes (contract_index.h) but the trigrams of
//                                the search text, which the text index writes
//                                (contract_text_index.h)
//   due/...                      the next timer of the contract (due_timer_index.h)
//
// The state of a contract comes from the domain's Apply over its stream (contract_batch_states.h,
// over the event store given to the constructor). Rows of a contract
// changed several times in one batch are written once, in Flush; index entries that no longer
// hold (the status or the participants changed) are deleted then.
//
// Thread safety: a Projection, driven by one thread (projection.h); it has no public readers.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "domain/contract_state.h"
#include "eventstore/event_store.h"
#include "projections/contract_batch_states.h"
#include "projections/contract_index.h"
#include "projections/projection.h"

namespace esign::projections {

inline constexpr std::string_view kContractViewsName = "contracts";

std::string ContractRowKey(std::string_view contract_id);
std::string StatusRowKey(std::string_view contract_id);
std::string AuditPrefix(std::string_view contract_id);
std::string AuditRowKey(std::string_view contract_id, uint64_t stream_version);

struct ContractViewsOptions {
  // Contract states kept in memory between batches; past this the cache starts over, and states
  // are replayed from the log on demand. Default: 32,768.
  size_t max_cached_states = 32768;
  // Called after a commit that added, moved or removed a due-timer row (the scheduler's wake-up).
  std::function<void()> due_timers_changed;
};

class ContractViews final : public Projection {
 public:
  // `log` must outlive the projection.
  explicit ContractViews(const eventstore::EventStore& log, ContractViewsOptions options = {});

  std::string_view Name() const override { return kContractViewsName; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;
  Status Flush(ViewBatch& batch) override;
  void Committed() override;
  Status Load(const ViewReader& rows) override;

 private:
  const ContractViewsOptions options_;
  ContractBatchStates states_;
  // Of each contract this batch changed, its due-timer row as committed before the batch.
  std::unordered_map<std::string, std::optional<std::string>> old_due_keys_;
  bool due_timers_changed_ = false;  // by the batch being committed
};

}  // namespace esign::projections
