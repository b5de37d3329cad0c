#include "http/api_handler.h"

#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/url/parse.hpp>
#include <chrono>
#include <exception>

#include "base/time_text.h"
#include "domain/clock.h"
#include "http/error_response.h"
#include "http/log_redaction.h"
#include "http/request_id.h"

namespace esign::http {
namespace beast_http = boost::beast::http;

struct ApiHandler::Exchange {
  Request http;
  ApiRequest api;
  Respond respond;
  const RouteSpec* route = nullptr;
  std::string route_pattern = "unmatched";
  int64_t retry_after_seconds = 0;  // set when rate limited
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  Exchange(Request request, Respond r)
      : http(std::move(request)), api{http}, respond(std::move(r)) {}
};

namespace {

bool IsJsonContentType(std::string_view value) {
  const auto semicolon = value.find(';');
  std::string_view type = value.substr(0, semicolon);
  while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
  std::string lower(type);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "application/json";
}

std::string_view BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size()) return {};
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return {};
  }
  std::string_view token = authorization.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  return token;
}

// The method as a metric label and in the access log: every known method by its name, the
// rest as one value, so no client can add series.
std::string_view MethodLabel(const Request& request) {
  return request.method() == beast_http::verb::unknown ? "OTHER" : request.method_string();
}

}  // namespace

std::function<void(std::string_view)> StderrAccessLog() {
  return [](std::string_view line) {
    std::string out(line);
    out.push_back('\n');
    // One write(2) per line keeps lines whole when threads log at once.
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, out.data(), out.size());
  };
}

ApiHandler::ApiHandler(const ApiRoutes& routes, const Authenticator* authenticator,
                       ApiHandlerOptions options)
    : routes_(routes),
      authenticator_(authenticator),
      options_(std::move(options)),
      rate_limiter_(options_.rate_limit),
      workers_(static_cast<size_t>(std::max(1, options_.worker_threads))) {}

ApiHandler::~ApiHandler() { Drain(); }

void ApiHandler::Drain() {
  draining_ = true;
  workers_.join();
}

void ApiHandler::Handle(Request request, const RequestContext& context, Respond respond) {
  auto exchange = std::make_shared<Exchange>(std::move(request), std::move(respond));
  ApiRequest& api = exchange->api;
  api.remote_ip = context.remote_ip;
  if (auto given = api.Header("X-Request-Id"); !given.empty() && given.size() <= 128) {
    api.request_id = std::string(given);
  } else {
    api.request_id = NewRequestId();
  }
  // A method Beast does not know is answered before anything about it is kept: its name could
  // be any string up to the header limit.
  if (exchange->http.method() == beast_http::verb::unknown) {
    return Finish(*exchange, Fail(ErrorCode::kNotImplemented, "unknown request method"));
  }
  if (HandleOperational(*exchange)) return;

  auto target = boost::urls::parse_origin_form(exchange->http.target());
  if (!target) {
    return Finish(*exchange, Fail(ErrorCode::kValidationFailed, "malformed request target"));
  }
  for (const auto& param : target->params()) api.query.emplace_back(param.key, param.value);

  auto match = routes_.router().Find(exchange->http.method(), target->encoded_path());
  if (!match.target) {
    if (match.miss == Router<RouteSpec>::Miss::kWrongMethod) {
      return Finish(*exchange, Fail(ErrorCode::kMethodNotAllowed,
                                    "method not allowed on " + std::string(target->path())));
    }
    return Finish(*exchange,
                  Fail(ErrorCode::kNotFound, "no route for " + std::string(target->path())));
  }
  exchange->route = match.target;
  api.params = std::move(match.params);

  if (!exchange->http.body().empty() && !IsJsonContentType(api.Header("Content-Type"))) {
    return Finish(*exchange,
                  Fail(ErrorCode::kUnsupportedMediaType, "request bodies must be application/json",
                       "Content-Type", std::string(api.Header("Content-Type"))));
  }
  if (exchange->route->auth == Auth::kBearer) {
    const std::string_view token = BearerToken(api.Header("Authorization"));
    if (token.empty() || !authenticator_) {
      return Finish(*exchange,
                    Fail(ErrorCode::kUnauthenticated, "a bearer access token is required",
                         "Authorization", "missing or not of the form 'Bearer <token>'"));
    }
    auto principal = authenticator_->Authenticate(token);
    if (!principal) return Finish(*exchange, std::unexpected(principal.error()));
    api.principal = std::move(*principal);
    if (auto wait = rate_limiter_.Admit(api.principal->client_id, exchange->started)) {
      exchange->retry_after_seconds = (wait->count() + 999) / 1000;
      return Finish(*exchange, Fail(ErrorCode::kRateLimited,
                                    "too many requests from this client; retry later"));
    }
  }
  Dispatch(std::move(exchange));
}

void ApiHandler::Dispatch(std::shared_ptr<Exchange> exchange) {
  if (draining_) {
    return Finish(*exchange, Fail(ErrorCode::kUnavailable, "the service is stopping"));
  }
  if (exchange->route->execution == Execution::kInline &&
      (!exchange->route->inline_when || exchange->route->inline_when(exchange->api))) {
    ApiResult result;
    try {
      result = exchange->route->handler(exchange->api);
    } catch (const std::exception& e) {
      result = Fail(ErrorCode::kInternal, e.what());
    }
    return Finish(*exchange, std::move(result));
  }
  boost::asio::post(workers_, [this, exchange = std::move(exchange)] {
    ApiResult result;
    try {
      result = exchange->route->handler(exchange->api);
    } catch (const std::exception& e) {
      result = Fail(ErrorCode::kInternal, e.what());
    }
    Finish(*exchange, std::move(result));
  });
}

bool ApiHandler::HandleOperational(Exchange& exchange) {
  const std::string_view target = exchange.http.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (exchange.http.method() != beast_http::verb::get) return false;
  if (path == "/healthz") {
    exchange.route_pattern = "/healthz";
    Finish(exchange, ApiResponse::Json(200, {{"status", "ok"}}));
    return true;
  }
  if (path == "/readyz") {
    exchange.route_pattern = "/readyz";
    if (!ready_) {
      Finish(exchange, ApiResponse::Json(503, {{"status", "starting"}}));
    } else if (options_.storage_writable && !options_.storage_writable()) {
      Finish(exchange, ApiResponse::Json(503, {{"status", "storage_unavailable"}}));
    } else {
      Finish(exchange, ApiResponse::Json(200, {{"status", "ready"}}));
    }
    return true;
  }
  if (path == "/metrics") {
    exchange.route_pattern = "/metrics";
    Finish(exchange,
           ApiResponse{200, metrics_.Render(), "text/plain; version=0.0.4; charset=utf-8", {}});
    return true;
  }
  return false;
}

void ApiHandler::Finish(Exchange& exchange, ApiResult result) {
  const Request& request = exchange.http;
  Response response;
  if (result) {
    response.result(result->status);
    response.version(request.version());
    response.set(beast_http::field::content_type, result->content_type);
    for (auto& [name, value] : result->headers) response.set(name, value);
    response.body() = std::move(result->body);
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
  } else {
    response = ErrorResponse(result.error(), exchange.api.request_id, request.version(),
                             request.keep_alive());
    if (result.error().code == ErrorCode::kUnauthenticated ||
        result.error().code == ErrorCode::kInvalidClient) {
      response.set(beast_http::field::www_authenticate, "Bearer");
    }
    if (result.error().code == ErrorCode::kRateLimited) {
      response.set(beast_http::field::retry_after,
                   std::to_string(std::max<int64_t>(1, exchange.retry_after_seconds)));
    }
  }
  response.set("X-Request-Id", exchange.api.request_id);

  const auto latency = std::chrono::steady_clock::now() - exchange.started;
  const unsigned status = response.result_int();
  if (exchange.route_pattern == "unmatched" && exchange.route) {
    exchange.route_pattern = exchange.route->operation_id;
  }
  metrics_.RecordRequest(MethodLabel(request), exchange.route_pattern, status, latency);
  if (options_.access_log) {
    boost::json::object line{
        {"time", FormatTimestamp(SystemClock::Instance().NowMicros())},
        {"requestId", exchange.api.request_id},
        {"method", MethodLabel(request)},
        {"path", RedactedPath(request.target().substr(0, request.target().find('?')))},
        {"route", exchange.route_pattern},
        {"status", status},
        {"durationMs", std::chrono::duration<double, std::milli>(latency).count()},
        {"remoteIp", exchange.api.remote_ip},
        {"clientId", exchange.api.principal ? exchange.api.principal->client_id : ""},
        {"bytes", response.body().size()},
    };
    options_.access_log(boost::json::serialize(line));
  }
  exchange.respond(std::move(response));
}

}  // namespace esign::http
