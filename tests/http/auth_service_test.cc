// The authentication family without HTTP: issuing tokens for the right credentials only,
// authenticating, introspecting within the caller's organization, revoking with immediate effect,
// and refusals that write nothing.
#include "http/auth_service.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "eventstore/memory_event_store.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"

namespace esign::http {
namespace {

using commands::CreatedClient;
using std::chrono::milliseconds;

constexpr int kFastIterations = 1000;
constexpr int64_t kStartMicros = 1'800'000'000LL * 1'000'000;

class AuthServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create(&clock_);
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    projector_ = std::make_unique<projections::Projector>(
        *store_, views_, std::vector<projections::Projection*>{&directory_});
    ASSERT_TRUE(projector_->Start());
    auto codec = TokenCodec::Create(std::string(32, 'k'));
    ASSERT_TRUE(codec);
    codec_ = std::move(*codec);
    authenticator_ = std::make_unique<TokenAuthenticator>(*codec_, directory_, clock_);
    AuthServiceOptions options;
    options.pbkdf2_iterations = kFastIterations;
    clients_ = std::make_unique<commands::ClientCommandHandler>(
        *store_,
        [this](uint64_t size, milliseconds timeout) { return projector_->WaitFor(size, timeout); },
        RandomIdGenerator::Instance(), clock_,
        commands::ClientCommandOptions{.pbkdf2_iterations = kFastIterations});
    auth_ = std::make_unique<AuthService>(*clients_, directory_, *codec_, *authenticator_, options,
                                          clock_);
  }
  void TearDown() override {
    projector_->Stop();
    store_->Close();
  }

  CreatedClient MakeClient(const std::string& org,
                           std::vector<std::string> permissions = {"contracts:read"}) {
    auto created = clients_->Create({org, "Test client", std::move(permissions)},
                                    eventstore::Actor{.client_id = "test"});
    EXPECT_TRUE(created) << created.error().message;
    EXPECT_TRUE(projector_->WaitFor(store_->Size(), milliseconds(5000)));
    return *created;
  }

  std::string TokenFor(const CreatedClient& client) {
    auto issued = auth_->IssueToken(client.client_id, client.client_secret);
    EXPECT_TRUE(issued) << issued.error().message;
    return issued ? issued->access_token : "";
  }

  Principal Caller(const std::string& token) {
    auto principal = authenticator_->Authenticate(token);
    EXPECT_TRUE(principal);
    return principal ? *principal : Principal{};
  }

  ManualClock clock_{kStartMicros};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  projections::MemoryViewStore views_;
  projections::ClientDirectory directory_{clock_};
  std::unique_ptr<projections::Projector> projector_;
  std::unique_ptr<TokenCodec> codec_;
  std::unique_ptr<TokenAuthenticator> authenticator_;
  std::unique_ptr<commands::ClientCommandHandler> clients_;
  std::unique_ptr<AuthService> auth_;
};

TEST_F(AuthServiceTest, IssuesATokenThatAuthenticatesAsTheClient) {
  const CreatedClient client = MakeClient("org_1", {"contracts:read", "webhooks:manage"});
  auto issued = auth_->IssueToken(client.client_id, client.client_secret);
  ASSERT_TRUE(issued);
  EXPECT_EQ(issued->expires_in, 3600);
  EXPECT_EQ(issued->scope, "contracts:read webhooks:manage");
  const Principal principal = Caller(issued->access_token);
  EXPECT_EQ(principal.client_id, client.client_id);
  EXPECT_EQ(principal.organization_id, "org_1");
  EXPECT_TRUE(principal.Has("webhooks:manage"));
  EXPECT_FALSE(principal.Has("contracts:send"));
  EXPECT_TRUE(principal.token_id.starts_with("tok_"));
  EXPECT_EQ(principal.issued_at, kStartMicros / 1'000'000);
  EXPECT_EQ(principal.expires_at, principal.issued_at + 3600);
}

TEST_F(AuthServiceTest, WrongSecretAndUnknownClientGetTheSameAnswer) {
  const CreatedClient client = MakeClient("org_1");
  auto wrong = auth_->IssueToken(client.client_id, client.client_secret + "x");
  auto unknown = auth_->IssueToken("cli_unknown", client.client_secret);
  auto empty = auth_->IssueToken("", "");
  auto huge = auth_->IssueToken(std::string(10000, 'c'), std::string(10000, 's'));
  for (const auto* result : {&wrong, &unknown, &empty, &huge}) {
    ASSERT_FALSE(*result);
    EXPECT_EQ(result->error().code, ErrorCode::kInvalidClient);
    EXPECT_EQ(result->error().message, wrong.error().message);
    EXPECT_TRUE(result->error().details.empty());
  }
}

// IssueTokenAsync's answer, waited for.
TokenAnswer IssueAndWait(AuthService& auth, TokenRequest request) {
  std::promise<TokenAnswer> answered;
  auto answer = answered.get_future();
  auth.IssueTokenAsync(std::move(request),
                       [&answered](TokenAnswer a) { answered.set_value(std::move(a)); });
  return answer.get();
}

TEST_F(AuthServiceTest, FailuresBeyondTheLimitAreRefusedUncheckedEvenWithTheRightSecret) {
  const CreatedClient client = MakeClient("org_1");
  const CreatedClient other = MakeClient("org_1");
  AuthService throttled(*clients_, directory_, *codec_, *authenticator_,
                        AuthServiceOptions{.pbkdf2_iterations = kFastIterations,
                                           .throttle = {.failures_per_client_per_minute = 2,
                                                        .failures_per_address_per_minute = 100}},
                        clock_);
  const TokenRequest wrong{client.client_id, client.client_secret + "x", {}, "192.0.2.1"};
  for (int i = 0; i < 2; ++i) {
    auto answer = IssueAndWait(throttled, wrong);
    ASSERT_FALSE(answer.issued);
    EXPECT_EQ(answer.issued.error().code, ErrorCode::kInvalidClient);
  }
  auto refused = IssueAndWait(throttled, wrong);
  ASSERT_FALSE(refused.issued);
  EXPECT_EQ(refused.issued.error().code, ErrorCode::kRateLimited);
  EXPECT_EQ(refused.retry_after_seconds, 30);
  auto right = IssueAndWait(throttled, {client.client_id, client.client_secret, {}, "192.0.2.2"});
  ASSERT_FALSE(right.issued);
  EXPECT_EQ(right.issued.error().code, ErrorCode::kRateLimited);
  // Successes are not failures: another client asks as often as it likes.
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(
        IssueAndWait(throttled, {other.client_id, other.client_secret, {}, "192.0.2.1"}).issued);
  }
}

TEST_F(AuthServiceTest, AnUnknownClientCostsAFullHashToo) {
  // With the real cost, an unknown client id must not answer faster than a wrong secret.
  AuthService slow(*clients_, directory_, *codec_, *authenticator_, AuthServiceOptions{}, clock_);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(slow.IssueToken("cli_unknown", "cs_whatever"));
  EXPECT_GT(std::chrono::steady_clock::now() - start, milliseconds(8));
}

TEST_F(AuthServiceTest, ExpiredTokensFail) {
  const std::string token = TokenFor(MakeClient("org_1"));
  clock_.Advance(std::chrono::seconds(3599));
  EXPECT_TRUE(authenticator_->Authenticate(token));
  clock_.Advance(std::chrono::seconds(1));
  auto result = authenticator_->Authenticate(token);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::kUnauthenticated);
  // A genuine token may say when it expired.
  EXPECT_EQ(result.error().message, "the access token expired at 2027-01-15T09:00:00.000000Z");
  EXPECT_EQ(
      result.error().details,
      (std::vector<ErrorDetail>{{"Authorization", "expired at 2027-01-15T09:00:00.000000Z"}}));
}

TEST_F(AuthServiceTest, AForgedExpiredTokenIsRefusedWithoutSayingWhy) {
  const CreatedClient client = MakeClient("org_1");
  const TokenClaims claims{.token_id = "tok_x",
                           .client_id = client.client_id,
                           .organization_id = "org_1",
                           .issued_at = kStartMicros / 1'000'000 - 7200,
                           .expires_at = kStartMicros / 1'000'000 - 3600};
  auto other_codec = TokenCodec::Create(std::string(32, 'x'));
  ASSERT_TRUE(other_codec);
  const std::string genuine = codec_->Issue(claims);
  // Signed with another key, or ours with its payload changed: the MAC fails first.
  std::string tampered = genuine;
  tampered[5] = tampered[5] == 'A' ? 'B' : 'A';
  for (const std::string& token : {(*other_codec)->Issue(claims), tampered}) {
    auto result = authenticator_->Authenticate(token);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message, "invalid or expired token");
    EXPECT_TRUE(result.error().details.empty());
  }
  EXPECT_EQ(authenticator_->Authenticate(genuine).error().message,
            "the access token expired at 2027-01-15T07:00:00.000000Z");
}

TEST_F(AuthServiceTest, TokensOfAnotherKeyOrClientFail) {
  const std::string token = TokenFor(MakeClient("org_1"));
  auto other_codec = TokenCodec::Create(std::string(32, 'x'));
  ASSERT_TRUE(other_codec);
  TokenAuthenticator other(**other_codec, directory_, clock_);
  EXPECT_FALSE(other.Authenticate(token));
  // Well signed, but for a client the directory does not know.
  const std::string ghost = codec_->Issue({.token_id = "tok_x",
                                           .client_id = "cli_ghost",
                                           .organization_id = "org_1",
                                           .issued_at = kStartMicros / 1'000'000,
                                           .expires_at = kStartMicros / 1'000'000 + 60});
  EXPECT_FALSE(authenticator_->Authenticate(ghost));
}

TEST_F(AuthServiceTest, IntrospectsActiveTokensOfTheCallersOrganizationOnly) {
  const CreatedClient a1 = MakeClient("org_a", {"contracts:read", "contracts:create"});
  const CreatedClient a2 = MakeClient("org_a");
  const CreatedClient b = MakeClient("org_b");
  const std::string token_a1 = TokenFor(a1);
  const Principal caller = Caller(TokenFor(a2));

  const auto active = auth_->Introspect(caller, token_a1);
  EXPECT_EQ(active, boost::json::parse(R"({"active":true,"clientId":")" + a1.client_id +
                                       R"(","organizationId":"org_a",
      "scope":"contracts:read contracts:create","exp":1800003600,"iat":1800000000,
      "tokenType":"Bearer"})"));
  const boost::json::object inactive{{"active", false}};
  EXPECT_EQ(auth_->Introspect(caller, TokenFor(b)), inactive);
  EXPECT_EQ(auth_->Introspect(caller, "garbage"), inactive);
  EXPECT_EQ(auth_->Introspect(caller, token_a1 + "x"), inactive);
  clock_.Advance(std::chrono::seconds(3600));
  EXPECT_EQ(auth_->Introspect(caller, token_a1), inactive);
}

TEST_F(AuthServiceTest, RevokedTokensFailAtOnce) {
  const CreatedClient client = MakeClient("org_1");
  const std::string token = TokenFor(client);
  const std::string other = TokenFor(client);
  const Principal caller = Caller(token);
  const uint64_t before = store_->Size();

  ASSERT_TRUE(auth_->Revoke(caller, token, eventstore::Actor{.client_id = client.client_id}));
  EXPECT_EQ(store_->Size(), before + 1);
  auto result = authenticator_->Authenticate(token);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "invalid or expired token");
  EXPECT_EQ(auth_->Introspect(Caller(other), token), (boost::json::object{{"active", false}}));
  EXPECT_TRUE(authenticator_->Authenticate(other));

  auto events = store_->ReadStream("client-" + client.client_id, StreamVersion(2), 1);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0].type, "token.revoked");
  auto revocation = projections::ParseTokenRevoked((*events)[0].data, client.client_id);
  ASSERT_TRUE(revocation);
  EXPECT_EQ(revocation->token_id, caller.token_id);
  EXPECT_EQ(revocation->expires_at, caller.expires_at);

  // Revoking it again, or anything inactive, succeeds and writes nothing.
  ASSERT_TRUE(auth_->Revoke(Caller(other), token, {}));
  ASSERT_TRUE(auth_->Revoke(Caller(other), "garbage", {}));
  EXPECT_EQ(store_->Size(), before + 1);
}

TEST_F(AuthServiceTest, AnotherOrganizationsTokenIsNotRevoked) {
  const std::string victim = TokenFor(MakeClient("org_a"));
  const Principal intruder = Caller(TokenFor(MakeClient("org_b")));
  const uint64_t before = store_->Size();
  ASSERT_TRUE(auth_->Revoke(intruder, victim, {}));
  EXPECT_EQ(store_->Size(), before);
  EXPECT_TRUE(authenticator_->Authenticate(victim));
}

TEST_F(AuthServiceTest, ARevocationNotYetAppliedIsReportedUnavailable) {
  const CreatedClient client = MakeClient("org_1");
  const std::string token = TokenFor(client);
  commands::ClientCommandHandler stuck_clients(
      *store_, [](uint64_t, milliseconds) { return false; }, RandomIdGenerator::Instance(), clock_);
  AuthService stuck(stuck_clients, directory_, *codec_, *authenticator_,
                    AuthServiceOptions{.pbkdf2_iterations = kFastIterations}, clock_);
  auto revoked = stuck.Revoke(Caller(token), token, {});
  ASSERT_FALSE(revoked);
  EXPECT_EQ(revoked.error().code, ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace esign::http
