// The one-buffer wire form of a response is byte for byte what Beast's serializer writes.
#include "http/response_wire.h"

#include <gtest/gtest.h>

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http/serializer.hpp>

namespace esign::http {
namespace {

namespace beast_http = boost::beast::http;

std::string BeastBytes(const Response& response) {
  beast_http::response_serializer<beast_http::string_body> serializer(response);
  std::string out;
  boost::system::error_code ec;
  while (!serializer.is_done()) {
    serializer.next(ec, [&](boost::system::error_code&, const auto& buffers) {
      out += boost::beast::buffers_to_string(buffers);
      serializer.consume(boost::asio::buffer_size(buffers));
    });
    if (ec) ADD_FAILURE() << ec.message();
  }
  return out;
}

Response Make(beast_http::status status, unsigned version, std::string body) {
  Response response{status, version};
  response.set(beast_http::field::content_type, "application/json");
  response.set("ETag", "\"7\"");
  response.set("X-Request-Id", "req_01M8CDTR4YYAFDWKV3RT2MBNKR");
  response.body() = std::move(body);
  response.keep_alive(true);
  response.prepare_payload();
  return response;
}

TEST(ResponseWireTest, SameBytesAsBeast) {
  std::vector<Response> responses = {
      Make(beast_http::status::ok, 11, R"({"id":"ctr_1","status":"draft"})"),
      Make(beast_http::status::not_found, 11, R"({"error":{"code":"CONTRACT_NOT_FOUND"}})"),
      Make(beast_http::status::too_many_requests, 10, "{}"),
      Make(beast_http::status::ok, 11, ""),
  };
  Response no_content{beast_http::status::no_content, 11};
  no_content.set(beast_http::field::allow, "GET, HEAD, OPTIONS");
  no_content.prepare_payload();
  responses.push_back(no_content);
  Response custom_reason = Make(beast_http::status::ok, 11, "x");
  custom_reason.reason("Fine");
  responses.push_back(custom_reason);
  // HEAD: the GET answer's Content-Length without its body.
  Response head = Make(beast_http::status::ok, 11, "");
  head.content_length(42);
  responses.push_back(head);
  Response closing = Make(beast_http::status::bad_request, 11, "{}");
  closing.keep_alive(false);
  responses.push_back(closing);
  Response unknown_code = Make(static_cast<beast_http::status>(599), 11, "{}");
  responses.push_back(unknown_code);

  for (const Response& response : responses) {
    ASSERT_TRUE(HasPlainWireForm(response));
    EXPECT_EQ(WireBytes(response), BeastBytes(response));
  }
}

TEST(ResponseWireTest, ChunkedResponsesAreLeftToBeast) {
  Response response{beast_http::status::ok, 11};
  response.chunked(true);
  EXPECT_FALSE(HasPlainWireForm(response));
}

}  // namespace
}  // namespace esign::http
