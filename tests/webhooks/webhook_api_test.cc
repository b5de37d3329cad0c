// The webhook endpoint operations end to end: contractd on a fresh data directory, spoken to over
// loopback. Every refusal is checked to leave the log (its size, from /metrics) and the secret
// files exactly as they were.
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "tests/app/contractd_fixture.h"
#include "webhooks/endpoint.h"

namespace esign::testing {
namespace {

using boost::beast::http::verb;
using boost::json::object;

const std::string kEndpoints = "/api/v1/webhooks/endpoints";

class WebhookApiTest : public ContractdFixture {
 protected:
  void Start(std::vector<std::string> flags = {"--webhook-allow-loopback", "true"}) {
    server_ = StartServer(std::move(flags));
    token_a_ = Token("org_a", "webhooks:manage");
    token_b_ = Token("org_b", "webhooks:manage");
    token_no_permission_ = Token("org_a", "contracts:read");
  }
  void TearDown() override {
    if (server_) StopServer(*server_);
    ContractdFixture::TearDown();
  }

  std::string Token(const std::string& org, const std::string& permissions) {
    return TokenFor(ParseCreated(CreateClient(org, permissions)));
  }

  HttpResult Call(verb method, const std::string& target, const std::string& token,
                  const std::string& body = "", std::map<std::string, std::string> headers = {}) {
    headers["Authorization"] = "Bearer " + token;
    return client().Send(method, target, body, headers);
  }

  HttpClient& client() {
    if (!client_) client_ = std::make_unique<HttpClient>(port_);
    return *client_;
  }

  object CreateEndpoint(const std::string& token,
                        const std::string& url = "http://127.0.0.1:9/hook") {
    auto response =
        Call(verb::post, kEndpoints, token,
             R"({"url":")" + url + R"(","eventTypes":["contract.sent","contract.completed"],
                             "description":"CRM sync"})");
    EXPECT_EQ(response.status, 201) << response.body;
    return response.Json().is_object() ? response.Json().as_object() : object{};
  }

  uint64_t LogSize() {
    auto metrics = client().Get("/metrics").body;
    std::smatch match;
    EXPECT_TRUE(std::regex_search(metrics, match, std::regex(R"(contractd_log_events (\d+))")));
    return match.empty() ? 0 : std::stoull(match[1]);
  }

  // Every endpoint's secret file with its contents (the directory also holds the Kafka message
  // key, message_auth.h).
  std::map<std::string, std::string> SecretFiles() {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(data_dir_ / "webhook-secrets")) {
      if (!entry.path().filename().string().starts_with("whe_")) continue;
      std::ifstream in(entry.path());
      std::stringstream bytes;
      bytes << in.rdbuf();
      files[entry.path().filename().string()] = bytes.str();
    }
    return files;
  }

  // The refusal, and nothing stored changed.
  void ExpectRefused(const HttpResult& response, int status, const std::string& code,
                     uint64_t log_before,
                     const std::map<std::string, std::string>& secrets_before) {
    EXPECT_EQ(response.status, status) << response.body;
    EXPECT_EQ(response.ErrorCode(), code) << response.body;
    EXPECT_EQ(LogSize(), log_before);
    EXPECT_EQ(SecretFiles(), secrets_before);
  }

  std::unique_ptr<ChildProcess> server_;
  std::unique_ptr<HttpClient> client_;
  std::string token_a_;
  std::string token_b_;
  std::string token_no_permission_;
};

TEST_F(WebhookApiTest, EndpointLifecycleFromCreateToDelete) {
  Start();
  const object created = CreateEndpoint(token_a_);
  const std::string id(created.at("id").as_string());
  EXPECT_TRUE(id.starts_with("whe_"));
  const std::string secret(created.at("secret").as_string());
  EXPECT_TRUE(secret.starts_with("whsec_"));
  EXPECT_EQ(created.at("enabled").as_bool(), true);
  EXPECT_EQ(created.at("description").as_string(), "CRM sync");

  auto got = Call(verb::get, kEndpoints + "/" + id, token_a_);
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_FALSE(got.Json().as_object().contains("secret"));
  EXPECT_EQ(got.Json().at("url").as_string(), "http://127.0.0.1:9/hook");

  auto listed = Call(verb::get, kEndpoints, token_a_);
  ASSERT_EQ(listed.status, 200) << listed.body;
  ASSERT_EQ(listed.Json().at("items").as_array().size(), 1u);
  EXPECT_EQ(listed.Json().at("items").at(0).at("id").as_string(), id);
  EXPECT_TRUE(listed.Json().at("nextCursor").is_null());

  auto patched = Call(verb::patch, kEndpoints + "/" + id, token_a_,
                      R"({"enabled":false,"eventTypes":["contract.declined"]})");
  ASSERT_EQ(patched.status, 200) << patched.body;
  EXPECT_FALSE(patched.Json().at("enabled").as_bool());
  EXPECT_EQ(patched.Json().at("eventTypes").as_array().size(), 1u);
  // A PATCH that changes nothing writes nothing.
  const uint64_t before_noop = LogSize();
  EXPECT_EQ(Call(verb::patch, kEndpoints + "/" + id, token_a_, R"({"enabled":false})").status, 200);
  EXPECT_EQ(LogSize(), before_noop);

  auto rotated = Call(verb::post, kEndpoints + "/" + id + "/rotate-secret", token_a_);
  ASSERT_EQ(rotated.status, 200) << rotated.body;
  const std::string new_secret(rotated.Json().at("secret").as_string());
  EXPECT_TRUE(new_secret.starts_with("whsec_"));
  EXPECT_NE(new_secret, secret);
  EXPECT_FALSE(rotated.Json().at("previousSecretExpiresAt").as_string().empty());
  // Both secrets sign for now, in the endpoint's 0600 file.
  const std::string file = SecretFiles().at(id + ".json");
  EXPECT_NE(file.find(secret), std::string::npos);
  EXPECT_NE(file.find(new_secret), std::string::npos);

  auto deleted = Call(verb::delete_, kEndpoints + "/" + id, token_a_);
  EXPECT_EQ(deleted.status, 204) << deleted.body;
  EXPECT_EQ(Call(verb::get, kEndpoints + "/" + id, token_a_).status, 404);
  EXPECT_TRUE(Call(verb::get, kEndpoints, token_a_).Json().at("items").as_array().empty());
  EXPECT_TRUE(SecretFiles().empty());

  // No secret ever reached the log (and so neither Kafka).
  StopServer(*server_);
  server_.reset();
  for (const auto& event : StoredEvents()) {
    EXPECT_EQ(event.data.find("whsec_"), std::string::npos) << event.type;
    EXPECT_EQ(event.data.find(secret.substr(6)), std::string::npos) << event.type;
  }
}

TEST_F(WebhookApiTest, ListPagesWithTamperProofCursors) {
  Start();
  std::set<std::string> ids;
  for (int i = 0; i < 3; ++i)
    ids.insert(std::string(CreateEndpoint(token_a_).at("id").as_string()));
  CreateEndpoint(token_b_);  // another organization's: never listed for org_a
  auto first = Call(verb::get, kEndpoints + "?limit=2", token_a_);
  ASSERT_EQ(first.status, 200) << first.body;
  ASSERT_EQ(first.Json().at("items").as_array().size(), 2u);
  const std::string cursor(first.Json().at("nextCursor").as_string());
  auto second = Call(verb::get, kEndpoints + "?limit=2&cursor=" + cursor, token_a_);
  ASSERT_EQ(second.status, 200) << second.body;
  ASSERT_EQ(second.Json().at("items").as_array().size(), 1u);
  EXPECT_TRUE(second.Json().at("nextCursor").is_null());
  std::set<std::string> seen;
  for (const auto* page : {&first, &second}) {
    for (const auto& item : page->Json().at("items").as_array()) {
      seen.insert(std::string(item.at("id").as_string()));
    }
  }
  EXPECT_EQ(seen, ids);
  // A cursor of org_a's listing is no good for org_b, nor altered.
  EXPECT_EQ(Call(verb::get, kEndpoints + "?cursor=" + cursor, token_b_).ErrorCode(),
            "INVALID_CURSOR");
  std::string altered = cursor;
  altered[altered.size() / 2] = altered[altered.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_EQ(Call(verb::get, kEndpoints + "?cursor=" + altered, token_a_).ErrorCode(),
            "INVALID_CURSOR");
}

TEST_F(WebhookApiTest, EveryBadRequestLeavesTheStoreUnchanged) {
  Start();
  const std::string id(CreateEndpoint(token_a_).at("id").as_string());
  const std::string other(CreateEndpoint(token_b_).at("id").as_string());
  const uint64_t log = LogSize();
  const auto secrets = SecretFiles();
  const std::string path = kEndpoints + "/" + id;

  // Create.
  for (const char* body : {
           R"({"url":"https://hooks.example.com/x"})",
           R"({"eventTypes":["contract.sent"]})",
           R"({"url":"http://hooks.example.com/x","eventTypes":["contract.sent"]})",
           R"({"url":"https://10.0.0.1/x","eventTypes":["contract.sent"]})",
           R"({"url":"https://169.254.169.254/latest","eventTypes":["contract.sent"]})",
           // Loopback through IPv4-compatible IPv6, refused although loopback is allowed here.
           R"({"url":"https://[::127.0.0.1]/x","eventTypes":["contract.sent"]})",
           R"({"url":"https://[2002:7f00:1::1]/x","eventTypes":["contract.sent"]})",
           R"({"url":"https://hooks.example.com%0d%0ax/x","eventTypes":["contract.sent"]})",
           R"({"url":"https://u:p@hooks.example.com/","eventTypes":["contract.sent"]})",
           R"({"url":"https://hooks.example.com/x","eventTypes":["contract.unknown"]})",
           R"({"url":"https://hooks.example.com/x","eventTypes":[]})",
           R"({"url":"https://hooks.example.com/x","eventTypes":["contract.sent"],"secret":"x"})",
           R"({"url":"https://hooks.example.com/x","eventTypes":["contract.sent"],"enabled":1})",
           R"(["not an object"])",
           R"({"url":)",
       }) {
    SCOPED_TRACE(body);
    ExpectRefused(Call(verb::post, kEndpoints, token_a_, body), 400, "VALIDATION_FAILED", log,
                  secrets);
  }
  ExpectRefused(Call(verb::post, kEndpoints, token_a_, "url=x", {{"Content-Type", "text/plain"}}),
                415, "UNSUPPORTED_MEDIA_TYPE", log, secrets);
  // Update.
  for (const char* body : {R"({})", R"({"url":"ftp://hooks.example.com/"})", R"({"description":5})",
                           R"({"id":"whe_x"})"}) {
    SCOPED_TRACE(body);
    ExpectRefused(Call(verb::patch, path, token_a_, body), 400, "VALIDATION_FAILED", log, secrets);
  }
  // Another organization's endpoint, or none, is not found, whatever the operation.
  for (const std::string& target :
       {kEndpoints + "/" + other, kEndpoints + "/whe_missing", kEndpoints + "/..%2Fx"}) {
    SCOPED_TRACE(target);
    ExpectRefused(Call(verb::get, target, token_a_), 404, "WEBHOOK_ENDPOINT_NOT_FOUND", log,
                  secrets);
    ExpectRefused(Call(verb::patch, target, token_a_, R"({"enabled":false})"), 404,
                  "WEBHOOK_ENDPOINT_NOT_FOUND", log, secrets);
    ExpectRefused(Call(verb::delete_, target, token_a_), 404, "WEBHOOK_ENDPOINT_NOT_FOUND", log,
                  secrets);
    ExpectRefused(Call(verb::post, target + "/rotate-secret", token_a_), 404,
                  "WEBHOOK_ENDPOINT_NOT_FOUND", log, secrets);
  }
  // Deliveries of another organization's endpoint, or of none; a delivery that does not exist.
  for (const std::string& target : {kEndpoints + "/" + other, kEndpoints + "/whe_missing"}) {
    ExpectRefused(Call(verb::get, target + "/deliveries", token_a_), 404,
                  "WEBHOOK_ENDPOINT_NOT_FOUND", log, secrets);
  }
  ExpectRefused(Call(verb::get, path + "/deliveries?limit=500", token_a_), 400, "VALIDATION_FAILED",
                log, secrets);
  ExpectRefused(Call(verb::get, path + "/deliveries?cursor=abc", token_a_), 400, "INVALID_CURSOR",
                log, secrets);
  ExpectRefused(Call(verb::post, "/api/v1/webhooks/deliveries/dlv_missing/retry", token_a_), 404,
                "WEBHOOK_DELIVERY_NOT_FOUND", log, secrets);
  // List.
  ExpectRefused(Call(verb::get, kEndpoints + "?limit=0", token_a_), 400, "VALIDATION_FAILED", log,
                secrets);
  ExpectRefused(Call(verb::get, kEndpoints + "?color=red", token_a_), 400, "VALIDATION_FAILED", log,
                secrets);
  ExpectRefused(Call(verb::get, kEndpoints + "?cursor=garbage", token_a_), 400, "INVALID_CURSOR",
                log, secrets);
  // Without webhooks:manage, every operation is 403.
  const std::string& weak = token_no_permission_;
  ExpectRefused(Call(verb::post, kEndpoints, weak,
                     R"({"url":"http://127.0.0.1:9/","eventTypes":["contract.sent"]})"),
                403, "PERMISSION_DENIED", log, secrets);
  ExpectRefused(Call(verb::get, kEndpoints, weak), 403, "PERMISSION_DENIED", log, secrets);
  ExpectRefused(Call(verb::get, path, weak), 403, "PERMISSION_DENIED", log, secrets);
  ExpectRefused(Call(verb::patch, path, weak, R"({"enabled":false})"), 403, "PERMISSION_DENIED",
                log, secrets);
  ExpectRefused(Call(verb::delete_, path, weak), 403, "PERMISSION_DENIED", log, secrets);
  ExpectRefused(Call(verb::post, path + "/rotate-secret", weak), 403, "PERMISSION_DENIED", log,
                secrets);
  ExpectRefused(Call(verb::get, path + "/deliveries", weak), 403, "PERMISSION_DENIED", log,
                secrets);
  ExpectRefused(Call(verb::post, "/api/v1/webhooks/deliveries/dlv_x/retry", weak), 403,
                "PERMISSION_DENIED", log, secrets);
  // Without a token, 401.
  ExpectRefused(client().Get(kEndpoints), 401, "UNAUTHENTICATED", log, secrets);
}

TEST_F(WebhookApiTest, IdempotencyKeyReplaysTheCreationWithTheSameSecret) {
  Start();
  const std::string body =
      R"({"url":"http://127.0.0.1:9/hook","eventTypes":["contract.sent"],"description":"ERP"})";
  auto first = Call(verb::post, kEndpoints, token_a_, body, {{"Idempotency-Key", "create-1"}});
  ASSERT_EQ(first.status, 201) << first.body;
  const std::string id(first.Json().at("id").as_string());
  const uint64_t log = LogSize();
  const auto secrets = SecretFiles();

  // The answer was lost: the retry gets the same endpoint and secret, and nothing is written.
  auto again = Call(verb::post, kEndpoints, token_a_, body, {{"Idempotency-Key", "create-1"}});
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(again.Json(), first.Json());
  EXPECT_TRUE(again.Json().at("secret").as_string().starts_with("whsec_"));
  EXPECT_EQ(again.headers.at("location"), kEndpoints + "/" + id);
  EXPECT_EQ(LogSize(), log);
  EXPECT_EQ(SecretFiles(), secrets);
  EXPECT_EQ(Call(verb::get, kEndpoints, token_a_).Json().at("items").as_array().size(), 1u);

  // The same key with another body, or on another operation, is refused and changes nothing.
  const std::string other_body =
      R"({"url":"http://127.0.0.1:9/other","eventTypes":["contract.sent"]})";
  ExpectRefused(
      Call(verb::post, kEndpoints, token_a_, other_body, {{"Idempotency-Key", "create-1"}}), 409,
      "IDEMPOTENCY_KEY_REUSED", log, secrets);
  ExpectRefused(Call(verb::post, kEndpoints + "/" + id + "/rotate-secret", token_a_, "",
                     {{"Idempotency-Key", "create-1"}}),
                409, "IDEMPOTENCY_KEY_REUSED", log, secrets);
  ExpectRefused(
      Call(verb::post, kEndpoints, token_a_, body, {{"Idempotency-Key", std::string(256, 'k')}}),
      400, "VALIDATION_FAILED", log, secrets);
  // A bad body with a fresh key reserves nothing: the key stays usable.
  ExpectRefused(Call(verb::post, kEndpoints, token_a_, R"({"url":"ftp://x/"})",
                     {{"Idempotency-Key", "create-2"}}),
                400, "VALIDATION_FAILED", log, secrets);

  // Keys are scoped per client: another client's same key creates its own endpoint.
  const std::string token_a2 = Token("org_a", "webhooks:manage");
  auto other_client =
      Call(verb::post, kEndpoints, token_a2, body, {{"Idempotency-Key", "create-1"}});
  ASSERT_EQ(other_client.status, 201) << other_client.body;
  EXPECT_NE(other_client.Json().at("id").as_string(), id);
  EXPECT_NE(other_client.Json().at("secret"), first.Json().at("secret"));

  // Once the secret was rotated, the first one is no longer in effect: the replay has no secret
  // (the rotation's answer carried the current one); likewise once the endpoint is deleted.
  ASSERT_EQ(Call(verb::post, kEndpoints + "/" + id + "/rotate-secret", token_a_).status, 200);
  const uint64_t after_rotation = LogSize();
  const auto secrets_after_rotation = SecretFiles();
  auto rotated_since =
      Call(verb::post, kEndpoints, token_a_, body, {{"Idempotency-Key", "create-1"}});
  ASSERT_EQ(rotated_since.status, 201) << rotated_since.body;
  EXPECT_EQ(rotated_since.Json().at("id").as_string(), id);
  EXPECT_TRUE(rotated_since.Json().at("secret").is_null());
  EXPECT_EQ(LogSize(), after_rotation);
  EXPECT_EQ(SecretFiles(), secrets_after_rotation);
  ASSERT_EQ(Call(verb::delete_, kEndpoints + "/" + id, token_a_).status, 204);
  const uint64_t after_delete = LogSize();
  auto deleted_since =
      Call(verb::post, kEndpoints, token_a_, body, {{"Idempotency-Key", "create-1"}});
  ASSERT_EQ(deleted_since.status, 201) << deleted_since.body;
  EXPECT_EQ(deleted_since.Json().at("id").as_string(), id);
  EXPECT_TRUE(deleted_since.Json().at("secret").is_null());
  EXPECT_EQ(LogSize(), after_delete);
  EXPECT_EQ(Call(verb::get, kEndpoints + "/" + id, token_a_).status, 404);
}

TEST_F(WebhookApiTest, IdempotencyKeyReplaysARotationWithoutRotatingAgain) {
  Start();
  const std::string id(CreateEndpoint(token_a_).at("id").as_string());
  const std::string other(CreateEndpoint(token_a_).at("id").as_string());
  const std::string rotate = kEndpoints + "/" + id + "/rotate-secret";
  auto first = Call(verb::post, rotate, token_a_, "", {{"Idempotency-Key", "rotate-1"}});
  ASSERT_EQ(first.status, 200) << first.body;
  const uint64_t log = LogSize();
  const auto secrets = SecretFiles();

  auto again = Call(verb::post, rotate, token_a_, "", {{"Idempotency-Key", "rotate-1"}});
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.Json(), first.Json());
  EXPECT_TRUE(again.Json().at("secret").as_string().starts_with("whsec_"));
  EXPECT_EQ(LogSize(), log);
  EXPECT_EQ(SecretFiles(), secrets) << "the replay rotated again";

  // The same key on another endpoint is another request.
  ExpectRefused(Call(verb::post, kEndpoints + "/" + other + "/rotate-secret", token_a_, "",
                     {{"Idempotency-Key", "rotate-1"}}),
                409, "IDEMPOTENCY_KEY_REUSED", log, secrets);
  // A missing endpoint is not found, and reserves nothing.
  ExpectRefused(Call(verb::post, kEndpoints + "/whe_missing/rotate-secret", token_a_, "",
                     {{"Idempotency-Key", "rotate-2"}}),
                404, "WEBHOOK_ENDPOINT_NOT_FOUND", log, secrets);

  // After a later rotation the replay still answers the first one, without its secret, which no
  // longer is the one in effect.
  auto later = Call(verb::post, rotate, token_a_);
  ASSERT_EQ(later.status, 200) << later.body;
  const uint64_t after_later = LogSize();
  const auto secrets_after_later = SecretFiles();
  auto replayed = Call(verb::post, rotate, token_a_, "", {{"Idempotency-Key", "rotate-1"}});
  ASSERT_EQ(replayed.status, 200) << replayed.body;
  EXPECT_TRUE(replayed.Json().at("secret").is_null());
  EXPECT_EQ(replayed.Json().at("previousSecretExpiresAt"),
            first.Json().at("previousSecretExpiresAt"));
  EXPECT_EQ(LogSize(), after_later);
  EXPECT_EQ(SecretFiles(), secrets_after_later);
}

TEST_F(WebhookApiTest, AnOrganizationHasAtMostTwentyEndpoints) {
  Start();
  ASSERT_EQ(webhooks::kMaxEndpointsPerOrganization, 20u);
  std::set<std::string> ids;
  for (size_t i = 0; i < webhooks::kMaxEndpointsPerOrganization; ++i) {
    ids.insert(std::string(CreateEndpoint(token_a_).at("id").as_string()));
  }
  ASSERT_EQ(ids.size(), 20u);
  const uint64_t log = LogSize();
  const auto secrets = SecretFiles();
  auto listed = [&] {
    auto response = Call(verb::get, kEndpoints + "?limit=50", token_a_);
    std::set<std::string> items;
    for (const auto& item : response.Json().at("items").as_array()) {
      items.insert(std::string(item.at("id").as_string()));
    }
    return items;
  };

  // The 21st: 400, nothing written, the list as it was.
  auto refused = Call(verb::post, kEndpoints, token_a_,
                      R"({"url":"http://127.0.0.1:9/hook","eventTypes":["contract.sent"]})");
  ExpectRefused(refused, 400, "VALIDATION_FAILED", log, secrets);
  EXPECT_EQ(refused.Json().at("error").at("details").at(0).at("field").as_string(), "body");
  EXPECT_EQ(refused.Json().at("error").at("details").at(0).at("issue").as_string(),
            "at most 20 endpoints per organization; delete one first");
  EXPECT_EQ(listed(), ids);

  // Another organization has its own limit; a deleted endpoint no longer counts.
  CreateEndpoint(token_b_);
  ASSERT_EQ(Call(verb::delete_, kEndpoints + "/" + *ids.begin(), token_a_).status, 204);
  CreateEndpoint(token_a_);
  EXPECT_EQ(Call(verb::post, kEndpoints, token_a_,
                 R"({"url":"http://127.0.0.1:9/hook","eventTypes":["contract.sent"]})")
                .status,
            400);
}

TEST_F(WebhookApiTest, LoopbackUrlsNeedTheDevelopmentFlag) {
  Start({});
  auto refused = Call(verb::post, kEndpoints, token_a_,
                      R"({"url":"http://127.0.0.1:9000/hook","eventTypes":["contract.sent"]})");
  EXPECT_EQ(refused.status, 400) << refused.body;
  EXPECT_EQ(refused.Json().at("error").at("details").at(0).at("field").as_string(), "url");
  CreateEndpoint(token_a_, "https://hooks.example.com/contracts");
}

}  // namespace
}  // namespace esign::testing
