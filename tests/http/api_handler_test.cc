// The API handler without sockets: a request in, a response out through the Respond callback.
#include "http/api_handler.h"

#include <condition_variable>
#include <future>
#include <mutex>
#include <regex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "http/error_response.h"

namespace esign::http {
namespace {

namespace beast_http = boost::beast::http;

class FixedAuthenticator : public Authenticator {
 public:
  Result<Principal> Authenticate(std::string_view token) const override {
    if (token != "good") return Fail(ErrorCode::kUnauthenticated, "invalid or expired token");
    return Principal{
        .client_id = "cli_1", .organization_id = "org_1", .permissions = {"contracts:read"}};
  }
};

class ApiHandlerTest : public ::testing::Test {
 protected:
  ApiHandlerTest() {
    routes_.Add(beast_http::verb::get, "/api/v1/things/{id}",
                {"getThing", Auth::kBearer, [](const ApiRequest& r) -> ApiResult {
                   if (auto ok = RequirePermission(r, "contracts:read"); !ok) {
                     return std::unexpected(ok.error());
                   }
                   return ApiResponse::Json(
                       200, {{"id", r.params.Get("id")}, {"by", r.Caller().client_id}});
                 }});
    routes_.Add(beast_http::verb::post, "/api/v1/things",
                {"createThing", Auth::kBearer, [](const ApiRequest& r) -> ApiResult {
                   auto body = ParseJsonObjectBody(r);
                   if (!body) return std::unexpected(body.error());
                   return ApiResponse::Json(201, *body);
                 }});
    routes_.Add(beast_http::verb::get, "/api/v1/open",
                {"open", Auth::kNone, [](const ApiRequest& r) -> ApiResult {
                   return ApiResponse::Json(200, {{"q", std::string(r.Query("q").value_or(""))}});
                 }});
    handler_ = std::make_unique<ApiHandler>(routes_, &authenticator_,
                                            ApiHandlerOptions{.worker_threads = 2});
  }

  Response Call(beast_http::verb method, const std::string& target, const std::string& body = "",
                const std::map<std::string, std::string>& headers = {}) {
    Request request{method, target, 11};
    for (const auto& [k, v] : headers) request.set(k, v);
    request.body() = body;
    request.prepare_payload();
    std::promise<Response> answered;
    handler_->Handle(std::move(request), RequestContext{"127.0.0.1"},
                     [&](Response r) { answered.set_value(std::move(r)); });
    return answered.get_future().get();
  }

  static std::string Code(const Response& r) {
    return std::string(boost::json::parse(r.body()).at("error").at("code").as_string());
  }

  ApiRoutes routes_;
  FixedAuthenticator authenticator_;
  std::unique_ptr<ApiHandler> handler_;
};

TEST_F(ApiHandlerTest, RoutesAuthenticatesAndAnswers) {
  auto r =
      Call(beast_http::verb::get, "/api/v1/things/t_1", "", {{"Authorization", "Bearer good"}});
  EXPECT_EQ(r.result_int(), 200u);
  EXPECT_EQ(boost::json::parse(r.body()).at("id"), "t_1");
  EXPECT_EQ(boost::json::parse(r.body()).at("by"), "cli_1");
  EXPECT_TRUE(r[beast_http::field::content_type].starts_with("application/json"));
  EXPECT_FALSE(r["X-Request-Id"].empty());
}

TEST_F(ApiHandlerTest, EchoesTheRequestId) {
  auto r = Call(beast_http::verb::get, "/api/v1/open", "", {{"X-Request-Id", "req_mine"}});
  EXPECT_EQ(r["X-Request-Id"], "req_mine");
}

TEST_F(ApiHandlerTest, DecodesQueryParameters) {
  auto r = Call(beast_http::verb::get, "/api/v1/open?q=caf%C3%A9%20au%20lait");
  EXPECT_EQ(boost::json::parse(r.body()).at("q"), "café au lait");
}

TEST_F(ApiHandlerTest, UnknownPathIs404AndWrongMethod405) {
  EXPECT_EQ(Code(Call(beast_http::verb::get, "/api/v1/nothing")), "NOT_FOUND");
  auto wrong = Call(beast_http::verb::delete_, "/api/v1/things/t_1");
  EXPECT_EQ(wrong.result_int(), 405u);
  EXPECT_EQ(Code(wrong), "METHOD_NOT_ALLOWED");
  EXPECT_EQ(wrong["Allow"], "GET, HEAD, OPTIONS");
  auto post_only = Call(beast_http::verb::get, "/api/v1/things");
  EXPECT_EQ(post_only.result_int(), 405u);
  EXPECT_EQ(post_only["Allow"], "POST, OPTIONS");
  auto operational = Call(beast_http::verb::post, "/healthz");
  EXPECT_EQ(operational.result_int(), 405u);
  EXPECT_EQ(operational["Allow"], "GET, HEAD, OPTIONS");
}

TEST_F(ApiHandlerTest, OptionsAnswersAllowWithoutCredentials) {
  auto known = Call(beast_http::verb::options, "/api/v1/things/t_1");
  EXPECT_EQ(known.result_int(), 204u);
  EXPECT_EQ(known["Allow"], "GET, HEAD, OPTIONS");
  EXPECT_TRUE(known.body().empty());
  EXPECT_FALSE(known["X-Request-Id"].empty());
  EXPECT_EQ(Call(beast_http::verb::options, "/metrics")["Allow"], "GET, HEAD, OPTIONS");
  auto unknown = Call(beast_http::verb::options, "/api/v1/nothing");
  EXPECT_EQ(unknown.result_int(), 404u);
  EXPECT_EQ(Code(unknown), "NOT_FOUND");
}

TEST_F(ApiHandlerTest, HeadIsGetWithoutTheBody) {
  const std::map<std::string, std::string> auth{{"Authorization", "Bearer good"}};
  auto get = Call(beast_http::verb::get, "/api/v1/things/t_1", "", auth);
  auto head = Call(beast_http::verb::head, "/api/v1/things/t_1", "", auth);
  EXPECT_EQ(head.result_int(), 200u);
  EXPECT_TRUE(head.body().empty());
  EXPECT_EQ(head[beast_http::field::content_length], std::to_string(get.body().size()));
  EXPECT_EQ(head[beast_http::field::content_type], get[beast_http::field::content_type]);
  // HEAD needs what GET needs.
  auto anonymous = Call(beast_http::verb::head, "/api/v1/things/t_1");
  EXPECT_EQ(anonymous.result_int(), 401u);
  EXPECT_TRUE(anonymous.body().empty());
  EXPECT_EQ(Call(beast_http::verb::head, "/healthz").result_int(), 200u);
  EXPECT_EQ(Call(beast_http::verb::head, "/api/v1/things").result_int(), 405u);
}

TEST_F(ApiHandlerTest, MissingOrBadTokenIs401WithChallenge) {
  auto missing = Call(beast_http::verb::get, "/api/v1/things/t_1");
  EXPECT_EQ(missing.result_int(), 401u);
  EXPECT_EQ(Code(missing), "UNAUTHENTICATED");
  EXPECT_EQ(missing[beast_http::field::www_authenticate], R"(Bearer realm="contract-api")");
  auto refused =
      Call(beast_http::verb::get, "/api/v1/things/t_1", "", {{"Authorization", "Bearer bad"}});
  EXPECT_EQ(Code(refused), "UNAUTHENTICATED");
  EXPECT_TRUE(refused[beast_http::field::www_authenticate].starts_with(
      R"(Bearer realm="contract-api", error="invalid_token")"))
      << refused[beast_http::field::www_authenticate];
  EXPECT_EQ(Code(Call(beast_http::verb::get, "/api/v1/things/t_1", "",
                      {{"Authorization", "Basic good"}})),
            "UNAUTHENTICATED");
}

TEST_F(ApiHandlerTest, BodiesMustBeJson) {
  const std::map<std::string, std::string> auth{{"Authorization", "Bearer good"}};
  auto plain = Call(beast_http::verb::post, "/api/v1/things", "{}",
                    {{"Authorization", "Bearer good"}, {"Content-Type", "text/plain"}});
  EXPECT_EQ(plain.result_int(), 415u);
  auto ok =
      Call(beast_http::verb::post, "/api/v1/things", R"({"a":1})",
           {{"Authorization", "Bearer good"}, {"Content-Type", "application/json; charset=utf-8"}});
  EXPECT_EQ(ok.result_int(), 201u);
  auto broken = Call(beast_http::verb::post, "/api/v1/things", "{",
                     {{"Authorization", "Bearer good"}, {"Content-Type", "application/json"}});
  EXPECT_EQ(broken.result_int(), 400u);
  EXPECT_EQ(Code(broken), "VALIDATION_FAILED");
}

TEST_F(ApiHandlerTest, OperationalRoutesAndMetrics) {
  handler_->SetReady(false);
  EXPECT_EQ(Call(beast_http::verb::get, "/readyz").result_int(), 503u);
  handler_->SetReady(true);
  EXPECT_EQ(Call(beast_http::verb::get, "/readyz").result_int(), 200u);
  EXPECT_EQ(Call(beast_http::verb::get, "/healthz").result_int(), 200u);
  Call(beast_http::verb::get, "/api/v1/things/t_1", "", {{"Authorization", "Bearer good"}});
  const std::string metrics = Call(beast_http::verb::get, "/metrics").body();
  EXPECT_NE(metrics.find(
                R"(contractd_http_requests_total{method="GET",route="getThing",status="200"} 1)"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("contractd_http_request_duration_seconds_bucket"), std::string::npos);
}

TEST(ApiHandlerAccessLogTest, TheDurationIsAPlainDecimal) {
  ApiRoutes routes;
  routes.Add(beast_http::verb::get, "/api/v1/open",
             {"open", Auth::kNone, [](const ApiRequest&) -> ApiResult {
                return ApiResponse::Json(200, {{"ok", true}});
              }});
  std::mutex mutex;
  std::vector<std::string> lines;
  ApiHandler handler(routes, nullptr,
                     ApiHandlerOptions{.worker_threads = 1, .access_log = [&](std::string_view l) {
                                         const std::lock_guard lock(mutex);
                                         lines.emplace_back(l);
                                       }});
  std::promise<Response> answered;
  handler.Handle(Request{beast_http::verb::get, "/api/v1/open", 11}, RequestContext{"127.0.0.1"},
                 [&](Response r) { answered.set_value(std::move(r)); });
  EXPECT_EQ(answered.get_future().get().result_int(), 200u);
  handler.Drain();
  const std::lock_guard lock(mutex);
  ASSERT_EQ(lines.size(), 1u);
  const std::regex plain(R"re("durationMs":[0-9]+\.[0-9]{3}[,}])re");
  EXPECT_TRUE(std::regex_search(lines[0], plain)) << lines[0];
}

TEST(ApiHandlerRateLimitTest, AuthenticatedAnswersCarryRateLimitHeaders) {
  ApiRoutes routes;
  routes.Add(beast_http::verb::get, "/api/v1/things/{id}",
             {"getThing", Auth::kBearer,
              [](const ApiRequest&) -> ApiResult { return ApiResponse::Json(200, {}); }});
  routes.Add(beast_http::verb::get, "/api/v1/open",
             {"open", Auth::kNone,
              [](const ApiRequest&) -> ApiResult { return ApiResponse::Json(200, {}); }});
  FixedAuthenticator authenticator;
  ApiHandler handler(routes, &authenticator,
                     {.worker_threads = 1, .rate_limit = {.requests_per_second = 0.5, .burst = 2}});
  auto call = [&](const std::string& target) {
    Request request{beast_http::verb::get, target, 11};
    request.set("Authorization", "Bearer good");
    std::promise<Response> answered;
    handler.Handle(std::move(request), RequestContext{"127.0.0.1"},
                   [&](Response r) { answered.set_value(std::move(r)); });
    return answered.get_future().get();
  };
  auto first = call("/api/v1/things/t_1");
  EXPECT_EQ(first["RateLimit-Limit"], "2");
  EXPECT_EQ(first["RateLimit-Remaining"], "1");
  EXPECT_EQ(first["RateLimit-Reset"], "2");
  EXPECT_EQ(call("/api/v1/things/t_1")["RateLimit-Remaining"], "0");
  auto limited = call("/api/v1/things/t_1");
  EXPECT_EQ(limited.result_int(), 429u);
  EXPECT_EQ(limited["RateLimit-Remaining"], "0");
  EXPECT_EQ(limited["RateLimit-Limit"], "2");
  EXPECT_FALSE(limited["RateLimit-Reset"].empty());
  EXPECT_FALSE(limited[beast_http::field::retry_after].empty());
  // Open routes are not counted against a client, so they report no limit.
  EXPECT_TRUE(call("/api/v1/open")["RateLimit-Limit"].empty());
}

TEST_F(ApiHandlerTest, AfterDrainRequestsAnswer503) {
  handler_->Drain();
  auto r =
      Call(beast_http::verb::get, "/api/v1/things/t_1", "", {{"Authorization", "Bearer good"}});
  EXPECT_EQ(r.result_int(), 503u);
  EXPECT_EQ(Code(r), "UNAVAILABLE");
}

// Async routes: answered through `done` from whichever thread finishes the work, inline on the
// calling thread or on a worker, and waited for by Drain.
class ApiHandlerAsyncTest : public ::testing::Test {
 protected:
  ApiHandlerAsyncTest() {
    RouteSpec later{"later", Auth::kNone};
    later.execution = Execution::kInline;
    later.inline_when = [](const ApiRequest& r) { return r.Query("worker") == std::nullopt; };
    later.async_handler = [this](const ApiRequest&, std::function<void(ApiResult)> done) {
      std::lock_guard lock(mutex_);
      pending_.push_back(std::move(done));
      arrived_.notify_all();
    };
    routes_.Add(beast_http::verb::post, "/later", std::move(later));
    RouteSpec throws{"throws", Auth::kNone};
    throws.async_handler = [](const ApiRequest&, const std::function<void(ApiResult)>&) {
      throw std::runtime_error("broken");
    };
    routes_.Add(beast_http::verb::post, "/throws", std::move(throws));
    handler_ =
        std::make_unique<ApiHandler>(routes_, nullptr, ApiHandlerOptions{.worker_threads = 1});
  }

  std::future<Response> Send(const std::string& target) {
    auto answered = std::make_shared<std::promise<Response>>();
    std::future<Response> future = answered->get_future();
    Request request{beast_http::verb::post, target, 11};
    handler_->Handle(std::move(request), RequestContext{"127.0.0.1"},
                     [answered](Response r) { answered->set_value(std::move(r)); });
    return future;
  }

  std::function<void(ApiResult)> NextPending() {
    std::unique_lock lock(mutex_);
    arrived_.wait(lock, [this] { return !pending_.empty(); });
    auto done = std::move(pending_.front());
    pending_.erase(pending_.begin());
    return done;
  }

  ApiRoutes routes_;
  std::unique_ptr<ApiHandler> handler_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<std::function<void(ApiResult)>> pending_;
};

TEST_F(ApiHandlerAsyncTest, AnswersWhenTheWorkIsDoneFromAnyThread) {
  for (const char* target : {"/later", "/later?worker=1"}) {
    auto answer = Send(target);
    auto done = NextPending();
    EXPECT_EQ(answer.wait_for(std::chrono::milliseconds(20)), std::future_status::timeout);
    std::thread([&done] { done(ApiResponse{201, "{}", "application/json", {}}); }).join();
    const Response r = answer.get();
    EXPECT_EQ(r.result_int(), 201u) << target;
    EXPECT_FALSE(r["X-Request-Id"].empty());
  }
}

TEST_F(ApiHandlerAsyncTest, AHandlerThatThrowsAnswers500Once) {
  const Response r = Send("/throws").get();
  EXPECT_EQ(r.result_int(), 500u);
}

TEST_F(ApiHandlerAsyncTest, DrainWaitsForUnansweredRequests) {
  auto answer = Send("/later");
  auto done = NextPending();
  auto drained = std::async(std::launch::async, [this] { handler_->Drain(); });
  EXPECT_EQ(drained.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  done(ApiResponse{201, "{}", "application/json", {}});
  drained.get();
  EXPECT_EQ(answer.get().result_int(), 201u);
}

}  // namespace
}  // namespace esign::http
