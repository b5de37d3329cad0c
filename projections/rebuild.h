// Rebuilding views from the log, and comparing two view stores. Used by the tests (a rebuilt view
// equals the live one) and by `contract-ledger replay`.
// Thread safety: the functions run on the caller's thread; the projections passed in must not be
// in use by a Projector at the same time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eventstore/event_store.h"
#include "projections/projection.h"
#include "projections/view_store.h"

namespace esign::projections {

// Applies the log, from each projection's checkpoint in `target` (0 for a fresh store) up to the
// log's size at the time of the call, to fresh projection objects, committing in batches of
// `batch_size` events. Returns the position reached.
Result<uint64_t> Rebuild(const eventstore::EventStore& log,
                         const std::vector<Projection*>& projections, ViewStore& target,
                         size_t batch_size = 1024);

// The first key, in key order, whose row differs between `a` and `b` (present in one only, or
// with different values); std::nullopt when every row is equal. Rows only, not checkpoints.
Result<std::optional<std::string>> FirstDifference(const RowReader& a, const RowReader& b);

}  // namespace esign::projections
