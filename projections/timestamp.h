// Timestamps of the views as microseconds since the Unix epoch (UTC), so that times written with
// different offsets or precisions compare correctly. Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace esign::projections {

// RFC 3339 "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)" (fraction: up to 9 digits, kept to
// the microsecond), or a calendar date "YYYY-MM-DD" meaning its midnight UTC. Years 0001-9999.
std::optional<int64_t> ParseTimestampMicros(std::string_view text);

}  // namespace esign::projections
