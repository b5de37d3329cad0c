// The Beast sender against a real TLS receiver on loopback (a certificate made for the test,
// trusted through the sender's extra_ca_file): https connections are kept alive per lane,
// replaced when the server closes them, and every new one is verified and checked against the
// address policy.
#include "webhooks/webhook_sender.h"

#include <sys/socket.h>

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"

namespace esign::webhooks {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// An HTTPS server on 127.0.0.1 that answers every request 200 and keeps connections open until
// the client or CloseConnections ends them. Counts connections and requests.
class TlsReceiver {
 public:
  explicit TlsReceiver(const std::string& dir) : tls_(asio::ssl::context::tls_server) {
    const std::string made =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 "
        "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout " +
        dir + "/key.pem -out " + dir + "/cert.pem 2>/dev/null";
    EXPECT_EQ(std::system(made.c_str()), 0) << made;
    certificate_ = dir + "/cert.pem";
    tls_.use_certificate_chain_file(certificate_);
    tls_.use_private_key_file(dir + "/key.pem", asio::ssl::context::pem);
    acceptor_.open(tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { Accept(); });
  }
  ~TlsReceiver() {
    stopping_ = true;
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);  // wakes the blocked accept
    thread_.join();
    CloseConnections();
    for (auto& t : serving_) t.join();
  }

  std::string Url(const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(port_) + "/hooks";
  }
  const std::string& certificate() const { return certificate_; }
  size_t connections() const { return connections_; }
  size_t requests() const { return requests_; }
  size_t open_connections() const {
    std::lock_guard lock(mutex_);
    return open_.size();
  }
  // Ends every open connection from the server's side, as an idle timeout would.
  void CloseConnections() {
    std::lock_guard lock(mutex_);
    for (const int fd : open_) ::shutdown(fd, SHUT_RDWR);
  }

 private:
  void Accept() {
    while (!stopping_) {
      tcp::socket socket(io_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec) return;
      ++connections_;
      {
        std::lock_guard lock(mutex_);
        open_.insert(socket.native_handle());
      }
      serving_.emplace_back([this, s = std::move(socket)]() mutable { Serve(std::move(s)); });
    }
  }

  void Serve(tcp::socket socket) {
    const int fd = socket.native_handle();
    asio::ssl::stream<tcp::socket> stream(std::move(socket), tls_);
    boost::system::error_code ec;
    stream.handshake(asio::ssl::stream_base::server, ec);
    beast::flat_buffer buffer;
    while (!ec) {
      http::request<http::string_body> request;
      http::read(stream, buffer, request, ec);
      if (ec) break;
      ++requests_;
      http::response<http::string_body> response{http::status::ok, 11};
      response.keep_alive(request.keep_alive());
      response.body() = "ok";
      response.prepare_payload();
      http::write(stream, response, ec);
    }
    std::lock_guard lock(mutex_);
    open_.erase(fd);  // before the stream closes it, so its number is never shut down again
  }

  asio::io_context io_;
  asio::ssl::context tls_;
  tcp::acceptor acceptor_{io_};
  uint16_t port_ = 0;
  std::string certificate_;
  std::atomic<bool> stopping_{false};
  std::atomic<size_t> connections_{0};
  std::atomic<size_t> requests_{0};
  mutable std::mutex mutex_;
  std::set<int> open_;  // guarded by mutex_
  std::vector<std::thread> serving_;
  std::thread thread_;
};

class WebhookSenderTest : public ::testing::Test {
 protected:
  std::unique_ptr<WebhookSender> Sender(bool trust_receiver = true, bool allow_loopback = true,
                                        const std::string& extra_ca_file = "") {
    BeastSenderOptions options;
    options.allow_loopback = allow_loopback;
    options.idle_connections_per_thread = 2;
    options.connect_timeout = std::chrono::seconds(2);
    options.response_timeout = std::chrono::seconds(2);
    if (trust_receiver) options.extra_ca_file = receiver_.certificate();
    if (!extra_ca_file.empty()) options.extra_ca_file = extra_ca_file;
    return MakeBeastSender(options);
  }
  static SendRequest Delivery(const std::string& url) {
    return SendRequest{url, {{"webhook-id", "msg_test"}}, R"({"type":"contract.sent"})"};
  }

  esign::testing::TempDir dir_;
  TlsReceiver receiver_{dir_.path()};
};

TEST_F(WebhookSenderTest, SuccessiveHttpsDeliveriesShareOneConnection) {
  auto sender = Sender();
  for (int i = 0; i < 3; ++i) {
    const SendOutcome outcome = sender->Send(Delivery(receiver_.Url()));
    EXPECT_EQ(outcome.status_code, 200) << outcome.error;
  }
  EXPECT_EQ(receiver_.requests(), 3u);
  EXPECT_EQ(receiver_.connections(), 1u);
}

TEST_F(WebhookSenderTest, AConnectionTheServerClosedIsReplaced) {
  auto sender = Sender();
  ASSERT_EQ(sender->Send(Delivery(receiver_.Url())).status_code, 200);
  receiver_.CloseConnections();
  for (int i = 0; i < 100 && receiver_.open_connections() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(receiver_.open_connections(), 0u);
  const SendOutcome outcome = sender->Send(Delivery(receiver_.Url()));
  EXPECT_EQ(outcome.status_code, 200) << outcome.error;
  EXPECT_EQ(receiver_.connections(), 2u);
  EXPECT_EQ(receiver_.requests(), 2u);
  // And the new one is kept in turn.
  EXPECT_EQ(sender->Send(Delivery(receiver_.Url())).status_code, 200);
  EXPECT_EQ(receiver_.connections(), 2u);
}

TEST_F(WebhookSenderTest, EveryNewConnectionIsVerified) {
  // A certificate no trusted authority issued.
  const SendOutcome untrusted = Sender(/*trust_receiver=*/false)->Send(Delivery(receiver_.Url()));
  EXPECT_EQ(untrusted.status_code, 0);
  EXPECT_FALSE(untrusted.error.empty());
  // A trusted certificate for another name: 127.0.0.1 is not localhost. The kept connection to
  // 127.0.0.1 does not serve it either.
  auto sender = Sender();
  ASSERT_EQ(sender->Send(Delivery(receiver_.Url())).status_code, 200);
  const SendOutcome other_name = sender->Send(Delivery(receiver_.Url("localhost")));
  EXPECT_EQ(other_name.status_code, 0);
  EXPECT_FALSE(other_name.error.empty());
  EXPECT_EQ(receiver_.requests(), 1u);
}

TEST_F(WebhookSenderTest, NonPublicAddressesAreRefusedAtConnect) {
  const SendOutcome refused =
      Sender(/*trust_receiver=*/true, /*allow_loopback=*/false)->Send(Delivery(receiver_.Url()));
  EXPECT_EQ(refused.status_code, 0);
  // Only that it is not public: naming the address would let a client map internal DNS.
  EXPECT_EQ(refused.error, "the endpoint resolves to a non-public address");
  EXPECT_EQ(receiver_.connections(), 0u);
}

TEST_F(WebhookSenderTest, IdleConnectionsAreBoundedPerThreadLeastRecentlyUsedClosedFirst) {
  // Three receivers sharing one certificate authority file: three places to keep connections to.
  esign::testing::TempDir second_dir;
  esign::testing::TempDir third_dir;
  TlsReceiver second(second_dir.path());
  TlsReceiver third(third_dir.path());
  const std::string bundle = dir_.path() + "/bundle.pem";
  ASSERT_EQ(std::system(("cat " + receiver_.certificate() + " " + second.certificate() + " " +
                         third.certificate() + " > " + bundle)
                            .c_str()),
            0);
  auto sender = Sender(/*trust_receiver=*/false, /*allow_loopback=*/true, bundle);
  for (TlsReceiver* r : {&receiver_, &second, &third}) {
    ASSERT_EQ(sender->Send(Delivery(r->Url())).status_code, 200);
  }
  // Two kept at most: the first receiver's, least recently used, was closed.
  EXPECT_TRUE([&] {
    for (int i = 0; i < 200 && receiver_.open_connections() > 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return receiver_.open_connections() == 0;
  }());
  EXPECT_EQ(second.open_connections(), 1u);
  EXPECT_EQ(third.open_connections(), 1u);
  // The kept ones serve again; the first receiver gets a new connection.
  ASSERT_EQ(sender->Send(Delivery(third.Url())).status_code, 200);
  ASSERT_EQ(sender->Send(Delivery(receiver_.Url())).status_code, 200);
  EXPECT_EQ(third.connections(), 1u);
  EXPECT_EQ(receiver_.connections(), 2u);
}

}  // namespace
}  // namespace esign::webhooks
