#include "tests/support/http_client.h"

#include <algorithm>

#include <boost/asio/connect.hpp>

namespace esign::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace beast_http = boost::beast::http;

const boost::json::value& HttpResult::Json() const {
  if (!json_) {
    boost::system::error_code ec;
    auto value = boost::json::parse(body, ec);
    json_ = ec ? boost::json::value() : std::move(value);
  }
  return *json_;
}

std::string HttpResult::ErrorCode() const {
  auto json = Json();
  if (!json.is_object()) return "";
  const auto* error = json.as_object().if_contains("error");
  if (!error || !error->is_object()) return "";
  const auto* code = error->as_object().if_contains("code");
  return code && code->is_string() ? std::string(code->as_string()) : "";
}

void HttpClient::EnsureConnected() {
  if (socket_.is_open()) return;
  buffer_.clear();
  if (!source_address_.empty()) {
    socket_.open(asio::ip::tcp::v4());
    socket_.bind({asio::ip::make_address(source_address_), 0});
  }
  socket_.connect({asio::ip::make_address("127.0.0.1"), port_});
}

HttpResult HttpClient::Send(beast_http::verb method, const std::string& target,
                            const std::string& body,
                            const std::map<std::string, std::string>& headers) {
  beast_http::request<beast_http::string_body> request{method, target, 11};
  request.set(beast_http::field::host, "127.0.0.1");
  if (!body.empty() || method == beast_http::verb::post || method == beast_http::verb::put) {
    request.set(beast_http::field::content_type, "application/json");
  }
  for (const auto& [name, value] : headers) request.set(name, value);
  request.body() = body;
  request.prepare_payload();
  return Exchange(request);
}

HttpResult HttpClient::SendMethod(const std::string& method_name, const std::string& target,
                                  const std::map<std::string, std::string>& headers) {
  Request request{beast_http::verb::get, target, 11};
  request.method_string(method_name);
  request.set(beast_http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) request.set(name, value);
  request.prepare_payload();
  return Exchange(request);
}

HttpResult HttpClient::Exchange(const Request& request) {
  // One retry: a keep-alive connection the server has since closed fails on first use.
  for (int attempt = 0; attempt < 2; ++attempt) {
    EnsureConnected();
    beast::error_code ec;
    beast_http::write(socket_, request, ec);
    // Read even when writing failed: a server may answer early (413) and stop reading.
    beast_http::response_parser<beast_http::string_body> parser;
    parser.body_limit(256 << 20);
    beast_http::read(socket_, buffer_, parser, ec);
    if (ec) {
      socket_.close(ec);
      continue;
    }
    auto response = parser.release();
    HttpResult result;
    result.status = static_cast<int>(response.result_int());
    for (const auto& field : response) {
      std::string name(field.name_string());
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      result.headers[name] = std::string(field.value());
    }
    result.body = std::move(response.body());
    if (!response.keep_alive()) socket_.close(ec);
    return result;
  }
  return HttpResult{};
}

}  // namespace esign::testing
