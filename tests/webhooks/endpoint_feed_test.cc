// The endpoint directory of a process outside contractd: a real relay publishes a real RocksDB log
// to the embedded cluster, the feed rebuilds the directory from the endpoints topic, and it must
// equal the directory contractd projects from the log.
#include "webhooks/endpoint_feed.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/json.hpp>

#include "commands/endpoint_commands.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "tests/support/eventually.h"
#include "tests/webhooks/forged_message.h"
#include "tests/webhooks/relay_fixture.h"
#include "webhooks/event_message.h"

namespace esign::webhooks {
namespace {

using esign::testing::kWaitLimit;

class EndpointFeedTest : public esign::testing::RelayFixture {
 protected:
  void SetUp() override {
    RelayFixture::SetUp();
    auto secrets = EndpointSecrets::Open(dir_.path());
    ASSERT_TRUE(secrets) << secrets.error().message;
    secrets_ = std::move(*secrets);
    commands_ = std::make_unique<commands::EndpointCommands>(
        *store_, *secrets_, UrlPolicy{.allow_loopback = true},
        [](std::string_view) -> Result<size_t> { return 0; },  // the limit is not tested here
        nullptr, RandomIdGenerator::Instance(), SystemClock::Instance());
  }
  void TearDown() override {
    feed_.reset();
    projector_.reset();
    RelayFixture::TearDown();
  }

  void StartFeed() {
    auto feed = EndpointFeed::Start({.brokers = kafka_->bootstraps(), .auth = auth_});
    ASSERT_TRUE(feed) << feed.error().message;
    feed_ = std::move(*feed);
  }

  // Waits until the relay has published the whole log, then until the feed has applied it.
  void CatchUp() {
    ASSERT_TRUE(relay_->WaitForAcknowledged(store_->Size(), kWaitLimit));
    ASSERT_TRUE(feed_->CatchUp(kWaitLimit));
  }

  std::string Create(const std::string& organization, const std::string& path) {
    auto created = commands_->Create(
        Caller(organization),
        boost::json::parse(R"({"url":"http://127.0.0.1:9/)" + path +
                           R"(","eventTypes":["contract.sent","contract.completed"]})")
            .as_object());
    EXPECT_TRUE(created) << created.error().message;
    return created ? created->endpoint.id : "";
  }

  static commands::EndpointCaller Caller(const std::string& organization) {
    return {.organization_id = organization, .actor = {.client_id = "cli_test"}};
  }

  // The directory contractd would show: a projector over the same log, from its beginning.
  const EndpointDirectory& ProjectedDirectory() {
    projector_.reset();  // before the directory it feeds
    projected_ = std::make_unique<EndpointDirectory>();
    views_ = std::make_unique<projections::MemoryViewStore>();
    projector_ = std::make_unique<projections::Projector>(
        *store_, *views_, std::vector<projections::Projection*>{projected_.get()});
    EXPECT_TRUE(projector_->Start());
    EXPECT_TRUE(projector_->WaitFor(store_->Size(), kWaitLimit));
    return *projected_;
  }

  static std::vector<std::string> Rows(const EndpointDirectory& directory,
                                       const std::string& organization) {
    std::vector<std::string> rows;
    for (const WebhookEndpoint& e : directory.OfOrganization(organization)) {
      rows.push_back(EndpointRow(e));
    }
    return rows;
  }

  void ExpectSameAsTheLog(const std::vector<std::string>& organizations) {
    const EndpointDirectory& projected = ProjectedDirectory();
    for (const std::string& organization : organizations) {
      EXPECT_FALSE(Rows(projected, organization).empty()) << organization;
      EXPECT_EQ(Rows(feed_->directory(), organization), Rows(projected, organization))
          << organization;
    }
  }

  std::unique_ptr<EndpointSecrets> secrets_;
  std::unique_ptr<commands::EndpointCommands> commands_;
  std::unique_ptr<EndpointFeed> feed_;
  std::unique_ptr<EndpointDirectory> projected_;
  std::unique_ptr<projections::MemoryViewStore> views_;
  std::unique_ptr<projections::Projector> projector_;
};

TEST_F(EndpointFeedTest, RebuildsTheDirectoryTheLogDescribesAndFollowsIt) {
  StartKafka();
  const std::string kept = Create("org_a", "kept");
  const std::string updated = Create("org_a", "before");
  const std::string disabled = Create("org_a", "disabled");
  const std::string deleted = Create("org_a", "deleted");
  const std::string other = Create("org_b", "other");
  ASSERT_TRUE(commands_->Update(Caller("org_a"), updated,
                                boost::json::parse(R"({"url":"http://127.0.0.1:9/after",
                                                       "description":"moved"})")
                                    .as_object()));
  ASSERT_TRUE(commands_->Disable(disabled, "410 Gone"));
  ASSERT_TRUE(commands_->Delete(Caller("org_a"), deleted));
  ASSERT_TRUE(commands_->RotateSecret(Caller("org_b"), other));
  StartRelay();
  StartFeed();
  std::atomic<int> changes{0};
  feed_->directory().SetOnChange([&changes] { ++changes; });
  CatchUp();

  const EndpointDirectory& directory = feed_->directory();
  EXPECT_EQ(directory.OfOrganization("org_a").size(), 3u);
  EXPECT_EQ(directory.OfOrganization("org_b").size(), 1u);
  ASSERT_TRUE(directory.Find(kept));
  EXPECT_EQ(directory.Find(updated)->url, "http://127.0.0.1:9/after");
  EXPECT_EQ(directory.Find(updated)->description, "moved");
  EXPECT_FALSE(directory.Find(disabled)->enabled);
  EXPECT_FALSE(directory.Find(deleted));
  EXPECT_EQ(directory.Find(other)->version, 2u);  // created, secret rotated
  ExpectSameAsTheLog({"org_a", "org_b"});

  // Changes after the feed started: there after the next CatchUp, and the listener hears them.
  const int changes_before = changes.load();
  const std::string late = Create("org_b", "late");
  ASSERT_TRUE(commands_->Update(Caller("org_a"), disabled,
                                boost::json::parse(R"({"enabled":true})").as_object()));
  ASSERT_TRUE(commands_->Delete(Caller("org_a"), kept));
  CatchUp();
  ASSERT_TRUE(directory.Find(late));
  EXPECT_EQ(directory.Find(late)->organization_id, "org_b");
  EXPECT_TRUE(directory.Find(disabled)->enabled);
  EXPECT_FALSE(directory.Find(kept));
  EXPECT_GE(changes.load(), changes_before + 3);
  ExpectSameAsTheLog({"org_a", "org_b"});
}

TEST_F(EndpointFeedTest, ATopicThatDoesNotExistYetIsEmptyUntilTheRelayCreatesIt) {
  StartKafka({.topics = {"contract-events"}});
  StartFeed();
  EXPECT_TRUE(feed_->CatchUp(kWaitLimit));
  EXPECT_TRUE(feed_->directory().OfOrganization("org_a").empty());

  const std::string created = Create("org_a", "first");
  StartRelay();  // its first message creates the topic (4 partitions)
  CatchUp();
  ASSERT_TRUE(feed_->directory().Find(created));
  ExpectSameAsTheLog({"org_a"});
}

TEST_F(EndpointFeedTest, AContractEventSeenMeansItsEarlierEndpointsAreInTheFeed) {
  StartKafka();
  StartRelay();
  StartFeed();
  const std::string endpoint = Create("org_a", "hook");
  ASSERT_TRUE(
      store_->Append("contract-ctr_1", eventstore::ExpectedVersion::Any(),
                     {{"evt_c1", "contract.created", 1, R"({"organizationId":"org_a"})", {}}}));
  const uint64_t contract_position = store_->Size() - 1;
  // As a dispatcher outside contractd does: once the contract's message is acknowledged (so
  // readable), CatchUp alone must find the endpoint created before it, without waiting for the
  // relay.
  ASSERT_TRUE(relay_->WaitForAcknowledged(contract_position + 1, kWaitLimit));
  ASSERT_TRUE(feed_->CatchUp(kWaitLimit));
  ASSERT_TRUE(feed_->directory().Find(endpoint));
  EXPECT_LT(feed_->directory().Find(endpoint)->created_position, contract_position);
}

TEST_F(EndpointFeedTest, AMessageTheRelayDidNotWriteChangesNothing) {
  StartKafka();
  const std::string kept = Create("org_a", "kept");
  StartRelay();
  StartFeed();
  CatchUp();
  // Forged as any local Kafka client can: a new endpoint of org_a, and a later version of the
  // existing one that points it elsewhere.
  const WebhookEndpoint forged{.id = "whe_forged",
                               .organization_id = "org_a",
                               .url = "http://127.0.0.1:9/forged",
                               .event_types = {"contract.completed"},
                               .created_at = "2026-01-01T00:00:00.000000Z"};
  const eventstore::EventRecord created{.position = GlobalPosition(1),
                                        .stream_id = "webhook-whe_forged",
                                        .version = StreamVersion(1),
                                        .event_id = "evt_forged_1",
                                        .type = std::string(kEndpointCreated),
                                        .data = EndpointCreatedData(forged)};
  const eventstore::EventRecord moved{
      .position = GlobalPosition(2),
      .stream_id = "webhook-" + kept,
      .version = StreamVersion(9),
      .event_id = "evt_forged_2",
      .type = std::string(kEndpointUpdated),
      .data = R"({"url":"http://127.0.0.1:9/elsewhere","updatedAt":"2026-01-01T00:00:00Z"})"};
  for (const eventstore::EventRecord& record : {created, moved}) {
    const EventMessage message = MakeEventMessage(record, std::nullopt);
    esign::testing::ProduceForgedTwice(kafka_->bootstraps(), "webhook-endpoints", message.key,
                                       message.value);
  }
  const std::string late = Create("org_a", "late");
  CatchUp();  // up to the high watermarks: the forged messages are read, and dropped

  const EndpointDirectory& directory = feed_->directory();
  EXPECT_TRUE(directory.Find(late));
  EXPECT_FALSE(directory.Find("whe_forged"));
  ASSERT_TRUE(directory.Find(kept));
  EXPECT_EQ(directory.Find(kept)->url, "http://127.0.0.1:9/kept");
  EXPECT_EQ(directory.Find(kept)->version, 1u);
  ExpectSameAsTheLog({"org_a"});
}

}  // namespace
}  // namespace esign::webhooks
