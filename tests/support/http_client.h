// A small synchronous HTTP/1.1 client over loopback for end-to-end tests: one keep-alive
// connection, reconnecting when the server closed it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

namespace esign::testing {

struct HttpResult {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? "" : it->second;
  }
  // The body parsed once and kept, so references into it stay valid as long as the result does;
  // null when the body is not JSON.
  const boost::json::value& Json() const;
  std::string ErrorCode() const;  // error.code of an error body, or ""

 private:
  mutable std::optional<boost::json::value> json_;
};

class HttpClient {
 public:
  explicit HttpClient(uint16_t port) : port_(port) {}
  // Connects from `source_address` (another loopback address such as "127.0.0.2"), so that the
  // server sees another client address.
  HttpClient(uint16_t port, std::string source_address)
      : port_(port), source_address_(std::move(source_address)) {}

  HttpResult Send(boost::beast::http::verb method, const std::string& target,
                  const std::string& body = "",
                  const std::map<std::string, std::string>& headers = {});
  HttpResult Get(const std::string& target,
                 const std::map<std::string, std::string>& headers = {}) {
    return Send(boost::beast::http::verb::get, target, "", headers);
  }
  // Sends `body` as application/json unless headers say otherwise.
  HttpResult Post(const std::string& target, const std::string& body,
                  const std::map<std::string, std::string>& headers = {}) {
    return Send(boost::beast::http::verb::post, target, body, headers);
  }
  HttpResult Put(const std::string& target, const std::string& body,
                 const std::map<std::string, std::string>& headers = {}) {
    return Send(boost::beast::http::verb::put, target, body, headers);
  }
  // A request whose method is any token, known to HTTP or not (e.g. "BREW").
  HttpResult SendMethod(const std::string& method_name, const std::string& target,
                        const std::map<std::string, std::string>& headers = {});

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  HttpResult Exchange(const Request& request);
  void EnsureConnected();

  uint16_t port_;
  std::string source_address_;  // empty: the kernel's choice
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::socket socket_{ioc_};
  boost::beast::flat_buffer buffer_;
};

}  // namespace esign::testing
