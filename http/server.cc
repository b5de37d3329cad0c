#include "http/server.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/http.hpp>

#include "base/thread_name.h"
#include "http/error_response.h"
#include "http/request_id.h"
#include "http/response_wire.h"

namespace esign::http {
namespace {

// The options whose path matches `path` ("*" standing for one non-empty segment), if any.
const LargeBodyOptions* LargeBodyOf(const std::vector<LargeBodyOptions>& options,
                                    std::string_view path) {
  for (const LargeBodyOptions& large : options) {
    std::string_view pattern = large.path;
    std::string_view rest = path;
    bool matches = true;
    while (matches && (!pattern.empty() || !rest.empty())) {
      const size_t p = pattern.find('/', 1);
      const size_t r = rest.find('/', 1);
      const std::string_view want = pattern.substr(0, p);
      const std::string_view have = rest.substr(0, r);
      matches = want == "/*" ? have.size() > 1 : want == have;
      pattern = p == std::string_view::npos ? "" : pattern.substr(p);
      rest = r == std::string_view::npos ? "" : rest.substr(r);
    }
    if (matches) return &large;
  }
  return nullptr;
}

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beast_http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

class Session;

// How often an I/O thread looks for connections past their deadline. A timeout fires up to this
// much late; one sweep per thread replaces a timer armed and cancelled for every read and write.
constexpr auto kDeadlineSweep = std::chrono::milliseconds(250);

// An I/O thread with an io_context of its own. A connection stays on the thread that accepted it
// for its whole life, so its handlers never run concurrently and need no strand, and each thread
// waits on its own epoll set.
struct IoThread {
  asio::io_context ioc{1};  // one thread runs it
  // Keeps the thread running until Stop is done with it: a session that waits for its handler
  // (a request in flight, no I/O pending) leaves the io_context without work, and the thread
  // would return before the shutdown and the response posted to the session could run.
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(ioc);
  asio::steady_timer sweep{ioc};
  // The thread's connections, for the sweep; touched on this thread only. A session's last
  // reference may be dropped on another thread, so the list holds weak references and forgets
  // the expired ones as it sweeps.
  std::vector<std::weak_ptr<Session>> sessions;
  std::thread thread;
};

// Live sessions, so that Stop can close idle ones and wait for busy ones.
class SessionRegistry {
 public:
  void Add(const std::shared_ptr<Session>& s) {
    std::lock_guard lock(mutex_);
    sessions_.insert(s.get());
    weak_[s.get()] = s;
  }
  void Remove(Session* s) {
    std::lock_guard lock(mutex_);
    sessions_.erase(s);
    weak_.erase(s);
    if (sessions_.empty()) empty_.notify_all();
  }
  std::vector<std::shared_ptr<Session>> Snapshot() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Session>> out;
    for (auto& [_, w] : weak_) {
      if (auto s = w.lock()) out.push_back(std::move(s));
    }
    return out;
  }
  // A slot for one large body (LargeBodyOptions::concurrent in all); false when none is free.
  bool TakeLargeBodySlot(size_t concurrent) {
    size_t now = large_bodies_.load();
    while (now < concurrent) {
      if (large_bodies_.compare_exchange_weak(now, now + 1)) return true;
    }
    return false;
  }
  void ReturnLargeBodySlot() { --large_bodies_; }
  bool WaitEmpty(std::chrono::seconds grace) {
    std::unique_lock lock(mutex_);
    return empty_.wait_for(lock, grace, [&] { return sessions_.empty(); });
  }

 private:
  std::mutex mutex_;
  std::condition_variable empty_;
  std::unordered_set<Session*> sessions_;            // guarded by mutex_
  std::map<Session*, std::weak_ptr<Session>> weak_;  // guarded by mutex_
  std::atomic<size_t> large_bodies_{0};
};

// Holds one large-body slot while the request is read and handled.
class LargeBodySlot {
 public:
  explicit LargeBodySlot(SessionRegistry* registry) : registry_(registry) {}
  LargeBodySlot(LargeBodySlot&& other) noexcept : registry_(std::exchange(other.registry_, {})) {}
  LargeBodySlot& operator=(LargeBodySlot&& other) noexcept {
    Release();
    registry_ = std::exchange(other.registry_, {});
    return *this;
  }
  ~LargeBodySlot() { Release(); }

 private:
  void Release() {
    if (registry_ != nullptr) registry_->ReturnLargeBodySlot();
    registry_ = nullptr;
  }
  SessionRegistry* registry_ = nullptr;
};

// One connection. Every member is touched only on the connection's thread.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, IoThread& thread, const ServerOptions& options,
          RequestHandler& handler, SessionRegistry& registry)
      : registration_{registry, this},
        socket_(std::move(socket)),
        thread_(thread),
        options_(options),
        handler_(handler) {
    beast::error_code ec;
    auto endpoint = socket_.remote_endpoint(ec);
    if (!ec) context_.remote_ip = endpoint.address().to_string();
  }

  void Run() {
    asio::dispatch(socket_.get_executor(), [self = shared_from_this()] {
      self->thread_.sessions.push_back(self);
      self->ReadNext();
    });
  }

  // Called by Stop: an idle connection closes now, a busy one after its last response.
  void BeginShutdown() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      self->stopping_ = true;
      if (self->in_flight_ == 0) self->Close();
    });
  }

  // Called by the thread's sweep: a read, write or drain still pending at its deadline is cut
  // off by closing the socket; its handler sees operation_aborted.
  void CheckDeadline(Clock::time_point now) {
    if (now < deadline_ || !(reading_ || writing_ || draining_) || !socket_.is_open()) return;
    beast::error_code ignored;
    socket_.close(ignored);
  }

 private:
  void ReadNext() {
    if (stopping_ || closed_ || !reading_allowed_) return;
    if (in_flight_ >= options_.pipeline_limit) {
      read_paused_ = true;  // resumed when a response leaves
      return;
    }
    read_paused_ = false;
    parser_.emplace();
    parser_->body_limit(options_.body_limit);
    parser_->header_limit(options_.header_limit);
    // Before the first byte of a request the connection is idle; once bytes arrive the whole
    // request must come within read_timeout. One deadline covers the read as a whole, so the
    // idle timeout is used when nothing is buffered yet.
    ExpiresAfter(buffer_.size() == 0 ? options_.idle_timeout : options_.read_timeout);
    reading_ = true;
    // The parser checks a Content-Length against its limit as soon as it reads the header, so
    // with large bodies possible the limit is chosen once the path is known (OnHeader).
    header_first_ = !options_.large_bodies.empty();
    if (header_first_) parser_->body_limit(boost::none);
    parser_->eager(!header_first_);
    Parse();
  }

  // Feeds what is buffered to the parser, and reads more while it needs more: what Beast's
  // async_read does, on the bare socket.
  void Parse() {
    beast::error_code ec;
    while (buffer_.size() > 0 && !ReadIsDone()) {
      const size_t used = parser_->put(buffer_.data(), ec);
      buffer_.consume(used);
      if (ec == beast_http::error::need_more) break;
      if (ec) return OnParsed(ec);
      if (used == 0) break;
    }
    if (ReadIsDone()) return OnParsed({});
    socket_.async_read_some(buffer_.prepare(beast::read_size(buffer_, 65536)),
                            [self = shared_from_this()](beast::error_code ec, size_t bytes) {
                              self->OnReadSome(ec, bytes);
                            });
  }

  void OnReadSome(beast::error_code ec, size_t bytes) {
    buffer_.commit(bytes);
    if (ec == asio::error::eof) {
      if (!parser_->got_some()) return OnParsed(beast_http::error::end_of_stream);
      ec = {};
      parser_->put_eof(ec);  // a request cut short: partial_message
      return OnParsed(ec);
    }
    if (ec) return OnParsed(ec);
    Parse();
  }

  // Whether the parser has what this read waits for: the header, or the whole request.
  bool ReadIsDone() const { return header_first_ ? parser_->is_header_done() : parser_->is_done(); }

  // The read has ended: its header is in (OnHeader), or the whole request or an error (OnRead).
  void OnParsed(beast::error_code ec) {
    if (header_first_ && !ec) {
      header_first_ = false;
      return OnHeader();
    }
    OnRead(ec);
  }

  // The header is in: a POST to the large-body path may have a larger body, if a slot is free.
  void OnHeader() {
    const auto& header = parser_->get();
    const std::string_view target = header.target();
    const LargeBodyOptions* large =
        header.method() == beast_http::verb::post && !parser_->is_done()
            ? LargeBodyOf(options_.large_bodies, target.substr(0, target.find('?')))
            : nullptr;
    if (large != nullptr) {
      if (!registration_.registry.TakeLargeBodySlot(large->concurrent)) {
        reading_ = false;
        return Refuse(Error::Of(ErrorCode::kUnavailable,
                                "too many uploads are being received; retry in a few seconds"));
      }
      large_body_slot_ = LargeBodySlot(&registration_.registry);
      large_body_ = large;
      ExpiresAfter(large->read_timeout);
    }
    const uint64_t limit = large != nullptr ? large->limit : options_.body_limit;
    parser_->body_limit(limit);
    if (const auto length = parser_->content_length(); length && *length > limit) {
      return OnRead(beast_http::error::body_limit);
    }
    parser_->eager(true);
    Parse();
  }

  void OnRead(beast::error_code ec) {
    reading_ = false;
    // The peer closed, reset, or the deadline closed the socket (operation_aborted, or
    // bad_descriptor for a read begun after it).
    if (ec == beast_http::error::end_of_stream || ec == asio::error::operation_aborted ||
        ec == asio::error::connection_reset || ec == asio::error::bad_descriptor) {
      large_body_slot_.reset();
      return CloseWhenDrained();
    }
    if (ec) {
      const bool too_large = ec == beast_http::error::body_limit;
      const bool header_too_large = ec == beast_http::error::header_limit;
      const LargeBodyOptions* large = large_body_slot_.has_value() ? large_body_ : nullptr;
      large_body_slot_.reset();
      Error error =
          too_large ? Error::Of(large != nullptr ? large->too_large : ErrorCode::kPayloadTooLarge,
                                "request body exceeds " +
                                    std::to_string(large != nullptr ? large->limit
                                                                    : options_.body_limit) +
                                    " bytes")
          : header_too_large
              ? Error::Of(ErrorCode::kPayloadTooLarge, "request headers too large")
              : Error::Of(ErrorCode::kValidationFailed, "malformed HTTP request: " + ec.message());
      return Refuse(error);
    }
    Request request = parser_->release();
    const bool keep_alive = request.keep_alive();
    const uint64_t sequence = next_sequence_++;
    ++in_flight_;
    // A route answered inline calls back on this thread, within Handle: its answer is queued
    // and its write begun at once rather than after another turn of the event loop. A large
    // body's slot is held until the answer is queued.
    handler_.Handle(std::move(request), context_,
                    [self = shared_from_this(), sequence, slot = TakeSlot()](Response response) {
                      asio::dispatch(self->socket_.get_executor(),
                                     [self, sequence, response = std::move(response)]() mutable {
                                       self->Enqueue(sequence, std::move(response));
                                     });
                    });
    if (keep_alive) {
      ReadNext();
    } else {
      reading_allowed_ = false;
    }
  }

  // The large-body slot of the request just read, shared by its answer's callback.
  std::shared_ptr<LargeBodySlot> TakeSlot() {
    if (!large_body_slot_) return nullptr;
    auto slot = std::make_shared<LargeBodySlot>(std::move(*large_body_slot_));
    large_body_slot_.reset();
    return slot;
  }

  // Answers a request whose rest was left unread, then closes: the rest of the stream cannot be
  // trusted.
  void Refuse(const Error& error) {
    reading_allowed_ = false;
    linger_ = true;
    ++in_flight_;
    // The caller's X-Request-Id is echoed when it was among the header fields read so far (a
    // too large body is refused as soon as its Content-Length is read, before the header block
    // is complete).
    const std::string request_id = RequestIdFor(parser_->get()["X-Request-Id"]);
    Response response = ErrorResponse(error, request_id, 11, false);
    response.set("X-Request-Id", request_id);
    if (error.code == ErrorCode::kUnavailable) response.set("Retry-After", "5");
    Enqueue(next_sequence_++, std::move(response));
  }

  void Enqueue(uint64_t sequence, Response response) {
    if (stopping_) response.keep_alive(false);
    ready_.emplace(sequence, std::move(response));
    WriteNext();
  }

  void WriteNext() {
    if (writing_ || closed_) return;
    auto it = ready_.find(next_to_write_);
    if (it == ready_.end()) return;
    writing_ = true;
    current_ = std::move(it->second);
    ready_.erase(it);
    if (!reading_) ExpiresAfter(options_.write_timeout);
    auto on_written = [self = shared_from_this()](beast::error_code ec, size_t) {
      self->OnWrite(ec);
    };
    if (!HasPlainWireForm(current_)) return beast_http::async_write(socket_, current_, on_written);
    wire_ = WireBytes(current_);
    asio::async_write(socket_, asio::buffer(wire_), std::move(on_written));
  }

  void OnWrite(beast::error_code ec) {
    writing_ = false;
    --in_flight_;
    ++next_to_write_;
    if (ec) return Close();
    if (!current_.keep_alive()) {
      reading_allowed_ = false;
      if (in_flight_ == 0) return Close();
    }
    if (stopping_ && in_flight_ == 0) return Close();
    WriteNext();
    if (read_paused_) ReadNext();
    if (!reading_allowed_ && in_flight_ == 0) Close();
  }

  void CloseWhenDrained() {
    reading_allowed_ = false;
    if (in_flight_ == 0) Close();
  }

  // After answering a request whose rest was left unread (too large, malformed), the client may
  // still be sending: closing with unread bytes makes the kernel send a reset, which can destroy
  // the answer before the client reads it. So the sending side is shut first, and what still
  // arrives is read and dropped, for at most a second, before the socket closes.
  void Close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    if (!linger_ || ec) {
      socket_.close(ec);
      return;
    }
    ExpiresAfter(std::chrono::seconds(1));
    draining_ = true;
    Drain();
  }

  void Drain() {
    buffer_.clear();
    socket_.async_read_some(buffer_.prepare(16384),
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (!ec) return self->Drain();
                              self->draining_ = false;
                              beast::error_code ignored;
                              self->socket_.close(ignored);
                            });
  }

  void ExpiresAfter(Clock::duration timeout) { deadline_ = Clock::now() + timeout; }

  // Leaves the registry when the session is gone with everything it holds: declared first, so
  // destroyed last. The last reference may be dropped on a handler's thread, after the server's
  // threads have stopped; Stop must not let the io_context (which the socket and the timer belong
  // to) be destroyed before the socket and the timer are.
  struct Registration {
    SessionRegistry& registry;
    Session* session;
    ~Registration() { registry.Remove(session); }
  };
  Registration registration_;
  tcp::socket socket_;
  IoThread& thread_;
  beast::flat_buffer buffer_;
  const ServerOptions& options_;
  RequestHandler& handler_;
  RequestContext context_;
  std::optional<beast_http::request_parser<beast_http::string_body>> parser_;
  std::optional<LargeBodySlot> large_body_slot_;  // while a large body is read
  const LargeBodyOptions* large_body_ = nullptr;  // the options it is read under
  std::map<uint64_t, Response> ready_;            // answered, waiting for their turn on the wire
  Response current_;                              // being written
  std::string wire_;                              // its bytes, unless Beast serializes it
  Clock::time_point deadline_ = Clock::time_point::max();  // of the pending read, write or drain
  uint64_t next_sequence_ = 0;
  uint64_t next_to_write_ = 0;
  size_t in_flight_ = 0;  // read but not yet written
  bool reading_ = false;
  bool header_first_ = false;  // this read stops after the header (OnHeader picks the body limit)
  bool writing_ = false;
  bool draining_ = false;
  bool read_paused_ = false;
  bool reading_allowed_ = true;
  bool stopping_ = false;
  bool closed_ = false;
  bool linger_ = false;  // drain what the client still sends before closing
};

class BeastServer final : public HttpServer {
 public:
  BeastServer(const ServerOptions& options, RequestHandler& handler)
      : options_(options), handler_(handler), io_(MakeIoThreads(options)), acceptor_(io_[0]->ioc) {}

  ~BeastServer() override { Stop(); }

  Status Listen() {
    beast::error_code ec;
    auto address = asio::ip::make_address(options_.host, ec);
    if (ec) return Fail(ErrorCode::kInternal, "invalid listen address " + options_.host);
    tcp::endpoint endpoint{address, options_.port};
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      return Fail(ErrorCode::kInternal, "cannot listen on " + options_.host + ":" +
                                            std::to_string(options_.port) + ": " + ec.message());
    }
    port_ = acceptor_.local_endpoint().port();
    Accept();
    for (auto& io : io_) Sweep(*io);
    for (auto& io : io_) {
      io->thread = std::thread([&ioc = io->ioc] {
        NameThisThread("esign-http");
        ioc.run();
      });
    }
    return {};
  }

  uint16_t port() const override { return port_; }

  void Stop() override {
    if (stopped_.exchange(true)) return;
    asio::post(acceptor_.get_executor(), [this] {
      beast::error_code ec;
      acceptor_.close(ec);
    });
    for (auto& session : registry_.Snapshot()) session->BeginShutdown();
    registry_.WaitEmpty(options_.shutdown_grace);
    for (auto& io : io_) {
      io->work.reset();
      io->ioc.stop();
    }
    for (auto& io : io_) {
      if (io->thread.joinable()) io->thread.join();
    }
  }

 private:
  static std::vector<std::unique_ptr<IoThread>> MakeIoThreads(const ServerOptions& options) {
    const int count = options.threads > 0
                          ? options.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::unique_ptr<IoThread>> io;
    io.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) io.push_back(std::make_unique<IoThread>());
    return io;
  }

  // Every kDeadlineSweep on the thread: connections past their deadline are cut off, and the
  // list forgets those gone.
  static void Sweep(IoThread& io) {
    io.sweep.expires_after(kDeadlineSweep);
    io.sweep.async_wait([&io](beast::error_code ec) {
      if (ec) return;
      const Clock::time_point now = Clock::now();
      std::erase_if(io.sessions, [now](const std::weak_ptr<Session>& weak) {
        const std::shared_ptr<Session> session = weak.lock();
        if (session) session->CheckDeadline(now);
        return session == nullptr;
      });
      Sweep(io);
    });
  }

  // Runs on the acceptor's thread (the first I/O thread): new connections go to the threads in
  // turn.
  void Accept() {
    IoThread& next = *io_[next_io_++ % io_.size()];
    acceptor_.async_accept(next.ioc, [this, &next](beast::error_code ec, tcp::socket s) {
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
      } else {
        auto session = std::make_shared<Session>(std::move(s), next, options_, handler_, registry_);
        registry_.Add(session);
        if (stopped_) {
          session->BeginShutdown();
        } else {
          session->Run();
        }
      }
      Accept();
    });
  }

  const ServerOptions options_;
  RequestHandler& handler_;
  // Before the io_contexts, so it outlives sessions that their destruction releases (handlers
  // still queued after a stop past the grace period hold their session).
  SessionRegistry registry_;
  std::vector<std::unique_ptr<IoThread>> io_;
  tcp::acceptor acceptor_;
  size_t next_io_ = 0;  // the acceptor's thread only
  uint16_t port_ = 0;
  std::atomic<bool> stopped_{false};
};

}  // namespace

Result<std::unique_ptr<HttpServer>> HttpServer::Start(const ServerOptions& options,
                                                      RequestHandler& handler) {
  auto server = std::make_unique<BeastServer>(options, handler);
  if (auto status = server->Listen(); !status) return std::unexpected(status.error());
  return server;
}

}  // namespace esign::http
