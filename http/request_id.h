// Request identifiers for X-Request-Id: the caller's, echoed when it sends one of at most
// kMaxRequestIdLength bytes, else a new one.
#pragma once

#include <string>
#include <string_view>

namespace esign::http {

inline constexpr size_t kMaxRequestIdLength = 128;

// "req_" and 26 Crockford base32 characters, shaped like every id of the service (10 of the
// millisecond time, 16 of 80 bits), but made without a system call: the 80 bits are 16 random
// bits of the process and a per-process counter passed through a keyed 64-bit permutation. So an
// id is unique within the process by construction, unlikely to meet one of another process
// (their keys differ), and consecutive ids do not read as a sequence. Request ids correlate log
// lines and answers; they are no secret and grant nothing. Thread-safe.
std::string NewRequestId();

// `given` is the request's X-Request-Id header, empty when it has none.
inline std::string RequestIdFor(std::string_view given) {
  if (!given.empty() && given.size() <= kMaxRequestIdLength) return std::string(given);
  return NewRequestId();
}

}  // namespace esign::http
