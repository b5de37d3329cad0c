// One HTTP exchange with an outside party (a timestamp authority, a service whose published key
// an auditor fetches), treated as hostile input: http and https only, no redirect followed, the
// whole exchange under a timeout and the answer under a size limit.
// Thread safety: each call is independent; safe from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "domain/result.h"

namespace esign::documents {

struct HttpFetch {
  std::string url;
  std::vector<std::string> headers;         // "Name: value"
  std::optional<std::string> post_body;     // a POST with this body; a GET when absent
  std::chrono::milliseconds timeout{5000};  // the whole exchange, connection included
  size_t max_response_bytes = size_t{64} * 1024;
  std::string what;  // names the other party in errors, e.g. "the timestamp authority"
};

// The body of a 200 answer. kUnavailable, naming `what`, when it cannot be reached, answers
// another status, or answers more than max_response_bytes.
Result<std::string> FetchHttp(const HttpFetch& fetch);

}  // namespace esign::documents
