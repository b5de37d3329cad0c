// The text of one access-log line (ApiHandlerOptions::access_log): the request's members as JSON,
// with "durationMs" written as a plain decimal of three places (27.961) rather than in Boost.JSON's
// exponent form (2.7961E1), which log tools and people read less easily.
// Thread safety: a pure function.
#pragma once

#include <string>

#include <boost/json.hpp>

namespace esign::http {

// `line` serialized; its "durationMs", when a double, as "%.3f".
std::string AccessLogLine(const boost::json::object& line);

}  // namespace esign::http
