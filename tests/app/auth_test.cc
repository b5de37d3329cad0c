// The authentication family over HTTP against a real contractd: machine tokens, introspection,
// revocation with immediate effect, the 401 answers for every kind of bad token or credential,
// body checks, and refusals that leave the stored state unchanged.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "base/base64.h"
#include "base/time_text.h"
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

using namespace std::chrono_literals;

std::string Body(const std::string& key, const std::string& value) {
  return boost::json::serialize(boost::json::object{{key, value}});
}

// The error body without its requestId, to compare two answers.
boost::json::value WithoutRequestId(const HttpResult& response) {
  auto value = response.Json();
  if (value.is_object() && value.as_object().contains("error")) {
    value.as_object()["error"].as_object().erase("requestId");
  }
  return value;
}

class ContractdAuthTest : public ContractdFixture {
 protected:
  HttpResult Introspect(const std::string& bearer, const std::string& token) {
    return HttpClient(port_).Post("/api/v1/auth/introspect", Body("token", token),
                                  {{"Authorization", "Bearer " + bearer}});
  }
  HttpResult Revoke(const std::string& bearer, const std::string& token) {
    return HttpClient(port_).Post("/api/v1/auth/revoke", Body("token", token),
                                  {{"Authorization", "Bearer " + bearer}});
  }
  static void ExpectUnauthenticated(const HttpResult& response, const std::string& what) {
    EXPECT_EQ(response.status, 401) << what << ": " << response.body;
    EXPECT_EQ(response.ErrorCode(), "UNAUTHENTICATED") << what;
    EXPECT_TRUE(response.Header("www-authenticate").starts_with(R"(Bearer realm="contract-api")"))
        << what;
  }
};

TEST_F(ContractdAuthTest, TokenLifecycleFromIssueToRevocation) {
  const Credentials credentials =
      ParseCreated(CreateClient("org_acme", "contracts:read,contracts:create"));
  auto server = StartServer();
  ASSERT_NE(port_, 0);

  HttpClient client(port_);
  auto issued = client.Post(
      "/api/v1/auth/machine-token",
      boost::json::serialize(boost::json::object{{"clientId", credentials.client_id},
                                                 {"clientSecret", credentials.client_secret}}));
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_EQ(issued.Header("cache-control"), "no-store");
  const boost::json::value issued_json = issued.Json();
  const auto& body = issued_json.as_object();
  EXPECT_EQ(body.size(), 4u);
  EXPECT_EQ(body.at("tokenType"), "Bearer");
  EXPECT_EQ(body.at("expiresIn"), 3600);
  EXPECT_EQ(body.at("scope"), "contracts:read contracts:create");
  const std::string token(body.at("accessToken").as_string());
  EXPECT_TRUE(token.starts_with("at."));
  const std::string second = TokenFor(credentials);
  EXPECT_NE(token, second);

  auto active = Introspect(token, token);
  ASSERT_EQ(active.status, 200) << active.body;
  const boost::json::value active_json = active.Json();
  const auto& claims = active_json.as_object();
  EXPECT_EQ(claims.at("active"), true);
  EXPECT_EQ(claims.at("clientId"), credentials.client_id.c_str());
  EXPECT_EQ(claims.at("organizationId"), "org_acme");
  EXPECT_EQ(claims.at("scope"), "contracts:read contracts:create");
  EXPECT_EQ(claims.at("tokenType"), "Bearer");
  EXPECT_EQ(claims.at("exp").as_int64() - claims.at("iat").as_int64(), 3600);

  auto revoked = Revoke(second, token);
  EXPECT_EQ(revoked.status, 200) << revoked.body;
  EXPECT_EQ(revoked.body, "{}");
  // At once: the very next request with it is refused.
  ExpectUnauthenticated(Introspect(token, second), "revoked token");
  EXPECT_EQ(Introspect(second, token).body, R"({"active":false})");
  // Revoking again, or revoking garbage, is still 200 (RFC 7009) and writes nothing.
  EXPECT_EQ(Revoke(second, token).status, 200);
  EXPECT_EQ(Revoke(second, "at.garbage.garbage").status, 200);
  EXPECT_EQ(Revoke(second, "").status, 200);
  // A token may revoke itself.
  EXPECT_EQ(Revoke(second, second).status, 200);
  ExpectUnauthenticated(Introspect(second, second), "self-revoked token");

  StopServer(*server);
  EXPECT_EQ(CountEvents("token.revoked"), 2u);

  // Revocations survive a restart.
  auto restarted = StartServer();
  ASSERT_NE(port_, 0);
  ExpectUnauthenticated(Introspect(token, token), "revoked token after restart");
  EXPECT_FALSE(TokenFor(credentials).empty());
  StopServer(*restarted);
}

TEST_F(ContractdAuthTest, WrongCredentialsGetOneAnswerWhetherTheClientExistsOrNot) {
  const Credentials credentials = ParseCreated(CreateClient("org_a", "contracts:read"));
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  HttpClient client(port_);
  auto attempt = [&](const std::string& id, const std::string& secret) {
    const auto start = std::chrono::steady_clock::now();
    auto response = client.Post(
        "/api/v1/auth/machine-token",
        boost::json::serialize(boost::json::object{{"clientId", id}, {"clientSecret", secret}}));
    return std::pair{response, std::chrono::steady_clock::now() - start};
  };
  auto [wrong, wrong_time] = attempt(credentials.client_id, credentials.client_secret + "x");
  auto [unknown, unknown_time] = attempt("cli_01NOSUCHCLIENT0000000000", credentials.client_secret);
  for (const auto* response : {&wrong, &unknown}) {
    EXPECT_EQ(response->status, 401) << response->body;
    EXPECT_EQ(response->ErrorCode(), "INVALID_CLIENT");
  }
  EXPECT_EQ(WithoutRequestId(wrong), WithoutRequestId(unknown));
  EXPECT_EQ(wrong.headers.size(), unknown.headers.size());
  // Both ran a full PBKDF2 verification (about 30 ms); an unknown id is not answered early.
  EXPECT_GT(wrong_time, 10ms);
  EXPECT_GT(unknown_time, 10ms);
  StopServer(*server);
}

// Issue 30: wrong secrets were checked for anyone, as fast as they came. Failures are now counted
// per address and per client id; beyond either limit the endpoint answers 429 without checking.
TEST_F(ContractdAuthTest, FailedTokenRequestsAreLimitedPerAddressAndPerClientId) {
  const Credentials a = ParseCreated(CreateClient("org_a", "contracts:read"));
  const Credentials b = ParseCreated(CreateClient("org_a", "contracts:read"));
  auto server =
      StartServer({"--token-failures-per-address", "3", "--token-failures-per-client", "5"});
  ASSERT_NE(port_, 0);
  auto ask = [&](const std::string& from, const Credentials& who, const std::string& secret) {
    return HttpClient(port_, from)
        .Post("/api/v1/auth/machine-token",
              boost::json::serialize(
                  boost::json::object{{"clientId", who.client_id}, {"clientSecret", secret}}));
  };
  const std::string wrong = a.client_secret + "x";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ask("127.0.0.1", a, wrong).status, 401);
  auto limited = ask("127.0.0.1", a, wrong);
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_EQ(limited.ErrorCode(), "RATE_LIMITED");
  EXPECT_EQ(limited.Json().at("error").at("message"),
            "too many failed authentications; retry later");
  // Three a minute: one more every 20 s, less what refilled while the three were checked.
  EXPECT_GE(std::stoi(limited.Header("retry-after")), 1);
  EXPECT_LE(std::stoi(limited.Header("retry-after")), 20);
  EXPECT_EQ(limited.Header("cache-control"), "no-store");
  // The address is refused whatever it sends; another address is not.
  EXPECT_EQ(ask("127.0.0.1", b, b.client_secret).status, 429);
  EXPECT_EQ(ask("127.0.0.2", a, a.client_secret).status, 200);
  // Two more failures of client a, from a second address, reach its limit of five: from then on
  // client a is refused from any address, even with its secret, until the minute refills.
  for (int i = 0; i < 2; ++i) EXPECT_EQ(ask("127.0.0.2", a, wrong).status, 401);
  auto by_client = ask("127.0.0.3", a, a.client_secret);
  EXPECT_EQ(by_client.status, 429) << by_client.body;
  EXPECT_GE(std::stoi(by_client.Header("retry-after")), 1);
  EXPECT_LE(std::stoi(by_client.Header("retry-after")), 12);
  EXPECT_EQ(ask("127.0.0.3", b, b.client_secret).status, 200);
  StopServer(*server);
}

// A flood of wrong secrets fills the check queue (one thread, one waiting): what does not fit is
// answered 503 at once, and the other routes and clients keep being served meanwhile.
TEST_F(ContractdAuthTest, AFloodOfWrongSecretsIsAnsweredAtOnceWhenTheCheckQueueIsFull) {
  const Credentials a = ParseCreated(CreateClient("org_a", "contracts:read"));
  const Credentials b = ParseCreated(CreateClient("org_a", "templates:read"));
  auto server =
      StartServer({"--token-check-threads", "1", "--token-check-queue", "1",
                   "--token-failures-per-address", "0", "--token-failures-per-client", "0"});
  ASSERT_NE(port_, 0);
  const std::string token_b = TokenFor(b);
  const std::string wrong = boost::json::serialize(
      boost::json::object{{"clientId", a.client_id}, {"clientSecret", a.client_secret + "x"}});
  std::atomic<bool> flooding{true};
  std::atomic<int> unavailable{0};
  std::atomic<int> unexpected{0};
  HttpResult full;
  std::mutex full_mutex;
  std::vector<std::thread> flood;
  for (int t = 0; t < 12; ++t) {
    flood.emplace_back([&] {
      HttpClient client(port_);
      for (int i = 0; i < 200 && (flooding || unavailable == 0); ++i) {
        auto response = client.Post("/api/v1/auth/machine-token", wrong);
        if (response.status == 503) {
          if (unavailable++ == 0) {
            std::lock_guard lock(full_mutex);
            full = response;
          }
        } else if (response.status != 401) {
          ++unexpected;
        }
      }
    });
  }
  HttpClient other(port_);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(other.Get("/healthz").status, 200);
    EXPECT_EQ(other.Get("/api/v1/templates", {{"Authorization", "Bearer " + token_b}}).status, 200);
    const int status = other
                           .Post("/api/v1/auth/machine-token",
                                 boost::json::serialize(boost::json::object{
                                     {"clientId", b.client_id}, {"clientSecret", b.client_secret}}))
                           .status;
    EXPECT_TRUE(status == 200 || status == 503) << status;
  }
  flooding = false;
  for (auto& thread : flood) thread.join();
  EXPECT_EQ(unexpected, 0);
  ASSERT_GT(unavailable, 0);
  EXPECT_EQ(full.ErrorCode(), "UNAVAILABLE") << full.body;
  EXPECT_EQ(full.Header("retry-after"), "1");
  EXPECT_FALSE(TokenFor(b).empty());
  StopServer(*server);
}

// Issue 30: a repeated 400 KB parameter name was echoed whole (a 400,076-byte answer).
TEST_F(ContractdAuthTest, TheTokenFormEchoesARepeatedParameterNameCut) {
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  const std::string name(400'000, 'n');
  auto response = HttpClient(port_).Post(
      "/api/v1/auth/machine-token", "grant_type=client_credentials&" + name + "=1&" + name + "=2",
      {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(response.status, 400);
  EXPECT_LT(response.body.size(), 1024u);
  EXPECT_EQ(response.Json().at("error"), "invalid_request");
  EXPECT_EQ(response.Json().at("error_description").as_string(),
            "the parameter " + name.substr(0, 256) + "... is repeated");
  StopServer(*server);
}

TEST_F(ContractdAuthTest, EveryBadTokenIsUnauthenticated) {
  const Credentials credentials = ParseCreated(CreateClient("org_a", "contracts:read"));
  // Two seconds: exp is whole seconds, so the token lives at least one second after it is issued.
  auto server = StartServer({"--token-lifetime", "2"});
  ASSERT_NE(port_, 0);
  const std::string token = TokenFor(credentials);
  const size_t dot = token.rfind('.');

  // The same claims signed under another key: a forgery.
  const std::string signed_part = token.substr(0, dot);
  const std::string other_key(32, 'f');
  unsigned char mac[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), other_key.data(), 32,
       reinterpret_cast<const unsigned char*>(signed_part.data()), signed_part.size(), mac,
       &length);
  const std::string forged =
      signed_part + "." + Base64UrlEncode(std::string(reinterpret_cast<char*>(mac), 32));
  // Claims changed (another organization) under the original MAC.
  auto payload = boost::json::parse(*Base64UrlDecode(token.substr(3, dot - 3)));
  payload.as_object()["org"] = "org_other";
  const std::string tampered =
      "at." + Base64UrlEncode(boost::json::serialize(payload)) + token.substr(dot);

  HttpClient client(port_);
  const std::string body = Body("token", token);
  ExpectUnauthenticated(client.Post("/api/v1/auth/introspect", body), "missing header");
  for (const auto& [what, header] : std::vector<std::pair<std::string, std::string>>{
           {"empty bearer", "Bearer "},
           {"basic scheme", "Basic " + token},
           {"malformed", "Bearer at.abc"},
           {"not ours", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc"},
           {"forged", "Bearer " + forged},
           {"tampered", "Bearer " + tampered},
           {"truncated", "Bearer " + token.substr(0, token.size() - 2)},
       }) {
    auto response = client.Post("/api/v1/auth/introspect", body, {{"Authorization", header}});
    ExpectUnauthenticated(response, what);
  }
  // The real token, for contrast, then after it expired: it says when (RFC 6750's
  // error_description and the body alike). Its forgery, expired as well, still says nothing.
  EXPECT_EQ(
      client.Post("/api/v1/auth/introspect", body, {{"Authorization", "Bearer " + token}}).status,
      200);
  auto forged_answer =
      client.Post("/api/v1/auth/introspect", body, {{"Authorization", "Bearer " + forged}});
  std::this_thread::sleep_for(3100ms);
  auto expired =
      client.Post("/api/v1/auth/introspect", body, {{"Authorization", "Bearer " + token}});
  ExpectUnauthenticated(expired, "expired");
  const int64_t exp = payload.at("exp").as_int64();
  const std::string expired_at = FormatTimestamp(exp * kMicrosPerSecond);
  EXPECT_EQ(expired.Json().at("error").at("message").as_string(),
            "the access token expired at " + expired_at)
      << expired.body;
  EXPECT_EQ(expired.Json().at("error").at("details"),
            boost::json::parse(R"([{"field":"Authorization","issue":"expired at )" + expired_at +
                               R"("}])"));
  EXPECT_EQ(expired.Header("www-authenticate"),
            R"(Bearer realm="contract-api", error="invalid_token", )"
            R"(error_description="the access token expired at )" +
                expired_at + "\"");
  for (const auto& [what, refused] :
       {std::pair{"forged", forged}, std::pair{"tampered", tampered}}) {
    auto answer =
        client.Post("/api/v1/auth/introspect", body, {{"Authorization", "Bearer " + refused}});
    ExpectUnauthenticated(answer, what);
    EXPECT_EQ(WithoutRequestId(answer), WithoutRequestId(forged_answer)) << what;
    EXPECT_EQ(answer.Header("www-authenticate"),
              R"(Bearer realm="contract-api", error="invalid_token", )"
              R"(error_description="invalid or expired token")")
        << what;
  }
  StopServer(*server);
}

TEST_F(ContractdAuthTest, RequestBodiesAreChecked) {
  const Credentials credentials = ParseCreated(CreateClient("org_a", "contracts:read"));
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  const std::string token = TokenFor(credentials);
  HttpClient client(port_);
  const std::map<std::string, std::string> auth{{"Authorization", "Bearer " + token}};

  auto malformed = client.Post("/api/v1/auth/machine-token", R"({"clientId":)");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(malformed.ErrorCode(), "VALIDATION_FAILED");
  auto wrong_type =
      client.Post("/api/v1/auth/machine-token", "clientId=a", {{"Content-Type", "text/plain"}});
  EXPECT_EQ(wrong_type.status, 415) << wrong_type.body;
  EXPECT_EQ(client
                .Post("/api/v1/auth/introspect", "token",
                      {{"Content-Type", "text/plain"}, {"Authorization", "Bearer " + token}})
                .status,
            415);
  for (const auto& [body, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"clientSecret":"x"})", "clientId"},
           {R"({"clientId":"cli_x"})", "clientSecret"},
           {R"({"clientId":42,"clientSecret":"x"})", "clientId"},
           {R"({"clientId":"cli_x","clientSecret":null})", "clientSecret"},
       }) {
    auto response = client.Post("/api/v1/auth/machine-token", body);
    EXPECT_EQ(response.status, 400) << body;
    ASSERT_EQ(response.Json().at("error").at("details").as_array().size(), 1u) << response.body;
    EXPECT_EQ(response.Json().at("error").at("details").at(0).at("field"), field.c_str()) << body;
  }
  EXPECT_EQ(client.Post("/api/v1/auth/machine-token", "[]").status, 400);
  EXPECT_EQ(client.Post("/api/v1/auth/machine-token", "").status, 400);
  for (const char* path : {"/api/v1/auth/introspect", "/api/v1/auth/revoke"}) {
    auto missing = client.Post(path, "{}", auth);
    EXPECT_EQ(missing.status, 400) << path;
    EXPECT_EQ(missing.Json().at("error").at("details").at(0).at("field"), "token");
    EXPECT_EQ(client.Post(path, R"({"token":7})", auth).status, 400) << path;
    EXPECT_EQ(client.Post(path, "{", auth).status, 400) << path;
  }
  EXPECT_EQ(client.Get("/api/v1/auth/machine-token").status, 405);
  StopServer(*server);
  EXPECT_EQ(CountEvents("token.revoked"), 0u);
}

TEST_F(ContractdAuthTest, OrganizationsSeeAndRevokeOnlyTheirOwnTokens) {
  const Credentials a = ParseCreated(CreateClient("org_a", "contracts:read"));
  const Credentials b = ParseCreated(CreateClient("org_b", "contracts:read"));
  auto server = StartServer();
  ASSERT_NE(port_, 0);
  const std::string token_a = TokenFor(a);
  const std::string token_b = TokenFor(b);

  EXPECT_EQ(Introspect(token_b, token_a).body, R"({"active":false})");
  EXPECT_EQ(Revoke(token_b, token_a).status, 200);
  // Still working: another organization cannot revoke it.
  EXPECT_EQ(Introspect(token_a, token_a).Json().at("active"), true);
  StopServer(*server);
  EXPECT_EQ(CountEvents("token.revoked"), 0u);
  EXPECT_EQ(CountEvents("client.created"), 2u);
}

}  // namespace
}  // namespace esign::testing
