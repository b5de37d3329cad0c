// A real HTTP receiver on loopback for end-to-end tests: it accepts connections on a free port,
// records every request, and answers each with the status the test sets (200 by default).
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace esign::testing {

struct ReceivedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

class HttpReceiver {
 public:
  HttpReceiver();
  ~HttpReceiver();

  uint16_t port() const { return port_; }
  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  // The status of every answer from now on, with a Retry-After header when one is given.
  void SetStatus(unsigned status, std::string retry_after = "");
  // Waits until at least `count` requests arrived (true) or `timeout` passed (false).
  bool WaitFor(size_t count, std::chrono::milliseconds timeout);
  std::vector<ReceivedRequest> Requests() const;

 private:
  void Serve(boost::asio::ip::tcp::socket socket);

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<ReceivedRequest> requests_;
  unsigned status_ = 200;
  std::string retry_after_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace esign::testing
