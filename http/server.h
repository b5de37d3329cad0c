// The HTTP/1.1 server: Beast's request parser on Asio sockets, a thread per core, each running an
// io_context of its own; a connection lives on the thread it was accepted for, so it needs no
// strand. Keep-alive and pipelining (responses leave in request order; at most `pipeline_limit`
// requests of a connection are in flight, reading pauses beyond), a body limit per request (413),
// read, idle and write timeouts (one deadline per connection, which its thread checks every
// 250 ms), and a graceful stop that lets in-flight requests finish. What a request means is the
// RequestHandler's business.
//
// Thread safety: Start and Stop from one controlling thread; the handler is called on I/O threads
// and must not block them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "domain/result.h"
#include "http/request_handler.h"

namespace esign::http {

// Requests whose bodies may be larger than ServerOptions::body_limit: POSTs to given paths (the
// document uploads, the signers' attachments). At most `concurrent` are read at once, all
// connections and paths together; one more is answered 503 UNAVAILABLE with Retry-After before
// its body is read, so memory stays bounded.
struct LargeBodyOptions {
  // The request path (no query); a segment "*" matches any one non-empty segment.
  std::string path;
  uint64_t limit = 0;                                 // bytes of its body
  ErrorCode too_large = ErrorCode::kPayloadTooLarge;  // the answer above `limit`
  size_t concurrent = 4;
  std::chrono::seconds read_timeout{120};  // to receive one such request once it has begun
};

struct ServerOptions {
  std::string host = "127.0.0.1";           // address to listen on
  uint16_t port = 8080;                     // 0 picks a free port (see HttpServer::port)
  int threads = 0;                          // I/O threads; 0 = one per core
  uint64_t body_limit = 1 << 20;            // bytes of a request body; more answers 413
  uint32_t header_limit = 16 << 10;         // bytes of a request's header block
  std::chrono::seconds read_timeout{15};    // to receive one request once it has begun
  std::chrono::seconds idle_timeout{60};    // keep-alive connection with nothing to read
  std::chrono::seconds write_timeout{30};   // to send one response
  std::chrono::seconds shutdown_grace{10};  // in-flight work allowed to finish on Stop
  size_t pipeline_limit = 16;               // requests in flight per connection
  std::vector<LargeBodyOptions> large_bodies;
};

class HttpServer {
 public:
  virtual ~HttpServer() = default;
  // Binds, listens and starts the I/O threads. kInternal when the address cannot be bound.
  static Result<std::unique_ptr<HttpServer>> Start(const ServerOptions& options,
                                                   RequestHandler& handler);
  // The bound port (useful with port 0).
  virtual uint16_t port() const = 0;
  // Stops accepting, lets in-flight requests finish (up to shutdown_grace), joins the threads.
  virtual void Stop() = 0;
};

}  // namespace esign::http
