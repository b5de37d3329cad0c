// EndpointCommands with an Idempotency-Key when the service stopped between carrying out the
// operation and recording its outcome: the retry finds the operation's events by their ids and
// completes the key instead of carrying the operation out again. And the limit of endpoints per
// organization, also against concurrent creations.
#include "commands/endpoint_commands.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "base/time_text.h"
#include "domain/stream_kinds.h"
#include "eventstore/memory_event_store.h"
#include "tests/support/temp_dir.h"

namespace esign::commands {
namespace {

using webhooks::EndpointCreatedData;
using webhooks::EndpointSecrets;
using webhooks::kEndpointCreated;
using webhooks::kEndpointDeleted;
using webhooks::kEndpointSecretRotated;
using webhooks::kMaxEndpointsPerOrganization;
using webhooks::kSecretOverlapMicros;
using webhooks::UrlPolicy;
using webhooks::WebhookEndpoint;

// The organization's live endpoints, read from the whole log (contractd reads its directory).
Result<size_t> LiveEndpoints(const eventstore::EventStore& store, std::string_view organization) {
  auto events = store.ReadAll(GlobalPosition(0), SIZE_MAX);
  if (!events) return std::unexpected(events.error());
  std::set<std::string> live;
  for (const auto& event : *events) {
    if (event.type == kEndpointCreated &&
        boost::json::parse(event.data).at("organizationId").as_string() == organization) {
      live.insert(event.stream_id);
    } else if (event.type == kEndpointDeleted) {
      live.erase(event.stream_id);
    }
  }
  return live.size();
}

class EndpointCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    auto secrets = EndpointSecrets::Open(dir_.path());
    ASSERT_TRUE(secrets);
    secrets_ = std::move(*secrets);
    commands_ = std::make_unique<EndpointCommands>(
        *store_, *secrets_, UrlPolicy{.allow_loopback = true},
        [this](std::string_view organization) {
          ++counted_;
          return LiveEndpoints(*store_, organization);
        },
        nullptr, RandomIdGenerator::Instance(), clock_);
  }

  esign::testing::TempDir dir_;
  ManualClock clock_{1'795'000'000'000'000};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::unique_ptr<EndpointSecrets> secrets_;
  std::unique_ptr<EndpointCommands> commands_;
  std::atomic<int> counted_{0};
  const EndpointCaller caller_{"org_a", eventstore::Actor{.client_id = "cli_a"}};
  const eventstore::IdempotentRequest request_{"cli_a", "key-1", "sha-of-the-request",
                                               eventstore::Actor{.client_id = "cli_a"}};
  const boost::json::object body_{{"url", "http://127.0.0.1:9/hook"},
                                  {"eventTypes", boost::json::array{"contract.sent"}}};
};

TEST_F(EndpointCommandsTest, ACreationAppendedBeforeACrashIsCompletedNotRepeated) {
  // What the first request got done before the crash: the key reserved for an endpoint id, the
  // secret file, and the created event under the id the key seeds; no completion.
  auto reservation =
      eventstore::ReserveIdempotencyKey(*store_, request_, "endpointId", "whe_crashed");
  ASSERT_TRUE(reservation);
  auto secret = secrets_->Create("whe_crashed");
  ASSERT_TRUE(secret);
  WebhookEndpoint endpoint{.id = "whe_crashed",
                           .organization_id = "org_a",
                           .url = "http://127.0.0.1:9/hook",
                           .event_types = {"contract.sent"},
                           .created_at = FormatTimestamp(clock_.NowMicros())};
  ASSERT_TRUE(
      store_->Append(EndpointStreamId("whe_crashed"), eventstore::ExpectedVersion::NoStream(),
                     {{eventstore::SeededEventId(*reservation, 0), std::string(kEndpointCreated), 1,
                       EndpointCreatedData(endpoint), caller_.actor}}));
  const uint64_t size = store_->Size();

  auto retried = commands_->Create(caller_, body_, request_);
  ASSERT_TRUE(retried) << retried.error().message;
  EXPECT_TRUE(retried->replayed);
  EXPECT_EQ(retried->endpoint.id, "whe_crashed");
  EXPECT_EQ(retried->secret, *secret);
  EXPECT_EQ(store_->Size(), size + 1);  // the completion only: no second endpoint
  EXPECT_EQ(secrets_->CurrentOf("whe_crashed")->secret, *secret);

  auto again = commands_->Create(caller_, body_, request_);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->endpoint.id, "whe_crashed");
  EXPECT_EQ(store_->Size(), size + 1);
}

TEST_F(EndpointCommandsTest, ARotationAppendedBeforeACrashIsNotRotatedAgain) {
  auto created = commands_->Create(caller_, body_);
  ASSERT_TRUE(created);
  const std::string id = created->endpoint.id;
  const eventstore::IdempotentRequest rotate{"cli_a", "key-2", "sha-of-the-rotation",
                                             caller_.actor};
  auto reservation = eventstore::ReserveIdempotencyKey(*store_, rotate, "endpointId", id);
  ASSERT_TRUE(reservation);
  auto rotation = secrets_->Rotate(id, clock_.NowMicros(), kSecretOverlapMicros);
  ASSERT_TRUE(rotation);
  const std::string expires = FormatTimestamp(rotation->previous_expires_at);
  ASSERT_TRUE(store_->Append(
      EndpointStreamId(id), eventstore::ExpectedVersion::Exactly(StreamVersion(1)),
      {{eventstore::SeededEventId(*reservation, 0), std::string(kEndpointSecretRotated), 1,
        boost::json::serialize(boost::json::object{{"rotatedAt", "2026-11-21T00:00:00Z"},
                                                   {"previousSecretExpiresAt", expires}}),
        caller_.actor}}));
  const uint64_t size = store_->Size();

  auto retried = commands_->RotateSecret(caller_, id, rotate);
  ASSERT_TRUE(retried) << retried.error().message;
  EXPECT_TRUE(retried->replayed);
  EXPECT_EQ(retried->secret, rotation->secret);
  EXPECT_EQ(retried->previous_secret_expires_at, expires);
  EXPECT_EQ(store_->Size(), size + 1);
  EXPECT_EQ(secrets_->CurrentOf(id)->secret, rotation->secret);
  EXPECT_EQ(secrets_->CurrentOf(id)->rotation_expires_at, rotation->previous_expires_at);
}

TEST_F(EndpointCommandsTest, TheKeyOfAnotherRequestIsRefusedWithoutWriting) {
  ASSERT_TRUE(commands_->Create(caller_, body_, request_));
  const uint64_t size = store_->Size();
  eventstore::IdempotentRequest other = request_;
  other.request_sha256 = "sha-of-another-body";
  auto refused = commands_->Create(caller_, body_, other);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kIdempotencyKeyReused);
  EXPECT_EQ(store_->Size(), size);
  // Another client's same key is its own.
  eventstore::IdempotentRequest other_client = request_;
  other_client.client_id = "cli_b";
  auto theirs = commands_->Create(caller_, body_, other_client);
  ASSERT_TRUE(theirs);
  EXPECT_FALSE(theirs->replayed);
}

TEST_F(EndpointCommandsTest, AnOrganizationHasAtMostTheLimitOfLiveEndpoints) {
  std::vector<std::string> ids;
  for (size_t i = 0; i < kMaxEndpointsPerOrganization; ++i) {
    auto created = commands_->Create(caller_, body_);
    ASSERT_TRUE(created) << created.error().message;
    ids.push_back(created->endpoint.id);
  }
  const uint64_t size = store_->Size();
  auto refused = commands_->Create(caller_, body_);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(refused.error().message,
            "the organization has 20 webhook endpoints, the most it may have");
  ASSERT_EQ(refused.error().details.size(), 1u);
  EXPECT_EQ(refused.error().details[0].field, "body");
  EXPECT_EQ(store_->Size(), size);
  // Another organization has its own; a deleted endpoint no longer counts.
  EXPECT_TRUE(commands_->Create({"org_b", caller_.actor}, body_));
  ASSERT_TRUE(commands_->Delete(caller_, ids.front()));
  EXPECT_TRUE(commands_->Create(caller_, body_));
  EXPECT_FALSE(commands_->Create(caller_, body_));
}

TEST_F(EndpointCommandsTest, ConcurrentCreationsDoNotPassTheLimitTogether) {
  for (size_t i = 0; i + 1 < kMaxEndpointsPerOrganization; ++i) {
    ASSERT_TRUE(commands_->Create(caller_, body_));
  }
  // Eight requests for the one place left.
  std::atomic<int> created{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] { created += commands_->Create(caller_, body_) ? 1 : 0; });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created, 1);
  EXPECT_EQ(*LiveEndpoints(*store_, "org_a"), kMaxEndpointsPerOrganization);
}

TEST_F(EndpointCommandsTest, AReplayIsAnsweredEvenAtTheLimit) {
  auto first = commands_->Create(caller_, body_, request_);
  ASSERT_TRUE(first);
  for (size_t i = 1; i < kMaxEndpointsPerOrganization; ++i) {
    ASSERT_TRUE(commands_->Create(caller_, body_));
  }
  const int counted = counted_;
  auto replayed = commands_->Create(caller_, body_, request_);
  ASSERT_TRUE(replayed) << replayed.error().message;
  EXPECT_TRUE(replayed->replayed);
  EXPECT_EQ(replayed->endpoint.id, first->endpoint.id);
  EXPECT_EQ(counted_, counted);  // a replay creates nothing, so counts nothing
}

}  // namespace
}  // namespace esign::commands
