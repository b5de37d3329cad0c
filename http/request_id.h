// Request identifiers for X-Request-Id: the caller's, echoed when it sends one of at most
// kMaxRequestIdLength bytes, else a new one.
#pragma once

#include <string>
#include <string_view>

#include "domain/id_generator.h"

namespace esign::http {

inline constexpr size_t kMaxRequestIdLength = 128;

inline std::string NewRequestId() { return RandomIdGenerator::Instance().Next("req_"); }

// `given` is the request's X-Request-Id header, empty when it has none.
inline std::string RequestIdFor(std::string_view given) {
  if (!given.empty() && given.size() <= kMaxRequestIdLength) return std::string(given);
  return NewRequestId();
}

}  // namespace esign::http
