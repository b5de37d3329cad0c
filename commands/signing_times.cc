#include "commands/signing_times.h"

#include <algorithm>

#include "base/time_text.h"

namespace esign::commands {

int64_t SigningDeadlineMicros(const ContractState& state) {
  if (!state.sent_at || !state.expires_at) return 0;
  return ParseTimestampMicros(*state.expires_at).value_or(0);
}

Result<std::string> SessionExpiry(const ContractState& state, int64_t now_micros,
                                  int64_t ttl_seconds) {
  if (ttl_seconds == 0) ttl_seconds = kDefaultSessionTtlSeconds;
  if (ttl_seconds < kMinSessionTtlSeconds || ttl_seconds > kMaxSessionTtlSeconds) {
    return Fail(ErrorCode::kValidationFailed, "invalid signing session", "ttlSeconds",
                "must be an integer from 5 to 2592000 (30 days)");
  }
  const int64_t deadline = SigningDeadlineMicros(state);
  if (deadline != 0 && deadline <= now_micros) {
    return Fail(ErrorCode::kContractStateConflict,
                "the contract's signing period ended at " + FormatTimestamp(deadline), "expiresAt",
                "signing period over");
  }
  int64_t expiry = now_micros + ttl_seconds * kMicrosPerSecond;
  if (deadline != 0) expiry = std::min(expiry, deadline);
  return FormatTimestamp(expiry);
}

}  // namespace esign::commands
