// Building row keys. Keys are '/'-separated paths ("g/<org>/<contractId>"); a component that comes
// from outside (an organization id chosen by an integrator) is escaped so it can never contain the
// separator: a prefix scan of one organization's rows then cannot reach another organization's.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace esign::projections {

// '/', '%' and control bytes become "%XX" (upper-case hex); every other byte stays, so
// identifiers of the service ("ctr_01J...", "org_1") are unchanged and keep their order.
std::string EscapeKeyPart(std::string_view part);
void AppendKeyPart(std::string& key, std::string_view part);
// The inverse of EscapeKeyPart; a '%' not followed by two hex digits stays as it is.
std::string UnescapeKeyPart(std::string_view part);

// 16 lower-case hex digits: fixed width, so numeric order is key order.
std::string HexU64(uint64_t value);
std::optional<uint64_t> ParseHexU64(std::string_view text);

// The smallest key greater than every key that starts with `prefix`; empty when there is none
// (the prefix is all 0xff bytes).
std::string PrefixSuccessor(std::string_view prefix);

// ASCII letters lower-cased; other bytes (UTF-8 sequences included) unchanged.
std::string AsciiLower(std::string_view text);

}  // namespace esign::projections
