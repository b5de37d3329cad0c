// The entries of the replicated log (eventstore/log_entry.h), as a standby reads them from Kafka:
// the input is an entry without its MAC, which the target computes under a fixed key and appends,
// so that the decoder behind the MAC check is reached. A decoded entry must encode back to the
// same bytes, and the fence must take it; anything else must be an error value, never a crash.
// The same bytes without a MAC must always be refused as unauthenticated.
// Seeds (corpus/fuzz_log_entry): a batch of two appends, a blob chunk, a deletion, a head, a claim.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/hmac.h"
#include "eventstore/log_entry.h"
#include "eventstore/log_fence.h"

namespace {

constexpr std::string_view kKey = "fuzz-replication-key-0123456789ab";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;
  using namespace esign::eventstore;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string signed_entry(input);
  signed_entry.append(DigestBytes(HmacSha256(kKey, input)));

  const Result<LogEntry> entry = DecodeLogEntry(signed_entry, kKey);
  if (entry) {
    if (EncodeLogEntry(*entry, kKey) != signed_entry) std::abort();
    LogFence fence;
    if (fence.Admits(*entry)) fence.Apply(*entry);
  } else if (entry.error().code != ErrorCode::kValidationFailed) {
    std::abort();
  }
  // Unsigned (or signed under another key): never decoded.
  const Result<LogEntry> unsigned_entry = DecodeLogEntry(input, kKey);
  if (unsigned_entry && input.size() >= 32) {
    const std::string_view tail = input.substr(input.size() - 32);
    if (tail != DigestBytes(HmacSha256(kKey, input.substr(0, input.size() - 32)))) std::abort();
  }
  return 0;
}
