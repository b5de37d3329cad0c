#include "http/api.h"

#include <cctype>

#include "domain/json_parse.h"
#include "http/error_response.h"

namespace esign::http {

Result<boost::json::object> ParseJsonObjectBody(const ApiRequest& request) {
  const std::string& body = request.http.body();
  if (body.empty()) {
    return Fail(ErrorCode::kValidationFailed, "a JSON object body is required", "body", "empty");
  }
  auto value = ParseJson(body);
  if (!value) return std::unexpected(value.error());
  if (!value->is_object()) {
    return Fail(ErrorCode::kValidationFailed, "the body must be a JSON object", "body",
                "not an object");
  }
  return std::move(value->as_object());
}

ApiResponse RetryLaterResponse(const Error& error, std::string_view request_id,
                               int64_t retry_after_seconds) {
  return ApiResponse{static_cast<unsigned>(StatusOf(error.code)),
                     ErrorBody(error, request_id),
                     "application/json",
                     {{"Retry-After", std::to_string(retry_after_seconds)}}};
}

std::string MediaTypeOf(std::string_view content_type) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  std::string lower(type);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

Status RequirePermission(const ApiRequest& request, std::string_view permission) {
  if (request.principal && request.principal->Has(permission)) return {};
  return Fail(ErrorCode::kPermissionDenied,
              "this operation requires the permission " + std::string(permission), "permission",
              std::string(permission));
}

}  // namespace esign::http
