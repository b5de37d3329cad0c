#include "tests/support/http_receiver.h"

#include <cctype>

namespace esign::testing {

namespace beast = boost::beast;
using boost::asio::ip::tcp;

HttpReceiver::HttpReceiver()
    : acceptor_(io_, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)) {
  port_ = acceptor_.local_endpoint().port();
  thread_ = std::thread([this] {
    while (true) {
      boost::system::error_code ec;
      tcp::socket socket(io_);
      acceptor_.accept(socket, ec);
      if (ec || stopping_) return;  // closed, or the destructor's wake-up call
      Serve(std::move(socket));
    }
  });
}

HttpReceiver::~HttpReceiver() {
  stopping_ = true;
  // A blocking accept() is not woken by closing the acceptor: a connection wakes it.
  boost::system::error_code ignored;
  tcp::socket poke(io_);
  poke.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port_), ignored);
  thread_.join();
  acceptor_.close(ignored);
}

void HttpReceiver::SetStatus(unsigned status, std::string retry_after) {
  std::lock_guard lock(mutex_);
  status_ = status;
  retry_after_ = std::move(retry_after);
}

// One request per connection: a kept-alive connection would hold the accepting thread.
void HttpReceiver::Serve(tcp::socket socket) {
  beast::flat_buffer buffer;
  beast::http::request<beast::http::string_body> request;
  boost::system::error_code ec;
  beast::http::read(socket, buffer, request, ec);
  if (ec) return;
  ReceivedRequest received{
      std::string(request.method_string()), std::string(request.target()), {}, request.body()};
  for (const auto& field : request) {
    std::string name(field.name_string());
    for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    received.headers[name] = std::string(field.value());
  }
  unsigned status = 200;
  std::string retry_after;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(std::move(received));
    status = status_;
    retry_after = retry_after_;
  }
  arrived_.notify_all();
  beast::http::response<beast::http::string_body> response{static_cast<beast::http::status>(status),
                                                           request.version()};
  response.keep_alive(false);
  if (!retry_after.empty()) response.set(beast::http::field::retry_after, retry_after);
  response.body() = "{}";
  response.prepare_payload();
  beast::http::write(socket, response, ec);
}

bool HttpReceiver::WaitFor(size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return arrived_.wait_for(lock, timeout, [&] { return requests_.size() >= count; });
}

std::vector<ReceivedRequest> HttpReceiver::Requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

}  // namespace esign::testing
