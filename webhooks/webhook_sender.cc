#include "webhooks/webhook_sender.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/url/parse.hpp>
#include <charconv>
#include <list>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "webhooks/endpoint.h"
#include "webhooks/request_wire.h"

namespace esign::webhooks {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::use_awaitable;
using tcp = asio::ip::tcp;

struct Target {
  bool tls = false;
  std::string host;
  std::string port;
  std::string path;  // with the query
};

std::optional<Target> ParseTarget(std::string_view url) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed) return std::nullopt;
  Target target;
  target.tls = parsed->scheme() == "https";
  target.host = parsed->host_type() == boost::urls::host_type::ipv6
                    ? parsed->host_ipv6_address().to_string()
                    : std::string(parsed->host());
  // A URL saved before hosts were checked for them: such a name is no DNS name.
  if (std::ranges::any_of(target.host, [](unsigned char c) { return c <= 0x20 || c == 0x7F; })) {
    return std::nullopt;
  }
  target.port = parsed->has_port() ? std::string(parsed->port()) : (target.tls ? "443" : "80");
  target.path = std::string(parsed->encoded_path());
  if (target.path.empty()) target.path = "/";
  if (parsed->has_query()) target.path += "?" + std::string(parsed->encoded_query());
  return target;
}

// Where a URL's requests go, and the key of its idle connections: by scheme too, as a TLS
// connection is verified for the host name it was opened with.
struct Destination {
  Target target;
  std::string key;
};

std::optional<Destination> ParseDestination(std::string_view url) {
  std::optional<Target> target = ParseTarget(url);
  if (!target) return std::nullopt;
  std::string key = (target->tls ? "https://" : "http://") + target->host + ":" + target->port;
  return Destination{std::move(*target), std::move(key)};
}

// An open connection, plain or TLS (then handshaken and verified).
struct Connection {
  std::unique_ptr<beast::tcp_stream> plain;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
  bool open() const { return plain != nullptr || tls != nullptr; }
};

class BeastSender final : public WebhookSender {
 public:
  explicit BeastSender(const BeastSenderOptions& options)
      : options_(options), tls_(asio::ssl::context::tls_client) {
    tls_.set_default_verify_paths();
    if (!options.extra_ca_file.empty()) tls_.load_verify_file(options.extra_ca_file);
    tls_.set_verify_mode(asio::ssl::verify_peer);
  }

  SendOutcome Send(const SendRequest& request) override {
    SendOutcome outcome;
    const auto started = std::chrono::steady_clock::now();
    ThreadState& state = StateOfThisThread();
    const Destination* destination = state.DestinationOf(request.url);
    if (destination == nullptr) {
      outcome.error = "the endpoint URL cannot be parsed";
      return outcome;
    }
    const Target& target = destination->target;
    const std::string& key = destination->key;
    // A kept-alive connection may have been closed by the server meanwhile: then once more on a
    // new one (a request the server did process is sent twice, with the same webhook-id).
    for (int round = 0; round < 2; ++round) {
      Connection kept = state.TakeIdle(key);
      const bool reused = kept.open();
      outcome = SendOutcome();
      Connection keep;
      state.ioc.restart();
      asio::co_spawn(state.ioc, Exchange(target, request, outcome, std::move(kept), keep),
                     [&outcome](const std::exception_ptr& error) {
                       if (!error) return;
                       try {
                         std::rethrow_exception(error);
                       } catch (const boost::system::system_error& e) {
                         if (outcome.error.empty()) outcome.error = e.code().message();
                       } catch (const std::exception& e) {
                         if (outcome.error.empty()) outcome.error = e.what();
                       }
                     });
      state.ioc.run();
      if (keep.open()) state.KeepIdle(key, std::move(keep), options_.idle_connections_per_thread);
      if (!(reused && outcome.status_code == 0)) break;
    }
    outcome.latency = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    return outcome;
  }

 private:
  // Every address must be allowed: a name resolving to a private address is refused. The
  // error does not name the address, which would let a client map internal DNS.
  bool Allowed(const tcp::resolver::results_type& results, std::string& error) const {
    for (const auto& entry : results) {
      const std::string address = entry.endpoint().address().to_string();
      if (options_.allow_loopback && IsLoopbackAddress(address)) continue;
      if (IsNonPublicAddress(address)) {
        error = "the endpoint resolves to a non-public address";
        return false;
      }
    }
    return true;
  }

  // Sends the request and reads the answer; true when the connection can carry another request.
  template <class Stream>
  asio::awaitable<bool> Talk(Stream& stream, beast::tcp_stream& tcp_layer, const Target& target,
                             const SendRequest& request, SendOutcome& outcome) {
    const std::optional<std::string> bytes =
        WebhookRequestBytes(target.path, target.host, request.headers, request.body);
    if (!bytes) {
      outcome.error = "the request cannot be written";
      co_return false;
    }
    tcp_layer.expires_after(options_.response_timeout);
    co_await asio::async_write(stream, asio::buffer(*bytes), use_awaitable);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(options_.body_limit);
    co_await http::async_read_header(stream, buffer, parser, use_awaitable);
    outcome.status_code = static_cast<int>(parser.get().result_int());
    if (auto it = parser.get().find(http::field::retry_after); it != parser.get().end()) {
      int64_t seconds = 0;
      const std::string_view value = it->value();
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
      if (ec == std::errc() && end == value.data() + value.size() && seconds >= 0) {
        outcome.retry_after = std::chrono::seconds(seconds);
      }
    }
    // The body up to the limit; a longer one is cut off, the status stands.
    beast::error_code read_error;
    co_await http::async_read(stream, buffer, parser,
                              asio::redirect_error(use_awaitable, read_error));
    co_return !read_error && parser.is_done() && parser.get().keep_alive() && buffer.size() == 0;
  }

  // Over `kept` when given, else over a new connection (checked against the address policy,
  // and for https verified and handshaken); `keep` receives the connection when it may carry the
  // next request.
  asio::awaitable<void> Exchange(const Target& target, const SendRequest& request,
                                 SendOutcome& outcome, Connection kept, Connection& keep) {
    if (!kept.open()) {
      auto opened = co_await Open(target, outcome);
      if (!opened) co_return;
      kept = std::move(*opened);
    }
    const bool reusable =
        kept.tls
            ? co_await Talk(*kept.tls, beast::get_lowest_layer(*kept.tls), target, request, outcome)
            : co_await Talk(*kept.plain, *kept.plain, target, request, outcome);
    if (reusable) keep = std::move(kept);
  }

  // A new connection to the target; nothing (with outcome.error) when its addresses are refused.
  asio::awaitable<std::optional<Connection>> Open(const Target& target, SendOutcome& outcome) {
    auto executor = co_await asio::this_coro::executor;
    // Resolved on the calling thread, which waits for this exchange anyway: asio's asynchronous
    // resolver would start a thread of its own per event loop.
    tcp::resolver resolver(executor);
    const auto results = resolver.resolve(target.host, target.port);
    if (!Allowed(results, outcome.error)) co_return std::nullopt;
    Connection connection;
    if (!target.tls) {
      connection.plain = std::make_unique<beast::tcp_stream>(executor);
      connection.plain->expires_after(options_.connect_timeout);
      co_await connection.plain->async_connect(results, use_awaitable);
      co_return connection;
    }
    connection.tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(executor, tls_);
    auto& stream = *connection.tls;
    if (!SSL_set_tlsext_host_name(stream.native_handle(), target.host.c_str())) {
      outcome.error = "cannot set the TLS server name";
      co_return std::nullopt;
    }
    stream.set_verify_callback(asio::ssl::host_name_verification(target.host));
    beast::get_lowest_layer(stream).expires_after(options_.connect_timeout);
    co_await beast::get_lowest_layer(stream).async_connect(results, use_awaitable);
    beast::get_lowest_layer(stream).expires_after(options_.response_timeout);
    co_await stream.async_handshake(asio::ssl::stream_base::client, use_awaitable);
    co_return connection;
  }

  // Each calling thread (a dispatcher sender) has its own event loop, idle connections and
  // parsed URLs.
  struct ThreadState {
    // URLs parsed at most, then all forgotten at once (a lane's deliveries follow each other, so
    // a thread sees a few URLs again and again).
    static constexpr size_t kMostDestinations = 256;

    asio::io_context ioc;
    // By scheme, host and port; the most recently used first.
    std::list<std::pair<std::string, Connection>> idle;
    // By URL; nothing for a URL that cannot be parsed.
    std::unordered_map<std::string, std::optional<Destination>> destinations;

    const Destination* DestinationOf(const std::string& url) {
      auto it = destinations.find(url);
      if (it == destinations.end()) {
        if (destinations.size() >= kMostDestinations) destinations.clear();
        it = destinations.emplace(url, ParseDestination(url)).first;
      }
      return it->second ? &*it->second : nullptr;
    }

    // The idle connection to `key`, or none.
    Connection TakeIdle(const std::string& key) {
      auto it = std::ranges::find(idle, key, &std::pair<std::string, Connection>::first);
      if (it == idle.end()) return {};
      Connection connection = std::move(it->second);
      idle.erase(it);
      return connection;
    }
    void KeepIdle(const std::string& key, Connection connection, size_t most) {
      idle.emplace_front(key, std::move(connection));
      while (idle.size() > most) idle.pop_back();  // closes the least recently used
    }
  };
  ThreadState& StateOfThisThread() {
    // The state this thread last used, remembered with its sender's number: a sender made later
    // at the same address has another number.
    thread_local uint64_t last_sender = 0;
    thread_local ThreadState* last_state = nullptr;
    if (last_sender == number_) return *last_state;
    std::lock_guard lock(threads_mutex_);
    auto& state = threads_[std::this_thread::get_id()];
    if (!state) state = std::make_unique<ThreadState>();
    last_sender = number_;
    last_state = state.get();
    return *state;
  }

  static uint64_t NextNumber() {
    static std::atomic<uint64_t> numbers{0};
    return ++numbers;
  }

  const uint64_t number_ = NextNumber();
  const BeastSenderOptions options_;
  asio::ssl::context tls_;
  std::mutex threads_mutex_;
  std::map<std::thread::id, std::unique_ptr<ThreadState>> threads_;  // guarded by threads_mutex_
};

}  // namespace

std::unique_ptr<WebhookSender> MakeBeastSender(const BeastSenderOptions& options) {
  return std::make_unique<BeastSender>(options);
}

}  // namespace esign::webhooks
