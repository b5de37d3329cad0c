// The client command handler: a client is one event holding only its secret's hash, invalid
// clients are refused without writing, and a token's revocation is one event however often it is
// asked for.
#include "commands/client_commands.h"

#include <gtest/gtest.h>

#include <atomic>

#include "eventstore/memory_event_store.h"
#include "projections/client_directory.h"

namespace esign::commands {
namespace {

constexpr int kFastHashIterations = 1000;

class ClientCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create(&clock_);
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    clients_ = std::make_unique<ClientCommandHandler>(
        *store_,
        [this](uint64_t, std::chrono::milliseconds) {
          ++waits_;
          return true;
        },
        RandomIdGenerator::Instance(), clock_,
        ClientCommandOptions{.pbkdf2_iterations = kFastHashIterations});
  }

  CreatedClient MakeClient(const std::string& org,
                           std::vector<std::string> permissions = {"contracts:read"}) {
    auto created = clients_->Create({org, "Test client", std::move(permissions)},
                                    eventstore::Actor{.client_id = "test"});
    EXPECT_TRUE(created) << created.error().message;
    return created ? *created : CreatedClient{};
  }

  ManualClock clock_{int64_t{1'800'000'000} * 1'000'000};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::unique_ptr<ClientCommandHandler> clients_;
  std::atomic<int> waits_{0};
};

TEST_F(ClientCommandsTest, CreatesAClientAsOneEventWithOnlyTheSecretsHash) {
  const CreatedClient client = MakeClient("org_1", {"contracts:read", "contracts:send"});
  EXPECT_TRUE(client.client_id.starts_with("cli_"));
  EXPECT_TRUE(client.client_secret.starts_with("cs_"));
  auto events = store_->ReadAll(GlobalPosition(0), 10);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0].stream_id, "client-" + client.client_id);
  EXPECT_EQ((*events)[0].type, "client.created");
  EXPECT_EQ((*events)[0].data.find(client.client_secret), std::string::npos);
  auto stored = projections::ParseClientCreated((*events)[0].data);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->organization_id, "org_1");
  EXPECT_EQ(stored->permissions, (std::vector<std::string>{"contracts:read", "contracts:send"}));
  EXPECT_TRUE(VerifySecret(client.client_secret, stored->secret_hash));

  const auto json = CreatedClientJson(client);
  EXPECT_EQ(json.size(), 4u);
  EXPECT_EQ(json.at("clientSecret"), client.client_secret.c_str());
}

TEST_F(ClientCommandsTest, RefusesInvalidClientsAndWritesNothing) {
  const eventstore::Actor actor;
  struct Case {
    NewClient request;
    std::string field;
  };
  const std::vector<Case> cases = {
      {{"org_1", "n", {"contracts:read", "contracts:delete"}}, "permissions"},
      {{"org_1", "n", {}}, "permissions"},
      {{"org 1", "n", {"contracts:read"}}, "organizationId"},
      {{"", "n", {"contracts:read"}}, "organizationId"},
      {{"org/1", "n", {"contracts:read"}}, "organizationId"},
      {{std::string(65, 'o'), "n", {"contracts:read"}}, "organizationId"},
      {{"org_1", "", {"contracts:read"}}, "name"},
      {{"org_1", "tab\there", {"contracts:read"}}, "name"},
      {{"org_1", "bad \xff utf8", {"contracts:read"}}, "name"},
      {{"org_1", std::string(201, 'n'), {"contracts:read"}}, "name"},
  };
  for (const auto& c : cases) {
    auto created = clients_->Create(c.request, actor);
    ASSERT_FALSE(created) << c.field;
    EXPECT_EQ(created.error().code, ErrorCode::kValidationFailed);
    ASSERT_EQ(created.error().details.size(), 1u);
    EXPECT_EQ(created.error().details[0].field, c.field);
  }
  EXPECT_EQ(store_->Size(), 0u);
  EXPECT_TRUE(IsValidOrganizationId("org_demo"));
  EXPECT_TRUE(IsValidOrganizationId("Acme.Corp:eu-1"));
}

TEST_F(ClientCommandsTest, DropsRepeatedPermissions) {
  const CreatedClient client = MakeClient("org_1", {"contracts:read", "contracts:read"});
  EXPECT_EQ(client.permissions, std::vector<std::string>{"contracts:read"});
}

TEST_F(ClientCommandsTest, ARevocationIsOneEventAndWaitsForTheDirectory) {
  const CreatedClient client = MakeClient("org_1");
  const TokenRevocationRequest token{
      .token_id = "tok_1", .client_id = client.client_id, .expires_at = 1'800'003'600};
  ASSERT_TRUE(clients_->RevokeToken(token, eventstore::Actor{.client_id = client.client_id}));
  ASSERT_TRUE(clients_->RevokeToken(token, {}));
  EXPECT_EQ(waits_, 2);
  auto events = store_->ReadStream("client-" + client.client_id, StreamVersion(1), 10);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1].type, "token.revoked");
  auto revocation = projections::ParseTokenRevoked((*events)[1].data, client.client_id);
  ASSERT_TRUE(revocation);
  EXPECT_EQ(revocation->token_id, "tok_1");
  EXPECT_EQ(revocation->expires_at, 1'800'003'600);
}

}  // namespace
}  // namespace esign::commands
