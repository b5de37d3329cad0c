// Parsing JSON text for the domain. Boost.JSON 1.81 turns every non-integer number into a double;
// ParseJson refuses a number the double cannot carry exactly ("0.10000000000000000001"), so a
// decimal that arrives as a JSON number is never silently altered. Callers that accept request
// bodies or template files should parse with it. Pure; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string_view>

#include "domain/result.h"

namespace esign {

// kValidationFailed with detail field "body" for malformed text, nesting deeper than 64 levels,
// or an inexact number (send such values as strings).
Result<boost::json::value> ParseJson(std::string_view text);

}  // namespace esign
