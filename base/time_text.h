// Times as text: the one form the service writes, and the RFC 3339 forms it reads. Times are
// microseconds since the Unix epoch (UTC), so that texts with different offsets or precisions
// compare correctly. Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace esign {

// Durations in the unit of the service's times.
inline constexpr int64_t kMicrosPerSecond = 1'000'000;
inline constexpr int64_t kMicrosPerHour = int64_t{3600} * kMicrosPerSecond;
inline constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

// "2026-11-21T05:35:24.123456Z": UTC, always six fraction digits, so texts sort as times do
// (for years 0000-9999).
std::string FormatTimestamp(int64_t unix_micros);

// The inverse of FormatTimestamp for years 0000-9999, for reading stored times back: only the
// exact text it writes is accepted (no February 30, no missing fraction, no other offset).
std::optional<int64_t> ParseFormattedTimestamp(std::string_view text);

// RFC 3339 "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)" (fraction: up to 9 digits, kept to
// the microsecond; a leap second 60 counts as the next second), or a calendar date "YYYY-MM-DD"
// meaning its midnight UTC. Years 0001-9999.
std::optional<int64_t> ParseTimestampMicros(std::string_view text);

}  // namespace esign
