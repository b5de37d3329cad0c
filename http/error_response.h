// The one error body of the API and the one table from error code to HTTP status.
//   {"error":{"code":"...","message":"...","details":[{"field":"...","issue":"..."}],
//    "requestId":"..."}}
#pragma once

#include <string_view>

#include <boost/beast/http/status.hpp>

#include "domain/error.h"
#include "http/request_handler.h"

namespace esign::http {

boost::beast::http::status StatusOf(ErrorCode code);

std::string ErrorBody(const Error& error, std::string_view request_id);

// A complete response for `error`: status from the table, JSON body, content type.
Response ErrorResponse(const Error& error, std::string_view request_id, unsigned http_version,
                       bool keep_alive);

}  // namespace esign::http
