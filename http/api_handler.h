// The service's request handler. For every request: assigns or echoes X-Request-Id, routes it
// (404 / 405 with Allow; OPTIONS answers 204 with Allow; HEAD is GET without the body), checks
// the body's content type (415) and the bearer token (401 with WWW-Authenticate), applies the
// client's rate limit (RateLimit-* headers, 429) or, on routes reached with a link, the link's and
// the address's (429 with Retry-After), runs the route on the worker pool or inline on
// the I/O thread (RouteSpec::execution), turns an error into the one error body, writes a JSON
// access-log line and records metrics. An async route (RouteSpec::async_handler) answers from
// whichever thread finishes its work, e.g. the event store's syncer, so no thread waits for it.
// Thread safety: Handle may be called concurrently from every I/O thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>

#include <boost/asio/thread_pool.hpp>

#include "http/api.h"
#include "http/metrics.h"
#include "http/rate_limiter.h"
#include "http/request_handler.h"

namespace esign::http {

struct ApiHandlerOptions {
  // Threads that run route handlers (which may block on a synced append, a render, a wait for
  // the views). Default: 64.
  int worker_threads = 64;
  // Receives one JSON access-log line per request; empty = no access log. Default: none.
  std::function<void(std::string_view line)> access_log;
  // Per-client limits on authenticated requests. Default: none.
  RateLimitOptions rate_limit;
  // Limits on requests of routes reached with a link (RouteSpec::link_param): per link, and per
  // address (rate_limiter.h's AddressKey) over every such route. Default: none.
  RateLimitOptions link_rate_limit;
  RateLimitOptions address_rate_limit;
  // Whether storage takes writes now (false while the disk is full); /readyz answers 503
  // {"status":"storage_unavailable"} while it says false. Called per /readyz. Default: none.
  std::function<bool()> storage_writable;
  // When set, every answer carries `Log-Position: N`, the events of the log its views had applied
  // when it was answered: a standby of the replicated log, whose reads trail the writer's. Called
  // per answer. Default: none.
  std::function<uint64_t()> log_position;
};

class ApiHandler final : public RequestHandler {
 public:
  // `routes` and `authenticator` must outlive the handler; `authenticator` may be null only if
  // no route requires a bearer token.
  ApiHandler(const ApiRoutes& routes, const Authenticator* authenticator,
             ApiHandlerOptions options);
  ~ApiHandler() override;

  void Handle(Request request, const RequestContext& context, Respond respond) override;

  // /readyz answers 200 only once the service has finished starting (and while storage takes
  // writes, see ApiHandlerOptions::storage_writable).
  void SetReady(bool ready) { ready_ = ready; }
  Metrics& metrics() { return metrics_; }
  // Waits for running route handlers to finish; later requests answer 503.
  void Drain();

 private:
  struct Exchange;
  void Dispatch(std::shared_ptr<Exchange> exchange);
  static ApiResult RunRoute(const Exchange& exchange);
  // Runs the route's async_handler; the exchange lives until its answer.
  void RunAsync(const std::shared_ptr<Exchange>& exchange);
  void Finish(Exchange& exchange, ApiResult result);
  bool HandleOperational(Exchange& exchange, boost::beast::http::verb method);

  const ApiRoutes& routes_;
  const Authenticator* authenticator_;
  ApiHandlerOptions options_;
  Metrics metrics_;
  RateLimiter rate_limiter_;
  RateLimiter link_limiter_;
  RateLimiter address_limiter_;
  boost::asio::thread_pool workers_;
  std::atomic<bool> ready_{false};
  std::atomic<bool> draining_{false};
  // Requests of async routes not yet answered, which Drain waits for.
  std::mutex async_mutex_;
  std::condition_variable async_idle_;
  int async_in_flight_ = 0;  // guarded by async_mutex_
};

// A JSON access-log line writer to stderr, one write per line.
std::function<void(std::string_view)> StderrAccessLog();

}  // namespace esign::http
