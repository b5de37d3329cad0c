// Reading a whole stream that is folded in memory (a bulk send job): every event from the first
// up to a version, in pages, with its data parsed.
// Thread safety: as the EventStore's.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <string_view>

#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

// Calls `visit` for each event of `stream_id` with versions 1 to `until`, in order; `data` is an
// empty object when the event's data is not a JSON object.
using StreamVisitor =
    std::function<void(const eventstore::EventRecord& record, const boost::json::object& data)>;
Status VisitStream(const eventstore::EventStore& store, std::string_view stream_id, uint64_t until,
                   const StreamVisitor& visit);

}  // namespace esign::commands
