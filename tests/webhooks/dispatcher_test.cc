// The dispatcher on the embedded cluster, with a directory, secrets and store of its own and a
// fake sender: a batch is routed only once the endpoint directory has caught up with it; a
// delivery recorded as pending is sent after a restart, also when Kafka no longer holds its
// message.
#include "webhooks/dispatcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "domain/id_generator.h"
#include "domain/stream_kinds.h"
#include "tests/support/eventually.h"
#include "tests/support/temp_dir.h"
#include "tests/webhooks/forged_message.h"
#include "webhooks/delivery_message.h"
#include "webhooks/embedded_kafka.h"

namespace esign::webhooks {
namespace {

using std::chrono::milliseconds;

using esign::testing::Eventually;

// Answers 204 to everything, and keeps what it was sent.
class FakeSender final : public WebhookSender {
 public:
  SendOutcome Send(const SendRequest& request) override {
    std::lock_guard lock(mutex_);
    sent_.push_back(request);
    return SendOutcome{.status_code = 204};
  }
  std::vector<SendRequest> sent() const {
    std::lock_guard lock(mutex_);
    return sent_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<SendRequest> sent_;
};

class DispatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto kafka = EmbeddedKafka::Start({.topics = {"contract-events", "webhook-retries"}});
    ASSERT_TRUE(kafka) << kafka.error().message;
    kafka_ = std::move(*kafka);
    auto auth = MessageAuth::FromKey(RandomBytes(kMessageKeyBytes));
    ASSERT_TRUE(auth) << auth.error().message;
    auth_ = *auth;
    auto secrets = EndpointSecrets::Open(dir_.path());
    ASSERT_TRUE(secrets) << secrets.error().message;
    secrets_ = std::move(*secrets);
    auto deliveries = delivery::DeliveryStore::Open(dir_.path());
    ASSERT_TRUE(deliveries) << deliveries.error().message;
    deliveries_ = std::move(*deliveries);
  }
  void TearDown() override {
    if (dispatcher_) dispatcher_->Stop();
  }

  void StartDispatcher(std::function<bool(uint64_t)> wait_for_directory) {
    DispatcherOptions options;
    options.brokers = kafka_->bootstraps();
    options.auth = auth_;
    options.sender_threads = 2;
    auto dispatcher = Dispatcher::Start(
        DispatcherDeps{.directory = directory_,
                       .secrets = *secrets_,
                       .deliveries = *deliveries_,
                       .sender = sender_,
                       .clock = SystemClock::Instance(),
                       .disable = [](std::string_view, std::string_view) { return Status(); },
                       .wait_for_directory = std::move(wait_for_directory),
                       .recorded = {}},
        std::move(options));
    ASSERT_TRUE(dispatcher) << dispatcher.error().message;
    dispatcher_ = std::move(*dispatcher);
  }

  // The directory learns of an endpoint of org_a for contract.sent, created at `position`.
  void CreateEndpoint(const std::string& id, uint64_t position, bool enabled = true) {
    const WebhookEndpoint endpoint{.id = id,
                                   .organization_id = "org_a",
                                   .url = "https://h.example/" + id,
                                   .event_types = {"contract.sent"},
                                   .enabled = enabled,
                                   .created_at = "2026-11-21T07:00:00.000000Z"};
    DiscardingBatch batch;
    ASSERT_TRUE(directory_.Apply({.position = GlobalPosition(position),
                                  .stream_id = EndpointStreamId(id),
                                  .version = StreamVersion(1),
                                  .event_id = "evt_created_" + id,
                                  .type = std::string(kEndpointCreated),
                                  .data = EndpointCreatedData(endpoint)},
                                 batch));
    directory_.Committed();
  }

  // The directory learns that the endpoint was enabled, at `position` (its second event).
  void EnableEndpoint(const std::string& id, uint64_t position) {
    const std::optional<WebhookEndpoint> current = directory_.Find(id);
    ASSERT_TRUE(current);
    const std::optional<std::string> data =
        EndpointUpdatedData(*current, {.enabled = true}, "2026-11-21T09:00:00.000000Z");
    ASSERT_TRUE(data);
    DiscardingBatch batch;
    ASSERT_TRUE(directory_.Apply({.position = GlobalPosition(position),
                                  .stream_id = EndpointStreamId(id),
                                  .version = StreamVersion(2),
                                  .event_id = "evt_updated_" + id,
                                  .type = std::string(kEndpointUpdated),
                                  .data = *data},
                                 batch));
    directory_.Committed();
  }

  // evt_9 recorded as pending for whe_1, which is disabled; then the dispatcher stops.
  void RecordPendingAndStop() {
    ASSERT_TRUE(secrets_->Create("whe_1"));
    CreateEndpoint("whe_1", 5, /*enabled=*/false);
    StartDispatcher([](uint64_t) { return true; });
    PublishSent("evt_9", 41);
    ASSERT_TRUE(Eventually([&] { return StateOf(DeliveryId("whe_1", "evt_9")) == "pending"; }));
    dispatcher_->Stop();
    dispatcher_.reset();
  }

  // The stored delivery's state; empty when none is stored.
  std::string StateOf(const std::string& id) {
    auto stored = deliveries_->Get(id);
    return stored && *stored ? std::string(delivery::DeliveryStateName((*stored)->state))
                             : std::string();
  }

  // A contract.sent of org_a at `position`, as the relay publishes it (signed with its key).
  void PublishSent(const std::string& event_id, uint64_t position) {
    const std::string value = R"({"schemaVersion":1,"eventId":")" + event_id +
                              R"(","type":"contract.sent","position":)" + std::to_string(position) +
                              R"(,"streamId":"contract-ctr_1","streamVersion":2,)"
                              R"("contractId":"ctr_1","contractOrganizationId":"org_a",)"
                              R"("time":"2026-11-21T08:00:00.000000Z","data":{}})";
    esign::testing::ProduceForged(kafka_->bootstraps(), "contract-events", "ctr_1", value,
                                  auth_.Mac("contract-events", "ctr_1", value));
  }

  esign::testing::TempDir dir_;
  std::unique_ptr<EmbeddedKafka> kafka_;
  MessageAuth auth_;
  std::unique_ptr<EndpointSecrets> secrets_;
  std::unique_ptr<delivery::DeliveryStore> deliveries_;
  EndpointDirectory directory_;
  FakeSender sender_;
  std::unique_ptr<Dispatcher> dispatcher_;
};

// An endpoint created before an event must get it: while the directory has not caught up with
// the event (the endpoint may be missing from it yet), the batch is not routed but read again.
TEST_F(DispatcherTest, ABatchWaitsUntilTheDirectoryHasCaughtUpWithIt) {
  ASSERT_TRUE(secrets_->Create("whe_1"));
  std::atomic<bool> caught_up{false};
  std::atomic<int> waits{0};
  std::atomic<uint64_t> waited_for{0};
  std::once_flag applied;
  StartDispatcher([&](uint64_t position) {
    ++waits;
    waited_for = position;
    if (!caught_up) return false;  // as after its timeout
    // Catching up brings the endpoint's creation, which came before the event in the log.
    std::call_once(applied, [&] { CreateEndpoint("whe_1", 5); });
    return true;
  });
  PublishSent("evt_9", 41);

  // The wait says no, and says it again when the batch is tried again: nothing is sent meanwhile.
  EXPECT_TRUE(Eventually([&] { return waits >= 2 || !sender_.sent().empty(); }));
  EXPECT_GE(waits, 2);
  EXPECT_EQ(waited_for, 41u);
  EXPECT_TRUE(sender_.sent().empty());
  EXPECT_FALSE(*deliveries_->Get(DeliveryId("whe_1", "evt_9")));

  caught_up = true;
  EXPECT_TRUE(Eventually([&] {
    auto stored = deliveries_->Get(DeliveryId("whe_1", "evt_9"));
    return stored && *stored && (*stored)->state == delivery::DeliveryState::kSucceeded;
  }));
  std::this_thread::sleep_for(milliseconds(300));
  const std::vector<SendRequest> sent = sender_.sent();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].url, "https://h.example/whe_1");
  EXPECT_EQ(sent[0].headers.at(0),
            std::make_pair(std::string("webhook-id"), WebhookMessageId("whe_1", "evt_9")));
}

// A delivery recorded as pending must be sent whatever Kafka still holds: here its endpoint is
// disabled, the dispatcher stops, and more than the embedded cluster keeps of a partition (5 MiB)
// is written after its message, so the group's committed offset lies below the earliest message
// left. Restarted with the endpoint enabled, the dispatcher sends it from its store, once, and
// counts the partition whose offsets were out of range.
TEST_F(DispatcherTest, APendingDeliveryIsSentAfterARestartWhenKafkaNoLongerHoldsItsMessage) {
  ASSERT_NO_FATAL_FAILURE(RecordPendingAndStop());
  const std::string id = DeliveryId("whe_1", "evt_9");

  // The same key, so the same partition: 6 MiB of messages nobody signed push evt_9 out.
  const std::string filler(512 * 1024, 'x');
  for (int i = 0; i < 12; ++i) {
    esign::testing::ProduceForged(kafka_->bootstraps(), "contract-events", "ctr_1", filler);
  }
  EnableEndpoint("whe_1", 50);
  StartDispatcher([](uint64_t) { return true; });

  EXPECT_TRUE(Eventually([&] { return StateOf(id) == "succeeded"; }));
  EXPECT_TRUE(Eventually([&] { return dispatcher_->offsets_out_of_range() >= 1; }));
  std::this_thread::sleep_for(milliseconds(300));
  const std::vector<SendRequest> sent = sender_.sent();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].headers.at(0),
            std::make_pair(std::string("webhook-id"), WebhookMessageId("whe_1", "evt_9")));
  auto pending = deliveries_->Pending();
  ASSERT_TRUE(pending);
  EXPECT_TRUE(pending->empty());
}

// Still in Kafka, the message is read again after a restart and brings back the same pending
// delivery that the store queued: it is sent once.
// Outcomes are written by the recorder, off the senders' path: a stop right after the sends
// still leaves every one of them recorded, and a dispatcher started again sends none again.
TEST_F(DispatcherTest, EveryOutcomeHandedToTheRecorderIsStoredByTheStop) {
  ASSERT_TRUE(secrets_->Create("whe_1"));
  CreateEndpoint("whe_1", 5);
  StartDispatcher([](uint64_t) { return true; });
  constexpr int kEvents = 50;
  for (int i = 0; i < kEvents; ++i) PublishSent("evt_" + std::to_string(i), 10 + i);
  ASSERT_TRUE(Eventually([&] { return sender_.sent().size() == kEvents; }));
  dispatcher_->Stop();
  dispatcher_.reset();
  for (int i = 0; i < kEvents; ++i) {
    EXPECT_EQ(StateOf(DeliveryId("whe_1", "evt_" + std::to_string(i))), "succeeded") << i;
  }
  StartDispatcher([](uint64_t) { return true; });
  PublishSent("evt_last", 100);
  ASSERT_TRUE(Eventually([&] { return StateOf(DeliveryId("whe_1", "evt_last")) == "succeeded"; }));
  EXPECT_EQ(sender_.sent().size(), kEvents + 1u);
}

TEST_F(DispatcherTest, ADeliveryQueuedFromTheStoreAndReadAgainIsSentOnce) {
  ASSERT_NO_FATAL_FAILURE(RecordPendingAndStop());
  const std::string id = DeliveryId("whe_1", "evt_9");

  EnableEndpoint("whe_1", 50);
  StartDispatcher([](uint64_t) { return true; });
  // A later event of the same contract (the same partition) is read after evt_9's message.
  PublishSent("evt_10", 60);
  EXPECT_TRUE(Eventually([&] { return StateOf(DeliveryId("whe_1", "evt_10")) == "succeeded"; }));
  EXPECT_EQ(StateOf(id), "succeeded");
  const std::vector<SendRequest> sent = sender_.sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].headers.at(0).second, WebhookMessageId("whe_1", "evt_9"));
  EXPECT_EQ(sent[1].headers.at(0).second, WebhookMessageId("whe_1", "evt_10"));
  EXPECT_EQ(dispatcher_->offsets_out_of_range(), 0u);
}

}  // namespace
}  // namespace esign::webhooks
