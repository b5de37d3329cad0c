// Identifiers: prefixed, time-ordered and unguessable, e.g. "ctr_01JD3V7Q2K8M4ZB6X9T0HCRW5N".
// After the prefix: 10 Crockford base32 characters of the millisecond time (so ids sort by
// creation), then 16 of 80 random bits from the kernel's CSPRNG.
// Thread safety: Next may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace esign {

class IdGenerator {
 public:
  virtual ~IdGenerator() = default;
  virtual std::string Next(std::string_view prefix) = 0;
};

class RandomIdGenerator final : public IdGenerator {
 public:
  std::string Next(std::string_view prefix) override;
  static RandomIdGenerator& Instance();
};

// An id of that shape from its 80 trailing bits, given as two 40-bit halves (higher bits ignored):
// the prefix, the current millisecond, then `high40` and `low40` in base32.
std::string TimeOrderedId(std::string_view prefix, uint64_t high40, uint64_t low40);

// `bytes` random bytes from the kernel (getrandom), for tokens and secrets.
std::string RandomBytes(size_t bytes);

}  // namespace esign
