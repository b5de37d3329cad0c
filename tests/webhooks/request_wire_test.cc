// The webhook request written in one piece: the same bytes as Beast's serializer for the same
// request, and requests that would split refused.
#include "webhooks/request_wire.h"

#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <sstream>

namespace esign::webhooks {
namespace {

namespace http = boost::beast::http;

std::string BeastBytes(const std::string& target, const std::string& host,
                       const std::vector<std::pair<std::string, std::string>>& headers,
                       const std::string& body) {
  http::request<http::string_body> req{http::verb::post, target, 11};
  req.set(http::field::host, host);
  req.set(http::field::user_agent, "contractd-webhooks/1");
  req.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.prepare_payload();
  std::ostringstream out;
  out << req;
  return out.str();
}

TEST(RequestWireTest, WritesWhatBeastsSerializerWrites) {
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"webhook-id", "msg_2ZkQ"},
      {"webhook-timestamp", "1796000000"},
      {"webhook-signature", "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1,abc="}};
  for (const auto& [target, host, body] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"/", "h.example", ""},
           {"/hooks/in?x=1&y=%20", "127.0.0.1", R"({"type":"contract.sent","data":{}})"},
           {"/a", "[::1]", std::string(70'000, 'x')}}) {
    const std::optional<std::string> bytes = WebhookRequestBytes(target, host, headers, body);
    ASSERT_TRUE(bytes) << target;
    EXPECT_EQ(*bytes, BeastBytes(target, host, headers, body)) << target;
  }
}

TEST(RequestWireTest, HeadersThatWouldSplitTheRequestAreRefused) {
  using Headers = std::vector<std::pair<std::string, std::string>>;
  EXPECT_FALSE(WebhookRequestBytes("/", "h", Headers{{"a", "b\r\nX-Evil: 1"}}, ""));
  EXPECT_FALSE(WebhookRequestBytes("/", "h", Headers{{"a\n", "b"}}, ""));
  EXPECT_FALSE(WebhookRequestBytes("/", "h", Headers{{"", "b"}}, ""));
  EXPECT_FALSE(WebhookRequestBytes("/", "h", Headers{{"a", std::string("b\0c", 3)}}, ""));
  EXPECT_FALSE(WebhookRequestBytes("/ HTTP/1.0\r\n", "h", {}, ""));
  EXPECT_FALSE(WebhookRequestBytes("/a b", "h", {}, ""));
  EXPECT_FALSE(WebhookRequestBytes("/", "h\r\n", {}, ""));
  EXPECT_TRUE(WebhookRequestBytes("/", "h", Headers{{"a", "b c"}}, "body\r\n"));
}

}  // namespace
}  // namespace esign::webhooks
