// ContractTextIndex: the trigram rows of the contracts' search text, gt/<org>/<trigram>/<id>
// (contract_index.h), for every organization with a grant, by which a list's `q` finds its
// candidates. It is a projection of its own, under its own name and checkpoint, so that the
// service runs it on a projector of its own beside the other views: its rows are most of what a
// contract's creation writes (about 90 of 115 keys for the example NDA), and the other views,
// which every read-your-writes wait and the write path's lag gate follow, no longer wait for
// them. A list with `q` reads these rows; when its caller wrote after the text index's position
// it waits for the text index too (read_your_writes.h), any other read does not.
//
// Thread safety: a Projection, driven by one thread (projection.h); it has no public readers.
#pragma once

#include <cstddef>
#include <string_view>

#include "eventstore/event_store.h"
#include "projections/contract_batch_states.h"
#include "projections/projection.h"

namespace esign::projections {

// "-2": its texts no longer hold the contract's id (an id is found through its grant key), so
// the rows of the earlier "contract-text" are dropped at start and this one is built anew.
inline constexpr std::string_view kContractTextIndexName = "contract-text-2";

class ContractTextIndex final : public Projection {
 public:
  // `log` must outlive the projection. `max_cached_states` as ContractViewsOptions's.
  explicit ContractTextIndex(const eventstore::EventStore& log, size_t max_cached_states = 32768)
      : states_(log, max_cached_states) {}

  std::string_view Name() const override { return kContractTextIndexName; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;
  Status Flush(ViewBatch& batch) override;
  void Committed() override { states_.Committed(); }
  Status Load(const ViewReader& rows) override;

 private:
  ContractBatchStates states_;
};

}  // namespace esign::projections
