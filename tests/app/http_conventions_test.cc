// The wire conventions integrators rely on, over loopback against contractd: Allow on 405 and
// OPTIONS, HEAD as GET without a body, X-Request-Id on every answer (those made before routing
// too), a WWW-Authenticate challenge on every 401, RateLimit-* headers, Location of a stored
// evidence bundle, the OAuth 2.0 client-credentials form of the token endpoint, and an
// organization participant without a name. Every refusal leaves the log as it was.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "base/base64.h"
#include "tests/app/api_suite.h"

namespace esign::testing {
namespace {

namespace beast_http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// One request on a fresh connection, its answer read with the parser told whether it is the
// answer to a HEAD (which has a Content-Length but no body).
beast_http::response<beast_http::string_body> Exchange(
    uint16_t port, beast_http::verb method, const std::string& target,
    const std::map<std::string, std::string>& headers = {}) {
  boost::asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  beast_http::request<beast_http::string_body> request{method, target, 11};
  request.set(beast_http::field::host, "127.0.0.1");
  request.prepare_payload();
  // After prepare_payload, so that a test may announce a body it does not send.
  for (const auto& [name, value] : headers) request.set(name, value);
  beast_http::write(socket, request);
  boost::beast::flat_buffer buffer;
  beast_http::response_parser<beast_http::string_body> parser;
  parser.body_limit(64 << 20);
  parser.skip(method == beast_http::verb::head);
  beast_http::read(socket, buffer, parser);
  return parser.release();
}

// Raw bytes on a fresh connection; the answer as the server wrote it, up to its close.
std::string RawExchange(uint16_t port, const std::string& bytes) {
  boost::asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  boost::system::error_code ec;
  boost::asio::write(socket, boost::asio::buffer(bytes), ec);
  std::string out;
  char chunk[4096];
  for (;;) {
    const size_t n = socket.read_some(boost::asio::buffer(chunk), ec);
    if (n > 0) out.append(chunk, n);
    if (ec) break;
  }
  return out;
}

class HttpConventionsTest : public ApiSuite {
 protected:
  struct Client {
    std::string id;
    std::string secret;
  };
  static Client NewClient(const std::string& permissions) {
    auto created = RunContractd({"clients", "create", "--data-dir", data_dir_.string(), "--org",
                                 "org_a", "--permissions", permissions, "--name", "oauth"});
    EXPECT_EQ(created.exit_code, 0) << created.err;
    auto json = boost::json::parse(created.out).as_object();
    return {std::string(json.at("clientId").as_string()),
            std::string(json.at("clientSecret").as_string())};
  }
  HttpResult TokenForm(const std::string& body, std::map<std::string, std::string> headers = {}) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    return client_.Post("/api/v1/auth/machine-token", body, headers);
  }
  // An RFC 6749 section 5.2 error, and nothing written.
  void ExpectOAuthError(const HttpResult& response, int status, const std::string& error,
                        uint64_t log_before) {
    EXPECT_EQ(response.status, status) << response.body;
    ASSERT_TRUE(response.Json().is_object()) << response.body;
    EXPECT_EQ(response.Json().at("error").as_string(), error) << response.body;
    EXPECT_FALSE(response.Json().at("error_description").as_string().empty());
    EXPECT_EQ(response.Header("cache-control"), "no-store");
    EXPECT_FALSE(response.Header("x-request-id").empty());
    if (status == 401) {
      EXPECT_EQ(response.Header("www-authenticate"), R"(Basic realm="contract-api")");
    }
    EXPECT_EQ(LogSize(), log_before);
  }
};

TEST_F(HttpConventionsTest, WrongMethodIs405WithAllowAndOptionsListsTheMethods) {
  const uint64_t before = LogSize();
  auto wrong = client_.Send(beast_http::verb::delete_, "/api/v1/contracts", "", As("a"));
  ExpectRefused(wrong, 405, "METHOD_NOT_ALLOWED", before);
  EXPECT_EQ(wrong.Header("allow"), "GET, HEAD, POST, OPTIONS");
  auto post_only = client_.Get("/api/v1/auth/machine-token");
  EXPECT_EQ(post_only.status, 405);
  EXPECT_EQ(post_only.Header("allow"), "POST, OPTIONS");

  // OPTIONS needs no token, answers no body and no CORS.
  auto options = client_.Send(beast_http::verb::options, "/api/v1/contracts/ctr_any/status");
  EXPECT_EQ(options.status, 204);
  EXPECT_EQ(options.Header("allow"), "GET, HEAD, OPTIONS");
  EXPECT_TRUE(options.body.empty());
  EXPECT_TRUE(options.Header("access-control-allow-origin").empty());
  EXPECT_FALSE(options.Header("x-request-id").empty());
  auto unknown = client_.Send(beast_http::verb::options, "/api/v1/nothing-here");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.ErrorCode(), "NOT_FOUND");
  EXPECT_EQ(client_.Get("/api/v1/nothing-here", As("a")).status, 404);
  EXPECT_EQ(LogSize(), before);
}

TEST_F(HttpConventionsTest, HeadAnswersTheHeadersOfGetWithoutTheBody) {
  const object contract = Create("a", NdaBody("Head", false));
  const std::string target = "/api/v1/contracts/" + std::string(contract.at("id").as_string());
  auto get = Exchange(port_, beast_http::verb::get, target, As("a"));
  auto head = Exchange(port_, beast_http::verb::head, target, As("a"));
  ASSERT_EQ(get.result_int(), 200u) << get.body();
  EXPECT_EQ(head.result_int(), 200u);
  EXPECT_TRUE(head.body().empty());
  EXPECT_EQ(head[beast_http::field::content_length], std::to_string(get.body().size()));
  EXPECT_EQ(head[beast_http::field::etag], get[beast_http::field::etag]);
  EXPECT_EQ(head[beast_http::field::content_type], get[beast_http::field::content_type]);
  auto pdf =
      Exchange(port_, beast_http::verb::head, target + "/documents/rendered-unsigned", As("a"));
  EXPECT_EQ(pdf.result_int(), 200u);
  EXPECT_EQ(pdf[beast_http::field::content_type], "application/pdf");
  EXPECT_GT(std::stoll(std::string(pdf[beast_http::field::content_length])), 1000);
  // HEAD asks what GET asks: a token.
  auto anonymous = Exchange(port_, beast_http::verb::head, target);
  EXPECT_EQ(anonymous.result_int(), 401u);
  EXPECT_TRUE(anonymous.body().empty());
  EXPECT_EQ(Exchange(port_, beast_http::verb::head, "/healthz").result_int(), 200u);
}

TEST_F(HttpConventionsTest, EveryAnswerCarriesTheRequestId) {
  const uint64_t before = LogSize();
  auto media = client_.Post("/api/v1/contracts", "title=x",
                            As("a", {{"Content-Type", "text/plain"}, {"X-Request-Id", "req-415"}}));
  ExpectRefused(media, 415, "UNSUPPORTED_MEDIA_TYPE", before);
  EXPECT_EQ(media.Header("x-request-id"), "req-415");

  // 413 before routing: the caller's id, in the header and the body.
  auto large = Exchange(port_, beast_http::verb::post, "/api/v1/contracts",
                        As("a", {{"Content-Type", "application/json"},
                                 {"X-Request-Id", "req-too-large"},
                                 {"Content-Length", std::to_string(2 << 20)}}));
  EXPECT_EQ(large.result_int(), 413u);
  EXPECT_EQ(large["X-Request-Id"], "req-too-large");
  EXPECT_NE(large.body().find("\"requestId\":\"req-too-large\""), std::string::npos);
  // An id longer than 128 bytes is replaced, before routing as after.
  auto long_id = Exchange(
      port_, beast_http::verb::post, "/api/v1/contracts",
      {{"X-Request-Id", std::string(200, 'x')}, {"Content-Length", std::to_string(2 << 20)}});
  EXPECT_EQ(long_id.result_int(), 413u);
  EXPECT_TRUE(long_id["X-Request-Id"].starts_with("req_"));

  // A malformed request: a generated id.
  const std::string malformed = RawExchange(port_, "GET / HTTP/1.1\r\nBad Header\r\n\r\n");
  EXPECT_TRUE(malformed.starts_with("HTTP/1.1 400")) << malformed;
  EXPECT_NE(malformed.find("X-Request-Id: req_"), std::string::npos) << malformed;
  EXPECT_EQ(LogSize(), before);
}

TEST_F(HttpConventionsTest, EveryUnauthenticatedAnswerCarriesAChallenge) {
  const uint64_t before = LogSize();
  auto missing = client_.Get("/api/v1/contracts");
  ExpectRefused(missing, 401, "UNAUTHENTICATED", before);
  EXPECT_EQ(missing.Header("www-authenticate"), R"(Bearer realm="contract-api")");
  auto forged = client_.Get("/api/v1/contracts", {{"Authorization", "Bearer forged.token"}});
  ExpectRefused(forged, 401, "UNAUTHENTICATED", before);
  EXPECT_TRUE(forged.Header("www-authenticate")
                  .starts_with(R"(Bearer realm="contract-api", error="invalid_token")"))
      << forged.Header("www-authenticate");
  auto wrong_secret = client_.Post("/api/v1/auth/machine-token",
                                   R"({"clientId":"cli_nobody","clientSecret":"cs_wrong"})");
  ExpectRefused(wrong_secret, 401, "INVALID_CLIENT", before);
  EXPECT_EQ(wrong_secret.Header("www-authenticate"), R"(Basic realm="contract-api")");
}

TEST_F(HttpConventionsTest, AJsonSyntaxErrorIsLocatedOnEveryJsonRoute) {
  const uint64_t before = LogSize();
  // The stray x is on line 3, column 11; the same body on routes of two families.
  const std::string body = "{\n  \"title\": \"NDA\",\n  \"data\": x\n}";
  for (const std::string path : {"/api/v1/contracts", "/api/v1/webhooks/endpoints"}) {
    auto refused = client_.Post(path, body, As("a"));
    ExpectRefused(refused, 400, "VALIDATION_FAILED", before, "body");
    const auto& error = refused.Json().at("error");
    EXPECT_EQ(error.at("message"),
              "the body is not valid JSON: syntax error at line 3, column 11 (offset 30)")
        << path;
    EXPECT_EQ(error.at("details").at(0).at("issue"),
              "syntax error at line 3, column 11 (offset 30)");
  }
}

TEST_F(HttpConventionsTest, AuthenticatedAnswersCarryRateLimitHeaders) {
  auto first = client_.Get("/api/v1/contracts?limit=1", As("b"));
  ASSERT_EQ(first.status, 200) << first.body;
  // contractd's default: 2000 requests a second, a burst of twice that.
  EXPECT_EQ(first.Header("ratelimit-limit"), "4000");
  const int64_t remaining = std::stoll(first.Header("ratelimit-remaining"));
  EXPECT_GT(remaining, 3900);
  EXPECT_LT(remaining, 4000);
  EXPECT_GE(std::stoll(first.Header("ratelimit-reset")), 0);
  auto second = client_.Get("/api/v1/contracts?limit=1", As("b"));
  EXPECT_LE(std::stoll(second.Header("ratelimit-remaining")), remaining);
  // Answers to requests that name no client report no limit.
  EXPECT_TRUE(client_.Get("/api/v1/contracts").Header("ratelimit-limit").empty());
}

TEST_F(HttpConventionsTest, AStoredEvidenceBundleIsWhereLocationSays) {
  const object contract = Create("a", NdaBody("Bundle", true, true));
  SignSentNda(client_, As("a"), contract);
  const std::string base = "/api/v1/contracts/" + std::string(contract.at("id").as_string());
  auto stored = client_.Post(base + "/evidence/bundle", "", As("a"));
  ASSERT_EQ(stored.status, 201) << stored.body;
  const std::string location = stored.Header("location");
  EXPECT_EQ(location, base + "/documents/artifact-revisions/" +
                          std::to_string(stored.Json().at("revision").as_int64()) + "/download");
  auto fetched = client_.Get(location, As("a"));
  ASSERT_EQ(fetched.status, 200) << fetched.body;
  EXPECT_EQ(fetched.body.size(), stored.Json().at("size").as_int64());
  EXPECT_EQ(client_.Get(location, As("b")).status, 404);  // another organization's
}

TEST_F(HttpConventionsTest, AnOrganizationParticipantIsNamedByItsIdWhenItHasNoName) {
  const std::string viewer =
      R"(,{"action":"view","recipientType":"organization","organizationId":"org_b"})";
  const object contract = Create("a", NdaBody("Unnamed organization", false, false, viewer));
  const auto& participants = contract.at("participants").as_array();
  ASSERT_EQ(participants.size(), 3u);
  EXPECT_EQ(participants[2].at("name").as_string(), "org_b");
  // A person still needs a name.
  const uint64_t before = LogSize();
  const std::string nameless_person =
      R"(,{"action":"view","recipientType":"individual","email":"x@example.com"})";
  ExpectRefused(client_.Post("/api/v1/contracts",
                             NdaBody("Nameless", false, false, nameless_person), As("a")),
                400, "VALIDATION_FAILED", before, "participants[2].name");
}

TEST_F(HttpConventionsTest, TheTokenEndpointTakesTheOAuthClientCredentialsForm) {
  const Client oauth = NewClient("contracts:read,contracts:create");
  // Credentials in the body; the id percent-encoded and the secret as it is.
  auto posted = TokenForm("grant_type=client_credentials&client_id=" + oauth.id +
                          "&client_secret=" + oauth.secret);
  ASSERT_EQ(posted.status, 200) << posted.body;
  EXPECT_EQ(posted.Json().at("token_type").as_string(), "Bearer");
  EXPECT_EQ(posted.Json().at("expires_in").as_int64(), 3600);
  EXPECT_EQ(posted.Json().at("scope").as_string(), "contracts:read contracts:create");
  EXPECT_EQ(posted.Header("cache-control"), "no-store");
  EXPECT_EQ(posted.Header("pragma"), "no-cache");
  const std::string token(posted.Json().at("access_token").as_string());
  EXPECT_EQ(client_.Get("/api/v1/contracts", {{"Authorization", "Bearer " + token}}).status, 200);

  // HTTP Basic, with a narrower scope: the token carries only it.
  const std::map<std::string, std::string> basic{
      {"Authorization", "Basic " + Base64Encode(oauth.id + ":" + oauth.secret)}};
  auto narrow = TokenForm("grant_type=client_credentials&scope=contracts%3Aread", basic);
  ASSERT_EQ(narrow.status, 200) << narrow.body;
  EXPECT_EQ(narrow.Json().at("scope").as_string(), "contracts:read");
  const std::map<std::string, std::string> narrow_auth{
      {"Authorization", "Bearer " + std::string(narrow.Json().at("access_token").as_string())}};
  EXPECT_EQ(client_.Get("/api/v1/contracts", narrow_auth).status, 200);
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post("/api/v1/contracts", NdaBody("Narrow", false), narrow_auth), 403,
                "PERMISSION_DENIED", before);

  // The JSON form is unchanged.
  auto json =
      client_.Post("/api/v1/auth/machine-token",
                   R"({"clientId":")" + oauth.id + R"(","clientSecret":")" + oauth.secret + "\"}");
  ASSERT_EQ(json.status, 200) << json.body;
  EXPECT_TRUE(json.Json().as_object().contains("accessToken"));
  EXPECT_FALSE(json.Json().as_object().contains("access_token"));

  // Refusals in RFC 6749's shape.
  const std::string credentials = "&client_id=" + oauth.id + "&client_secret=" + oauth.secret;
  ExpectOAuthError(TokenForm("client_id=" + oauth.id + "&client_secret=" + oauth.secret), 400,
                   "invalid_request", before);
  ExpectOAuthError(TokenForm("grant_type=password" + credentials), 400, "unsupported_grant_type",
                   before);
  ExpectOAuthError(
      TokenForm("grant_type=client_credentials&grant_type=client_credentials" + credentials), 400,
      "invalid_request", before);
  ExpectOAuthError(
      TokenForm("grant_type=client_credentials&client_id=" + oauth.id + "&client_secret=wrong"),
      401, "invalid_client", before);
  ExpectOAuthError(TokenForm("grant_type=client_credentials"), 401, "invalid_client", before);
  ExpectOAuthError(TokenForm("grant_type=client_credentials",
                             {{"Authorization", "Basic " + Base64Encode(oauth.id + ":wrong")}}),
                   401, "invalid_client", before);
  ExpectOAuthError(TokenForm("grant_type=client_credentials&client_secret=" + oauth.secret, basic),
                   400, "invalid_request", before);
  ExpectOAuthError(TokenForm("grant_type=client_credentials&scope=webhooks%3Amanage" + credentials),
                   400, "invalid_scope", before);
  ExpectOAuthError(
      TokenForm("grant_type=client_credentials&scope=contracts:read+nonsense" + credentials), 400,
      "invalid_scope", before);
  auto other_type = client_.Post("/api/v1/auth/machine-token", "grant_type=client_credentials",
                                 {{"Content-Type", "text/plain"}});
  ExpectRefused(other_type, 415, "UNSUPPORTED_MEDIA_TYPE", before);
}

}  // namespace
}  // namespace esign::testing
