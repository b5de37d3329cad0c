#include "http/api_handler.h"

#include <boost/json.hpp>

#include "http/error_response.h"
#include "http/request_id.h"

namespace esign::http {
namespace {

namespace beast_http = boost::beast::http;

Response JsonResponse(beast_http::status status, const boost::json::value& body,
                      const Request& request) {
  Response response{status, request.version()};
  response.set(beast_http::field::content_type, "application/json");
  response.keep_alive(request.keep_alive());
  response.body() = boost::json::serialize(body);
  response.prepare_payload();
  return response;
}

}  // namespace

void ApiHandler::Handle(Request request, const RequestContext& /*context*/, Respond respond) {
  std::string request_id;
  if (auto it = request.find("X-Request-Id");
      it != request.end() && !it->value().empty() && it->value().size() <= 128) {
    request_id = std::string(it->value());
  } else {
    request_id = NewRequestId();
  }
  const std::string_view target = request.target();
  const std::string_view path = target.substr(0, target.find('?'));

  Response response;
  if (path == "/healthz" && request.method() == beast_http::verb::get) {
    response = JsonResponse(beast_http::status::ok, {{"status", "ok"}}, request);
  } else if (path == "/readyz" && request.method() == beast_http::verb::get) {
    response = ready_ ? JsonResponse(beast_http::status::ok, {{"status", "ready"}}, request)
                      : JsonResponse(beast_http::status::service_unavailable,
                                     {{"status", "starting"}}, request);
  } else {
    response = ErrorResponse(Error::Of(ErrorCode::kNotFound, "no route for " + std::string(path)),
                             request_id, request.version(), request.keep_alive());
  }
  response.set("X-Request-Id", request_id);
  respond(std::move(response));
}

}  // namespace esign::http
