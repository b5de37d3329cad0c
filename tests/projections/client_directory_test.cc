// The client directory: clients and revocations from their events, rows that reload into the same
// directory, copy-on-write snapshots, expired revocations left out of memory, corrupt events
// stopping the projector.
#include "projections/client_directory.h"

#include <gtest/gtest.h>

#include <chrono>

#include "domain/stream_kinds.h"
#include "eventstore/memory_event_store.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"

namespace esign::projections {
namespace {

using std::chrono::milliseconds;

constexpr int64_t kNowSeconds = 1'800'000'000;

ClientRecord Client(const std::string& id, const std::string& org) {
  return ClientRecord{
      .client_id = id,
      .organization_id = org,
      .name = "Client " + id,
      .permissions = {"contracts:read", "contracts:create"},
      .secret_hash = "pbkdf2-sha256$1000$c2FsdA$aGFzaA",
      .created_at = "2027-01-15T08:00:00.000000Z",
  };
}

eventstore::NewEvent Event(const std::string& id, std::string_view type, std::string data) {
  return eventstore::NewEvent{.event_id = id, .type = std::string(type), .data = std::move(data)};
}

class ClientDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create(&clock_);
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    StartProjector();
  }
  void TearDown() override {
    projector_.reset();
    store_->Close();
  }

  void StartProjector() {
    projector_.reset();
    directory_ = std::make_unique<ClientDirectory>(clock_);
    projector_ =
        std::make_unique<Projector>(*store_, views_, std::vector<Projection*>{directory_.get()});
    ASSERT_TRUE(projector_->Start());
  }

  void AppendClient(const ClientRecord& client) {
    ASSERT_TRUE(store_->Append(
        ClientStreamId(client.client_id), eventstore::ExpectedVersion::NoStream(),
        {Event("evt_c_" + client.client_id, kClientCreatedType, WriteClientCreated(client))}));
  }
  void AppendRevocation(const std::string& client_id, const std::string& token_id,
                        int64_t expires_at) {
    TokenRevocation revocation{.token_id = token_id,
                               .client_id = client_id,
                               .expires_at = expires_at,
                               .revoked_at = "2027-01-15T08:30:00.000000Z"};
    ASSERT_TRUE(store_->Append(
        ClientStreamId(client_id), eventstore::ExpectedVersion::Any(),
        {Event("evt_r_" + token_id, kTokenRevokedType, WriteTokenRevoked(revocation))}));
  }
  void CatchUp() { ASSERT_TRUE(projector_->WaitFor(store_->Size(), milliseconds(5000))); }

  ManualClock clock_{kNowSeconds * 1'000'000};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  MemoryViewStore views_;
  std::unique_ptr<ClientDirectory> directory_;
  std::unique_ptr<Projector> projector_;
};

TEST_F(ClientDirectoryTest, FindsClientsAndRevocationsOnceCommitted) {
  EXPECT_EQ(directory_->ClientCount(), 0u);
  AppendClient(Client("cli_a", "org_1"));
  AppendClient(Client("cli_b", "org_2"));
  AppendRevocation("cli_a", "tok_1", kNowSeconds + 600);
  ASSERT_TRUE(store_->Append("contract-x", eventstore::ExpectedVersion::Any(),
                             {Event("evt_other", "contract.created", "{}")}));
  CatchUp();

  EXPECT_EQ(directory_->ClientCount(), 2u);
  auto a = directory_->FindClient("cli_a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->organization_id, "org_1");
  EXPECT_EQ(a->permissions, (std::vector<std::string>{"contracts:read", "contracts:create"}));
  EXPECT_EQ(a->secret_hash, "pbkdf2-sha256$1000$c2FsdA$aGFzaA");
  EXPECT_EQ(directory_->FindClient("cli_missing"), nullptr);
  EXPECT_TRUE(directory_->IsRevoked("tok_1"));
  EXPECT_FALSE(directory_->IsRevoked("tok_2"));
}

TEST_F(ClientDirectoryTest, SnapshotsStayAsTheyWereTaken) {
  AppendClient(Client("cli_a", "org_1"));
  CatchUp();
  auto before = directory_->Snapshot();
  AppendClient(Client("cli_b", "org_1"));
  AppendRevocation("cli_a", "tok_1", kNowSeconds + 600);
  CatchUp();
  EXPECT_EQ(before->clients.size(), 1u);
  EXPECT_FALSE(before->IsRevoked("tok_1"));
  EXPECT_EQ(directory_->Snapshot()->clients.size(), 2u);
  EXPECT_TRUE(directory_->IsRevoked("tok_1"));
}

TEST_F(ClientDirectoryTest, ReloadsTheSameDirectoryFromItsRows) {
  AppendClient(Client("cli_a", "org_1"));
  AppendClient(Client("cli_b", "org/with/slashes"));
  AppendRevocation("cli_a", "tok_1", kNowSeconds + 600);
  CatchUp();
  const size_t rows = views_.RowCount();

  StartProjector();  // a fresh directory, loaded from the committed rows
  EXPECT_EQ(directory_->ClientCount(), 2u);
  ASSERT_NE(directory_->FindClient("cli_b"), nullptr);
  EXPECT_EQ(directory_->FindClient("cli_b")->organization_id, "org/with/slashes");
  EXPECT_TRUE(directory_->IsRevoked("tok_1"));
  EXPECT_EQ(views_.RowCount(), rows);
}

TEST_F(ClientDirectoryTest, LeavesExpiredRevocationsOutOfMemoryButKeepsTheirRows) {
  AppendClient(Client("cli_a", "org_1"));
  AppendRevocation("cli_a", "tok_old", kNowSeconds - 1);
  AppendRevocation("cli_a", "tok_live", kNowSeconds + 600);
  CatchUp();
  EXPECT_FALSE(directory_->IsRevoked("tok_old"));
  EXPECT_TRUE(directory_->IsRevoked("tok_live"));
  auto row = views_.Get("clients/r/tok_old");
  ASSERT_TRUE(row);
  ASSERT_TRUE(row->has_value());
  EXPECT_NE((*row)->find("\"clientId\":\"cli_a\""), std::string::npos) << **row;

  clock_.Advance(std::chrono::seconds(601));
  StartProjector();
  EXPECT_FALSE(directory_->IsRevoked("tok_live"));
}

TEST_F(ClientDirectoryTest, AClientEventOnAnotherClientsStreamStopsTheProjector) {
  ASSERT_TRUE(store_->Append(
      ClientStreamId("cli_a"), eventstore::ExpectedVersion::NoStream(),
      {Event("evt_1", kClientCreatedType, WriteClientCreated(Client("cli_b", "org_1")))}));
  EXPECT_FALSE(projector_->WaitFor(store_->Size(), milliseconds(5000)));
  EXPECT_FALSE(projector_->health());
  EXPECT_EQ(directory_->ClientCount(), 0u);
}

TEST_F(ClientDirectoryTest, MalformedEventDataStopsTheProjector) {
  ASSERT_TRUE(store_->Append(ClientStreamId("cli_a"), eventstore::ExpectedVersion::Any(),
                             {Event("evt_1", kTokenRevokedType, R"({"tokenId":"tok_1"})")}));
  EXPECT_FALSE(projector_->WaitFor(store_->Size(), milliseconds(5000)));
  EXPECT_EQ(projector_->health().error().code, ErrorCode::kCorruption);
}

TEST(ClientEventDataTest, RoundTripsAndRefusesWhatTheServiceNeverWrites) {
  const ClientRecord client = Client("cli_a", "org_1");
  auto parsed = ParseClientCreated(WriteClientCreated(client));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->client_id, client.client_id);
  EXPECT_EQ(parsed->name, client.name);
  EXPECT_EQ(parsed->permissions, client.permissions);
  EXPECT_EQ(parsed->created_at, client.created_at);

  EXPECT_FALSE(ParseClientCreated("[]"));
  EXPECT_FALSE(ParseClientCreated(R"({"clientId":"cli_a"})"));
  EXPECT_FALSE(ParseClientCreated(
      R"({"clientId":"a","organizationId":"o","name":"n","secretHash":"h","createdAt":"t","permissions":[1]})"));

  auto revocation = ParseTokenRevoked(
      WriteTokenRevoked({.token_id = "tok_1", .expires_at = 42, .revoked_at = "t"}), "cli_a");
  ASSERT_TRUE(revocation);
  EXPECT_EQ(revocation->client_id, "cli_a");
  EXPECT_EQ(revocation->expires_at, 42);
  EXPECT_FALSE(ParseTokenRevoked(R"({"tokenId":"t","expiresAt":"42","revokedAt":"t"})", "c"));
}

}  // namespace
}  // namespace esign::projections
