// WebhookSender: one HTTP POST of a delivery to an endpoint, behind an interface so tests can put
// faults in. The Beast implementation:
//   - resolves the host and refuses when any address it resolves to is not public (private,
//     link-local, ...), loopback excepted only with allow_loopback: a DNS name cannot smuggle a
//     request to an internal service;
//   - connect timeout, then one timeout for the TLS handshake, the request and the response;
//   - https with the system's CA store, host name verification and SNI; http only to loopback;
//   - redirects are not followed (a 3xx is a failed attempt);
//   - reads the response body up to body_limit bytes, then stops reading;
//   - connections, plain or TLS, are kept alive per calling thread, scheme, host and port (a
//     lane's deliveries follow each other, mostly on one thread), at most
//     idle_connections_per_thread per thread, the least recently used closed first, so many
//     hosts cannot use up file descriptors; one the server closed meanwhile is replaced by a new
//     one, which is checked, verified and handshaken like the first.
// Thread safety: Send may be called from several threads at once. Each calling thread gets an
// event loop and its idle connections, kept until the sender is destroyed: call it from a
// bounded set of threads (the dispatcher's senders).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace esign::webhooks {

struct SendRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct SendOutcome {
  int status_code = 0;  // 0 when no response came
  std::string error;    // why no response came, or why the response counts as a failure
  std::chrono::milliseconds latency{0};
  std::optional<std::chrono::seconds> retry_after;  // of a 429 or 503
};

class WebhookSender {
 public:
  virtual ~WebhookSender() = default;
  virtual SendOutcome Send(const SendRequest& request) = 0;
};

struct BeastSenderOptions {
  // Default: 5 s.
  std::chrono::milliseconds connect_timeout{5000};
  // TLS handshake, request and response together. Default: 10 s.
  std::chrono::milliseconds response_timeout{10000};
  // Response body bytes read at most. Default: 4096.
  size_t body_limit = 4096;
  // Loopback destinations allowed (--webhook-allow-loopback). Default: false.
  bool allow_loopback = false;
  // Idle connections kept open per calling thread. Default: 8.
  size_t idle_connections_per_thread = 8;
  // A PEM file of certificate authorities trusted besides the system's (tests with a local TLS
  // receiver). Default: none.
  std::string extra_ca_file;
};

std::unique_ptr<WebhookSender> MakeBeastSender(const BeastSenderOptions& options);

}  // namespace esign::webhooks
