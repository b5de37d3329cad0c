// The server over real loopback sockets: ordering of pipelined responses, limits, timeouts and a
// graceful stop. The handler here is a test double of the *application*, not of the server.
#include "http/server.h"

#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace esign::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beast_http = boost::beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Answers with the request's target; "/slow/N" answers after N milliseconds, from another thread;
// "/big/N" answers with N bytes.
class EchoHandler : public RequestHandler {
 public:
  void Handle(Request request, const RequestContext&, Respond respond) override {
    std::string target(request.target());
    int delay_ms = 0;
    if (target.starts_with("/slow/")) delay_ms = std::stoi(target.substr(6));
    const size_t big = target.starts_with("/big/") ? std::stoul(target.substr(5)) : 0;
    std::thread([=, respond = std::move(respond), version = request.version(),
                 keep_alive = request.keep_alive()] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      Response response{beast_http::status::ok, version};
      response.keep_alive(keep_alive);
      response.body() = big > 0 ? std::string(big, 'x') : target;
      response.prepare_payload();
      respond(std::move(response));
    }).detach();
  }
};

class ServerTest : public ::testing::Test {
 protected:
  void StartServer(ServerOptions options) {
    options.port = 0;
    options.threads = 2;
    auto server = HttpServer::Start(options, handler_);
    ASSERT_TRUE(server.has_value()) << server.error().message;
    server_ = std::move(*server);
  }

  tcp::socket Connect() {
    tcp::socket socket(ioc_);
    socket.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
    return socket;
  }

  static std::string ReadAll(tcp::socket& socket) {
    std::string out;
    beast::error_code ec;
    char buf[4096];
    for (;;) {
      size_t n = socket.read_some(asio::buffer(buf), ec);
      out.append(buf, n);
      if (ec) break;
    }
    return out;
  }

  EchoHandler handler_;
  std::unique_ptr<HttpServer> server_;
  asio::io_context ioc_;
};

TEST_F(ServerTest, PipelinedResponsesLeaveInRequestOrder) {
  StartServer({});
  auto socket = Connect();
  // The first request is answered last by the handler; the wire order must still be 1, 2, 3.
  const std::string requests =
      "GET /slow/200 HTTP/1.1\r\nHost: x\r\n\r\n"
      "GET /slow/50 HTTP/1.1\r\nHost: x\r\n\r\n"
      "GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  asio::write(socket, asio::buffer(requests));
  const std::string wire = ReadAll(socket);
  const auto first = wire.find("/slow/200");
  const auto second = wire.find("/slow/50");
  const auto third = wire.find("/fast");
  ASSERT_NE(first, std::string::npos) << wire;
  ASSERT_NE(second, std::string::npos) << wire;
  ASSERT_NE(third, std::string::npos) << wire;
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
}

TEST_F(ServerTest, KeepAliveServesManyRequestsOnOneConnection) {
  StartServer({});
  auto socket = Connect();
  beast::flat_buffer buffer;
  for (int i = 0; i < 5; ++i) {
    Request request{beast_http::verb::get, "/n" + std::to_string(i), 11};
    request.set(beast_http::field::host, "x");
    beast_http::write(socket, request);
    Response response;
    beast_http::read(socket, buffer, response);
    EXPECT_EQ(response.body(), "/n" + std::to_string(i));
    EXPECT_TRUE(response.keep_alive());
  }
}

TEST_F(ServerTest, OversizedBodyAnswers413WithErrorBody) {
  ServerOptions options;
  options.body_limit = 1024;
  StartServer(options);
  auto socket = Connect();
  Request request{beast_http::verb::post, "/api/v1/contracts", 11};
  request.set(beast_http::field::host, "x");
  request.set(beast_http::field::content_type, "application/json");
  request.body() = std::string(4096, 'a');
  request.prepare_payload();
  beast_http::write(socket, request);
  beast::flat_buffer buffer;
  Response response;
  beast_http::read(socket, buffer, response);
  EXPECT_EQ(response.result(), beast_http::status::payload_too_large);
  EXPECT_NE(response.body().find("\"PAYLOAD_TOO_LARGE\""), std::string::npos);
  EXPECT_FALSE(response.keep_alive());
}

TEST_F(ServerTest, MalformedRequestAnswers400AndCloses) {
  StartServer({});
  auto socket = Connect();
  asio::write(socket, asio::buffer(std::string("THIS IS NOT HTTP\r\n\r\n")));
  const std::string wire = ReadAll(socket);
  EXPECT_NE(wire.find("400 Bad Request"), std::string::npos) << wire;
  EXPECT_NE(wire.find("VALIDATION_FAILED"), std::string::npos) << wire;
}

TEST_F(ServerTest, IdleConnectionIsClosed) {
  ServerOptions options;
  options.idle_timeout = 1s;
  StartServer(options);
  auto socket = Connect();
  const auto start = std::chrono::steady_clock::now();
  ReadAll(socket);  // returns when the server closes
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST_F(ServerTest, SlowHeadersAreCutOff) {
  ServerOptions options;
  options.read_timeout = 1s;
  options.idle_timeout = 1s;
  StartServer(options);
  auto socket = Connect();
  // A client that starts a request and never finishes it cannot hold the connection.
  asio::write(socket, asio::buffer(std::string("GET / HTTP/1.1\r\nHost: x\r\n")));
  const auto start = std::chrono::steady_clock::now();
  ReadAll(socket);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST_F(ServerTest, AClientThatStopsReadingIsCutOffAfterTheWriteTimeout) {
  ServerOptions options;
  options.write_timeout = 1s;
  StartServer(options);
  auto socket = Connect();
  // An answer far larger than the socket buffers of both ends: its write waits on the client.
  constexpr size_t kBody = 64 << 20;
  asio::write(socket, asio::buffer("GET /big/" + std::to_string(kBody) +
                                   " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  std::this_thread::sleep_for(3s);  // past the write timeout and the next deadline sweep
  const std::string wire = ReadAll(socket);
  EXPECT_NE(wire.find("200 OK"), std::string::npos);
  EXPECT_LT(wire.size(), kBody) << "the whole answer arrived: the write was not cut off";
}

TEST_F(ServerTest, StopLetsInFlightRequestsFinish) {
  StartServer({});
  auto socket = Connect();
  asio::write(socket, asio::buffer(std::string("GET /slow/300 HTTP/1.1\r\nHost: x\r\n\r\n")));
  std::this_thread::sleep_for(50ms);  // the request is now in the handler
  auto stopped = std::async(std::launch::async, [&] { server_->Stop(); });
  const std::string wire = ReadAll(socket);
  stopped.get();
  EXPECT_NE(wire.find("200 OK"), std::string::npos) << wire;
  EXPECT_NE(wire.find("/slow/300"), std::string::npos) << wire;
  // And nothing is accepted any more.
  tcp::socket late(ioc_);
  beast::error_code ec;
  late.connect({asio::ip::make_address("127.0.0.1"), server_->port()}, ec);
  EXPECT_TRUE(ec);
}

// The connection's last request (Connection: close) leaves no read pending: while it is in the
// handler, the server's I/O threads have nothing to wait for, yet they must stay to write the
// answer, and Stop must return once it is written, not after the grace period.
TEST_F(ServerTest, StopLetsTheLastRequestOfAConnectionFinish) {
  ServerOptions options;
  options.shutdown_grace = 5s;
  StartServer(options);
  auto socket = Connect();
  asio::write(
      socket,
      asio::buffer(std::string("GET /slow/300 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")));
  std::this_thread::sleep_for(50ms);  // the request is now in the handler
  auto stopped = std::async(std::launch::async, [&] { server_->Stop(); });
  // Stop returns once the answer is written and the connection closed, however slowly the client
  // reads.
  ASSERT_EQ(stopped.wait_for(3s), std::future_status::ready) << "Stop waited for the grace period";
  const std::string wire = ReadAll(socket);
  EXPECT_NE(wire.find("200 OK"), std::string::npos) << wire;
  EXPECT_NE(wire.find("/slow/300"), std::string::npos) << wire;
}

}  // namespace
}  // namespace esign::http
