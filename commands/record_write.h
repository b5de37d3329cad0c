// What every command handler is told after an append, so that the writer's next read waits for
// the read side to show its write (projections/read_your_writes.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace esign::commands {

// Told that `client_id` appended events below `log_size`, on a contract or endpoint of
// `organization_id`; `client_id` is empty when a signer or the service itself wrote. Null when no
// read side follows.
using RecordWrite = std::function<void(std::string_view client_id, std::string_view organization_id,
                                       uint64_t log_size)>;

}  // namespace esign::commands
