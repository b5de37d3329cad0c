// The vocabulary of API route handlers. A handler is a plain function from an ApiRequest to a
// Result<ApiResponse>: it may block (it runs on the worker pool, never on an I/O thread), returns
// errors as values, and never sees sockets. ApiHandler (api_handler.h) does everything around it:
// request id, routing, content type and body checks, authentication, the error body, access log
// and metrics.
#pragma once

#include <boost/json.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/result.h"
#include "http/request_handler.h"
#include "http/router.h"

namespace esign::http {

// Who is calling: a machine client acting for exactly one organization.
struct Principal {
  std::string client_id;
  std::string organization_id;
  std::vector<std::string> permissions;
  std::string token_id;    // the access token's id (jti)
  int64_t issued_at = 0;   // seconds since the epoch
  int64_t expires_at = 0;  // seconds since the epoch

  bool Has(std::string_view permission) const {
    for (const auto& p : permissions) {
      if (p == permission) return true;
    }
    return false;
  }
};

struct ApiRequest {
  const Request& http;
  PathParams params;
  std::string request_id;
  std::string remote_ip;
  std::optional<Principal> principal;                      // set on routes with Auth::kBearer
  std::vector<std::pair<std::string, std::string>> query;  // percent-decoded, in order

  std::string_view Header(std::string_view name) const {
    auto it = http.find(name);
    return it == http.end() ? std::string_view() : std::string_view(it->value());
  }
  std::optional<std::string_view> Query(std::string_view name) const {
    for (const auto& [k, v] : query) {
      if (k == name) return std::string_view(v);
    }
    return std::nullopt;
  }
  std::string_view UserAgent() const { return Header("User-Agent"); }
  const Principal& Caller() const { return *principal; }  // only on authenticated routes
};

struct ApiResponse {
  unsigned status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;

  static ApiResponse Json(unsigned status, const boost::json::value& value) {
    return ApiResponse{status, boost::json::serialize(value), "application/json", {}};
  }
  ApiResponse& WithHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
};

using ApiResult = Result<ApiResponse>;
using RouteFunction = std::function<ApiResult(const ApiRequest&)>;
// A handler that answers through `done`, exactly once, from any thread: one whose wait is an
// append completed on the event store's thread (eventstore AppendAsync), which then holds no
// worker while the append is synced.
using AsyncRouteFunction =
    std::function<void(const ApiRequest&, std::function<void(ApiResult)> done)>;

enum class Auth {
  kNone,    // open (machine-token, health) or authenticated by other means (hosted signing)
  kBearer,  // a valid access token is required: 401 otherwise
};

// Where a route's handler runs.
enum class Execution {
  kWorker,  // on the worker pool: anything that may wait (a synced append, rendering)
  kInline,  // on the I/O thread: short reads of committed rows or memory, which never wait
};

// The media types a route's request body may have; others answer 415.
enum class BodyTypes {
  kJson,            // application/json
  kJsonOrForm,      // also application/x-www-form-urlencoded (the OAuth 2.0 token request)
  kPdfOrMultipart,  // application/pdf or multipart/form-data, never JSON (document uploads)
  kAttachment,      // application/pdf, image/png or image/jpeg (a signer's attached file)
  kImage,           // image/png or image/jpeg (an organization's logo)
  kJsonOrCsv,       // also text/csv (a bulk send's rows)
};

struct RouteSpec {
  std::string operation_id;  // as in the OpenAPI document, e.g. "getContractStatus"
  Auth auth = Auth::kBearer;
  RouteFunction handler;
  Execution execution = Execution::kWorker;
  // For kInline: when set and false for a request, that request goes to the worker pool instead
  // (for example a read that first has to wait for the caller's own write to become visible).
  std::function<bool(const ApiRequest&)> inline_when;
  BodyTypes body_types = BodyTypes::kJson;
  // When set, runs instead of `handler` (where `execution` says) and answers through `done`.
  AsyncRouteFunction async_handler;
  // For a route reached with a bearer link in its path instead of a token (the hosted signing
  // routes): the path parameter that holds the link. Requests are then limited per link and per
  // address (ApiHandlerOptions::link_rate_limit, address_rate_limit). Empty: no such limit.
  std::string link_param;
  // Auth::kNone routes: count each request against the bucket of the caller's address (the same
  // limiter and limits as an authenticated client's), so that an open route cannot be called
  // without bound.
  bool limit_by_address = false;
};

// Collects the routes of every API family at start; read-only afterwards.
class ApiRoutes {
 public:
  void Add(boost::beast::http::verb method, std::string pattern, RouteSpec spec) {
    router_.Add(method, std::move(pattern), std::move(spec));
  }
  const Router<RouteSpec>& router() const { return router_; }

 private:
  Router<RouteSpec> router_;
};

// Turns a bearer token into a Principal; kUnauthenticated for a missing, malformed, expired,
// revoked or forged token, its message the error_description of the 401's challenge.
// Implemented by the authentication family.
class Authenticator {
 public:
  virtual ~Authenticator() = default;
  virtual Result<Principal> Authenticate(std::string_view token) const = 0;
};

// Parses a request body as a JSON object (UTF-8 validated; exact numbers, see domain ParseJson).
// kValidationFailed with detail field "body" otherwise.
Result<boost::json::object> ParseJsonObjectBody(const ApiRequest& request);

// The error body of `error` (a 429 or 503) with Retry-After: `retry_after_seconds`, for a route
// that knows when a retry may succeed.
ApiResponse RetryLaterResponse(const Error& error, std::string_view request_id,
                               int64_t retry_after_seconds);

// The media type of a Content-Type value, lower-cased, without parameters or surrounding blanks.
std::string MediaTypeOf(std::string_view content_type);

// 403 PERMISSION_DENIED unless the caller holds `permission`.
Status RequirePermission(const ApiRequest& request, std::string_view permission);

}  // namespace esign::http
