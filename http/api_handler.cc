#include "http/api_handler.h"

#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/url/parse.hpp>
#include <chrono>
#include <exception>
#include <optional>

#include "base/thread_name.h"
#include "base/time_text.h"
#include "domain/clock.h"
#include "http/access_log_line.h"
#include "http/error_response.h"
#include "http/log_redaction.h"
#include "http/plain_target.h"
#include "http/request_id.h"

namespace esign::http {
namespace beast_http = boost::beast::http;

struct ApiHandler::Exchange {
  Request http;
  ApiRequest api;
  Respond respond;
  const RouteSpec* route = nullptr;
  // The metrics and access-log label: literals, the request's own path, or the route's name,
  // each outliving the exchange's answer.
  std::string_view route_pattern = "unmatched";
  Admission admission;         // the caller's rate limit, on authenticated routes
  bool token_refused = false;  // a bearer token was presented and refused
  bool head = false;           // HEAD: answered as GET, without the body
  std::vector<std::pair<std::string, std::string>> headers;  // added to any answer
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  Exchange(Request request, Respond r)
      : http(std::move(request)), api{http}, respond(std::move(r)) {}
};

namespace {

bool Accepts(BodyTypes types, std::string_view content_type) {
  const std::string type = MediaTypeOf(content_type);
  if (types == BodyTypes::kPdfOrMultipart) {
    return type == "application/pdf" || type == "multipart/form-data";
  }
  if (types == BodyTypes::kAttachment) {
    return type == "application/pdf" || type == "image/png" || type == "image/jpeg";
  }
  if (types == BodyTypes::kImage) return type == "image/png" || type == "image/jpeg";
  if (types == BodyTypes::kJsonOrCsv && type == "text/csv") return true;
  if (type == "application/json") return true;
  return types == BodyTypes::kJsonOrForm && type == "application/x-www-form-urlencoded";
}

// The paths answered before routing (HandleOperational), GET only.
bool IsOperationalPath(std::string_view path) {
  return path == "/healthz" || path == "/readyz" || path == "/metrics";
}

// The Allow header of a path served by `methods`, in one fixed order: HEAD wherever GET is,
// OPTIONS everywhere.
std::string AllowHeader(const std::vector<beast_http::verb>& methods) {
  using V = beast_http::verb;
  auto served = [&](V method) {
    if (method == V::options) return true;
    if (method == V::head) method = V::get;
    return std::find(methods.begin(), methods.end(), method) != methods.end();
  };
  std::string allow;
  for (V method : {V::get, V::head, V::post, V::put, V::patch, V::delete_, V::options}) {
    if (!served(method)) continue;
    if (!allow.empty()) allow += ", ";
    allow += beast_http::to_string(method);
  }
  return allow;
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

// Boost.Asio's thread pool starts its threads itself: each names itself at its first task.
void NameWorkerThread() {
  thread_local const bool named = [] {
    NameThisThread("esign-worker");
    return true;
  }();
  static_cast<void>(named);
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
      link_limiter_(options_.link_rate_limit),
      address_limiter_(options_.address_rate_limit),
      workers_(static_cast<size_t>(std::max(1, options_.worker_threads))) {}

ApiHandler::~ApiHandler() { Drain(); }

void ApiHandler::Drain() {
  draining_ = true;
  workers_.join();
  // Requests waiting for their append are answered by the store, which is still open here.
  std::unique_lock lock(async_mutex_);
  async_idle_.wait(lock, [this] { return async_in_flight_ == 0; });
}

void ApiHandler::Handle(Request request, const RequestContext& context, Respond respond) {
  auto exchange = std::make_shared<Exchange>(std::move(request), std::move(respond));
  ApiRequest& api = exchange->api;
  api.remote_ip = context.remote_ip;
  api.request_id = RequestIdFor(api.Header("X-Request-Id"));
  // A method Beast does not know is answered before anything about it is kept: its name could
  // be any string up to the header limit.
  if (exchange->http.method() == beast_http::verb::unknown) {
    return Finish(*exchange, Fail(ErrorCode::kNotImplemented, "unknown request method"));
  }
  // HEAD is GET without the body (RFC 9110 section 9.3.2): routed, authenticated and answered
  // as GET; Finish drops the body and keeps its Content-Length.
  exchange->head = exchange->http.method() == beast_http::verb::head;
  const beast_http::verb method = exchange->head ? beast_http::verb::get : exchange->http.method();
  if (HandleOperational(*exchange, method)) return;

  // A plain path is its own encoded and decoded path (plain_target.h); anything else is parsed.
  const std::string_view raw_target = exchange->http.target();
  std::optional<boost::urls::url_view> target;
  std::string_view encoded_path = raw_target;
  if (!IsPlainPathTarget(raw_target)) {
    auto parsed = boost::urls::parse_origin_form(raw_target);
    if (!parsed) {
      return Finish(*exchange, Fail(ErrorCode::kValidationFailed, "malformed request target"));
    }
    target = *parsed;
    for (const auto& param : target->params()) api.query.emplace_back(param.key, param.value);
    encoded_path = target->encoded_path();
  }
  const auto decoded_path = [&] {
    return target ? std::string(target->path()) : std::string(raw_target);
  };

  // OPTIONS needs no credentials: it tells only what the public OpenAPI document does.
  if (method == beast_http::verb::options) {
    const auto methods = routes_.router().MethodsOf(encoded_path);
    if (methods.empty()) {
      return Finish(*exchange, Fail(ErrorCode::kNotFound, "no route for " + decoded_path()));
    }
    exchange->route_pattern = "options";
    return Finish(*exchange, ApiResponse{204, "", "", {{"Allow", AllowHeader(methods)}}});
  }
  auto match = routes_.router().Find(method, encoded_path);
  if (!match.target) {
    if (match.miss == Router<RouteSpec>::Miss::kWrongMethod) {
      exchange->headers.emplace_back("Allow",
                                     AllowHeader(routes_.router().MethodsOf(encoded_path)));
      return Finish(*exchange,
                    Fail(ErrorCode::kMethodNotAllowed, "method not allowed on " + decoded_path()));
    }
    return Finish(*exchange, Fail(ErrorCode::kNotFound, "no route for " + decoded_path()));
  }
  exchange->route = match.target;
  api.params = std::move(match.params);

  if (!exchange->http.body().empty() &&
      !Accepts(exchange->route->body_types, api.Header("Content-Type"))) {
    const BodyTypes types = exchange->route->body_types;
    return Finish(
        *exchange,
        Fail(ErrorCode::kUnsupportedMediaType,
             types == BodyTypes::kPdfOrMultipart ? "request bodies must be application/pdf or "
                                                   "multipart/form-data"
             : types == BodyTypes::kJsonOrForm   ? "request bodies must be application/json or "
                                                   "application/x-www-form-urlencoded"
             : types == BodyTypes::kAttachment
                 ? "an attached file is application/pdf, image/png or image/jpeg"
             : types == BodyTypes::kImage ? "an image is image/png or image/jpeg"
             : types == BodyTypes::kJsonOrCsv
                 ? "request bodies must be application/json or text/csv"
                 : "request bodies must be application/json",
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
    if (!principal) {
      exchange->token_refused = true;
      return Finish(*exchange, std::unexpected(principal.error()));
    }
    api.principal = std::move(*principal);
    exchange->admission = rate_limiter_.Admit(api.principal->client_id, exchange->started);
  } else if (exchange->route->limit_by_address) {
    // A prefix no client id has, so an address never shares a client's bucket.
    exchange->admission = rate_limiter_.Admit("address " + api.remote_ip, exchange->started);
  }
  if (!exchange->admission.admitted) {
    return Finish(*exchange,
                  Fail(ErrorCode::kRateLimited, "too many requests from this client; retry later"));
  }
  if (!exchange->route->link_param.empty()) {
    const std::string_view link = api.params.Get(exchange->route->link_param);
    exchange->admission = link_limiter_.Admit(link, exchange->started);
    if (exchange->admission.admitted) {
      exchange->admission = address_limiter_.Admit(AddressKey(api.remote_ip), exchange->started);
    }
    if (!exchange->admission.admitted) {
      // Retry-After only: the RateLimit-* headers would describe one of two buckets.
      exchange->admission.limited = false;
      return Finish(*exchange, Fail(ErrorCode::kRateLimited,
                                    "too many requests for this link or from this address; "
                                    "retry later"));
    }
    exchange->admission.limited = false;
  }
  Dispatch(std::move(exchange));
}

void ApiHandler::Dispatch(std::shared_ptr<Exchange> exchange) {
  if (draining_) {
    return Finish(*exchange, Fail(ErrorCode::kUnavailable, "the service is stopping"));
  }
  const RouteSpec& route = *exchange->route;
  const bool run_inline = route.execution == Execution::kInline &&
                          (!route.inline_when || route.inline_when(exchange->api));
  if (route.async_handler) {
    if (run_inline) return RunAsync(exchange);
    boost::asio::post(workers_, [this, exchange = std::move(exchange)] {
      NameWorkerThread();
      RunAsync(exchange);
    });
    return;
  }
  if (run_inline) return Finish(*exchange, RunRoute(*exchange));
  boost::asio::post(workers_, [this, exchange = std::move(exchange)] {
    NameWorkerThread();
    Finish(*exchange, RunRoute(*exchange));
  });
}

ApiResult ApiHandler::RunRoute(const Exchange& exchange) {
  try {
    return exchange.route->handler(exchange.api);
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kInternal, e.what());
  }
}

void ApiHandler::RunAsync(const std::shared_ptr<Exchange>& exchange) {
  {
    std::lock_guard lock(async_mutex_);
    ++async_in_flight_;
  }
  // Answered once: by the handler's `done`, or here when the handler throws before calling it.
  auto answered = std::make_shared<std::atomic<bool>>(false);
  auto done = [this, exchange, answered](ApiResult result) {
    if (answered->exchange(true)) return;
    Finish(*exchange, std::move(result));
    std::lock_guard lock(async_mutex_);
    if (--async_in_flight_ == 0) async_idle_.notify_all();
  };
  try {
    exchange->route->async_handler(exchange->api, done);
  } catch (const std::exception& e) {
    done(Fail(ErrorCode::kInternal, e.what()));
  }
}

bool ApiHandler::HandleOperational(Exchange& exchange, beast_http::verb method) {
  const std::string_view target = exchange.http.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (!IsOperationalPath(path)) return false;
  if (method != beast_http::verb::get) {
    exchange.route_pattern = path;
    const std::string allow = AllowHeader({beast_http::verb::get});
    if (method == beast_http::verb::options) {
      Finish(exchange, ApiResponse{204, "", "", {{"Allow", allow}}});
    } else {
      exchange.headers.emplace_back("Allow", allow);
      Finish(exchange,
             Fail(ErrorCode::kMethodNotAllowed, "method not allowed on " + std::string(path)));
    }
    return true;
  }
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
    if (!result->content_type.empty()) {
      response.set(beast_http::field::content_type, result->content_type);
    }
    for (auto& [name, value] : result->headers) response.set(name, value);
    response.body() = std::move(result->body);
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
  } else {
    // ErrorResponse sets each 401's challenge; a refused bearer token gets RFC 6750's detail,
    // the body's message (why the token was refused, as far as the authenticator tells).
    response = ErrorResponse(result.error(), exchange.api.request_id, request.version(),
                             request.keep_alive());
    if (result.error().code == ErrorCode::kUnauthenticated && exchange.token_refused) {
      response.set(beast_http::field::www_authenticate,
                   InvalidTokenChallenge(result.error().message));
    }
    if (result.error().code == ErrorCode::kRateLimited) {
      const int64_t seconds = (exchange.admission.retry_after.count() + 999) / 1000;
      response.set(beast_http::field::retry_after, std::to_string(std::max<int64_t>(1, seconds)));
    }
  }
  for (const auto& [name, value] : exchange.headers) response.set(name, value);
  if (options_.log_position) response.set("Log-Position", std::to_string(options_.log_position()));
  if (exchange.admission.limited) {
    response.set("RateLimit-Limit", std::to_string(exchange.admission.limit));
    response.set("RateLimit-Remaining", std::to_string(exchange.admission.remaining));
    response.set("RateLimit-Reset", std::to_string(exchange.admission.reset_seconds));
  }
  response.set("X-Request-Id", exchange.api.request_id);
  if (exchange.head) {
    // The GET answer's headers, its Content-Length included, without its body.
    const auto length = response.body().size();
    response.body().clear();
    response.content_length(length);
  }

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
    options_.access_log(AccessLogLine(line));
  }
  exchange.respond(std::move(response));
}

}  // namespace esign::http
