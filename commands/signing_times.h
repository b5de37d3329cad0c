// When signing sessions expire. A contract is signable until its expiresAt (fixed when it is
// sent: signingSettings.expiresAt, else expiresInDays, default 30, after sending); no session
// outlives that deadline.
#pragma once

#include <cstdint>
#include <string>

#include "domain/contract_state.h"
#include "domain/result.h"

namespace esign::commands {

inline constexpr int64_t kDefaultSessionTtlSeconds = int64_t{24} * 3600;
inline constexpr int64_t kMinSessionTtlSeconds = 5;
inline constexpr int64_t kMaxSessionTtlSeconds = int64_t{30} * 24 * 3600;

// The end of the contract's signing period, in microseconds since the epoch; 0 when the contract
// has not been sent.
int64_t SigningDeadlineMicros(const ContractState& state);

// The expiry of a session created or refreshed at `now_micros` with `ttl_seconds` (0: the
// default), capped at the signing deadline, in the service's RFC 3339 format.
// kValidationFailed ("ttlSeconds") outside 5..2592000; kContractStateConflict once the signing
// period has ended.
Result<std::string> SessionExpiry(const ContractState& state, int64_t now_micros,
                                  int64_t ttl_seconds);

}  // namespace esign::commands
