#include "commands/signing_times.h"

#include <algorithm>

#include "base/json_read.h"
#include "base/time_text.h"
#include "domain/json_util.h"

namespace esign::commands {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kSecondsPerDay = int64_t{24} * 3600;
constexpr int64_t kDefaultExpiresInDays = 30;

}  // namespace

int64_t SigningDeadlineMicros(const ContractState& state) {
  if (!state.sent_at) return 0;
  const auto sent = ParseTimestampMicros(*state.sent_at);
  if (!sent) return 0;
  int64_t days = kDefaultExpiresInDays;
  if (const auto* value = state.signing_settings.if_contains("expiresInDays")) {
    days = AsInteger(*value).value_or(kDefaultExpiresInDays);
  }
  return *sent + days * kSecondsPerDay * kMicrosPerSecond;
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
                "the contract's signing period ended at " + FormatTimestamp(deadline),
                "signingSettings.expiresInDays", "signing period over");
  }
  int64_t expiry = now_micros + ttl_seconds * kMicrosPerSecond;
  if (deadline != 0) expiry = std::min(expiry, deadline);
  return FormatTimestamp(expiry);
}

}  // namespace esign::commands
