// Delivery payloads, ids and signatures; the retry schedule; the delivery store.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "delivery/delivery_store.h"
#include "delivery/retry_schedule.h"
#include "tests/support/temp_dir.h"
#include "webhooks/delivery_message.h"
#include "webhooks/delivery_topics.h"

namespace esign::webhooks {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

TEST(DeliveryMessageTest, LifecycleEventsOfTheTopicBecomePayloads) {
  const std::string value =
      R"({"schemaVersion":1,"eventId":"evt_9","type":"signer.completed","position":41,
          "streamId":"contract-ctr_1","streamVersion":5,"contractId":"ctr_1",
          "time":"2026-11-21T08:00:00.000000Z","data":{"participantId":"prt_2"}})";
  auto event = ParseLifecycleEvent(value);
  ASSERT_TRUE(event);
  const auto body = boost::json::parse(DeliveryBody(*event)).as_object();
  EXPECT_EQ(body.at("type").as_string(), "signer.completed");
  EXPECT_EQ(body.at("timestamp").as_string(), "2026-11-21T08:00:00.000000Z");
  const auto& data = body.at("data").as_object();
  EXPECT_EQ(data.at("contractId").as_string(), "ctr_1");
  EXPECT_EQ(data.at("status").as_string(), "signing");
  EXPECT_EQ(data.at("eventId").as_string(), "evt_9");
  EXPECT_EQ(data.at("position").to_number<uint64_t>(), 41u);
  EXPECT_EQ(data.at("streamVersion").to_number<uint64_t>(), 5u);
  EXPECT_EQ(data.at("participantId").as_string(), "prt_2");
  // Events that are no webhook event type, or of no contract, are no deliveries.
  EXPECT_FALSE(
      ParseLifecycleEvent(R"({"type":"contract.prepared","contractId":"c","eventId":"e"})"));
  EXPECT_FALSE(ParseLifecycleEvent(R"({"type":"contract.sent","contractId":null,"eventId":"e"})"));
  EXPECT_FALSE(ParseLifecycleEvent("not json"));
}

TEST(DeliveryMessageTest, ControllerComesFromContractOrganizationIdElseFromContractCreated) {
  auto sent = ParseLifecycleEvent(
      R"({"eventId":"evt_2","type":"contract.sent","contractId":"ctr_1",
          "contractOrganizationId":"org_a","data":{"organizationId":"org_other"}})");
  ASSERT_TRUE(sent);
  EXPECT_EQ(sent->organization_id, "org_a");
  // A message without the field (published before it existed): contract.created names it.
  auto created = ParseLifecycleEvent(
      R"({"eventId":"evt_1","type":"contract.created","contractId":"ctr_1",
          "data":{"organizationId":"org_b"}})");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->organization_id, "org_b");
  // Null or absent on other events: left to the dispatcher's own lookup.
  auto unknown = ParseLifecycleEvent(
      R"({"eventId":"evt_3","type":"contract.sent","contractId":"ctr_1",
          "contractOrganizationId":null,"data":{"organizationId":"org_b"}})");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->organization_id, "");
}

TEST(DeliveryMessageTest, StatusFollowsTheSpecificationTable) {
  EXPECT_EQ(StatusAfter("contract.created"), "draft");
  EXPECT_EQ(StatusAfter("contract.sent"), "sent");
  EXPECT_EQ(StatusAfter("contract.signing_in_progress"), "signing");
  EXPECT_EQ(StatusAfter("contract.completed"), "completed");
  EXPECT_EQ(StatusAfter("signer.declined"), "declined");
  EXPECT_EQ(StatusAfter("contract.declined"), "declined");
  EXPECT_EQ(StatusAfter("contract.voided"), "voided");
  EXPECT_EQ(StatusAfter("contract.expired"), "expired");
  EXPECT_EQ(StatusAfter("participant.reminded"), "");
}

TEST(DeliveryMessageTest, VoidExpiryAndRemindersAreDeliveries) {
  for (const std::string type : {"contract.voided", "contract.expired", "participant.reminded"}) {
    EXPECT_TRUE(IsWebhookEventType(type)) << type;
  }
  EXPECT_FALSE(IsWebhookEventType("signing_session.cancelled"));
  auto voided = ParseLifecycleEvent(
      R"({"eventId":"evt_7","type":"contract.voided","position":9,"streamVersion":4,
          "contractId":"ctr_1","time":"2026-11-21T08:00:00.000000Z",
          "data":{"reason":"wrong price","voidedBy":"cli_1"}})");
  ASSERT_TRUE(voided);
  const auto voided_data = boost::json::parse(DeliveryBody(*voided)).at("data").as_object();
  EXPECT_EQ(voided_data.at("status").as_string(), "voided");
  EXPECT_FALSE(voided_data.contains("participantId"));

  // A reminder changes no status, and the message does not say whether the contract is sent or
  // signing: its payload names the participant and leaves the status out.
  auto reminded = ParseLifecycleEvent(
      R"({"eventId":"evt_8","type":"participant.reminded","position":10,"streamVersion":5,
          "contractId":"ctr_1","time":"2026-11-21T09:00:00.000000Z",
          "data":{"participantId":"prt_2","reminderNumber":1,"channel":"webhook"}})");
  ASSERT_TRUE(reminded);
  const auto body = boost::json::parse(DeliveryBody(*reminded)).as_object();
  EXPECT_EQ(body.at("type").as_string(), "participant.reminded");
  const auto& data = body.at("data").as_object();
  EXPECT_EQ(data.at("participantId").as_string(), "prt_2");
  EXPECT_FALSE(data.contains("status"));
  EXPECT_EQ(data.at("streamVersion").to_number<uint64_t>(), 5u);
}

TEST(DeliveryMessageTest, IdsAreStablePerEndpointAndEvent) {
  EXPECT_EQ(WebhookMessageId("whe_1", "evt_1"), WebhookMessageId("whe_1", "evt_1"));
  EXPECT_NE(WebhookMessageId("whe_1", "evt_1"), WebhookMessageId("whe_2", "evt_1"));
  EXPECT_EQ(WebhookMessageId("whe_1", "evt_1").substr(4), DeliveryId("whe_1", "evt_1").substr(4));
  EXPECT_EQ(WebhookMessageId("whe_1", "evt_1").size(), 36u);
}

// The example of the Standard Webhooks specification (its reference libraries' tests).
TEST(DeliveryMessageTest, SignatureMatchesTheStandardWebhooksExample) {
  const std::string header =
      SignatureHeader({"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, "msg_p5jXN8AQM9LWM0D4loKWxJek",
                      1614265330, R"({"test": 2432232314})");
  EXPECT_EQ(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  // Two secrets during a rotation: two signatures; malformed secrets are skipped.
  const std::string two = SignatureHeader(
      {"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "x"},
      "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, R"({"test": 2432232314})");
  EXPECT_EQ(two, header + " " + header);
}

TEST(RetryScheduleTest, FollowsTheScheduleWithinTenPercent) {
  EXPECT_EQ(delivery::NextRetryDelay(1, 0.0), milliseconds(seconds(5)));
  EXPECT_EQ(delivery::NextRetryDelay(2, 0.0), milliseconds(minutes(5)));
  EXPECT_EQ(delivery::NextRetryDelay(9, 0.0), milliseconds(hours(24)));
  EXPECT_EQ(delivery::NextRetryDelay(1, 1.0), milliseconds(5500));
  EXPECT_EQ(delivery::NextRetryDelay(1, -1.0), milliseconds(4500));
  EXPECT_FALSE(delivery::NextRetryDelay(10, 0.0));  // the tenth failure ends the schedule
  EXPECT_FALSE(delivery::NextRetryDelay(0, 0.0));
  milliseconds total{0};
  for (size_t n = 1; n <= delivery::kRetryDelays.size(); ++n)
    total += *delivery::NextRetryDelay(n, 0.0);
  EXPECT_GT(total, hours(72));
  EXPECT_LT(total, hours(84));
}

TEST(RetryScheduleTest, RetryAfterReplacesTheWaitDownToThePreviousStepUpToADay) {
  EXPECT_EQ(delivery::NextRetryDelay(1, 0.0, seconds(60)), milliseconds(seconds(60)));
  EXPECT_EQ(delivery::NextRetryDelay(1, 0.9, seconds(2)), milliseconds(seconds(2)));  // no jitter
  EXPECT_EQ(delivery::NextRetryDelay(1, 0.0, seconds(0)), milliseconds(0));
  EXPECT_EQ(delivery::NextRetryDelay(2, 0.0, seconds(60)), milliseconds(seconds(60)));
  EXPECT_EQ(delivery::NextRetryDelay(2, 0.0, seconds(1)), milliseconds(seconds(5)));
  EXPECT_EQ(delivery::NextRetryDelay(4, 0.0, seconds(1)), milliseconds(minutes(30)));
  EXPECT_EQ(delivery::NextRetryDelay(1, 0.0, hours(100)), milliseconds(hours(24)));
  EXPECT_FALSE(delivery::NextRetryDelay(10, 0.0, seconds(1)));
  // A receiver that always asks for 1 s still gets about two days before the schedule ends.
  milliseconds total{0};
  for (size_t n = 1; n <= delivery::kRetryDelays.size(); ++n)
    total += *delivery::NextRetryDelay(n, 0.0, seconds(1));
  EXPECT_GT(total, hours(48));
}

delivery::Delivery Make(const std::string& endpoint, uint64_t position) {
  return delivery::Delivery{.id = DeliveryId(endpoint, "evt_" + std::to_string(position)),
                            .destination_id = endpoint,
                            .webhook_id = "msg_x",
                            .event_id = "evt_" + std::to_string(position),
                            .event_type = "contract.sent",
                            .contract_id = "ctr_1",
                            .position = position,
                            .body = "{}",
                            .next_attempt_us = 5,
                            .created_us = 5};
}

TEST(DeliveryStoreTest, AnOutboxListsAContractsDeliveriesWhatIsPendingAndItsCheckpoint) {
  esign::testing::TempDir dir;
  auto store = delivery::DeliveryStore::Open(dir.path(), "mail", /*outbox=*/true);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_FALSE((*store)->Checkpoint().value());  // none before the first
  ASSERT_TRUE((*store)->Admit({Make("a@x.example", 9), Make("b@x.example", 3)}));
  delivery::Delivery failed = Make("b@x.example", 3);
  failed.state = delivery::DeliveryState::kFailed;
  ASSERT_TRUE((*store)->Update(failed));

  auto of_contract = (*store)->OfContract("ctr_1", 10);
  ASSERT_TRUE(of_contract);
  ASSERT_EQ(of_contract->size(), 2u);
  EXPECT_EQ((*of_contract)[0].position, 3u);  // log order
  EXPECT_EQ((*of_contract)[0].state, delivery::DeliveryState::kFailed);
  EXPECT_TRUE((*store)->OfContract("ctr_2", 10)->empty());
  auto pending = (*store)->Pending();
  ASSERT_TRUE(pending);
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ((*pending)[0].position, 9u);

  ASSERT_TRUE((*store)->SetCheckpoint(10));
  EXPECT_EQ((*store)->Checkpoint().value(), std::optional<uint64_t>(10));

  // A webhook store keeps no contract index, but knows its pending deliveries like any other:
  // a restart sends them whatever Kafka still holds of their messages.
  esign::testing::TempDir webhook_dir;
  auto webhooks = delivery::DeliveryStore::Open(webhook_dir.path());
  ASSERT_TRUE(webhooks);
  ASSERT_TRUE((*webhooks)->Admit({Make("whe_a", 4), Make("whe_a", 1)}));
  delivery::Delivery sent = Make("whe_a", 4);
  sent.state = delivery::DeliveryState::kSucceeded;
  ASSERT_TRUE((*webhooks)->UpdateAdmitted(sent));
  auto webhook_pending = (*webhooks)->Pending();
  ASSERT_TRUE(webhook_pending);
  ASSERT_EQ(webhook_pending->size(), 1u);
  EXPECT_EQ((*webhook_pending)[0].position, 1u);
  EXPECT_TRUE((*webhooks)->OfContract("ctr_1", 10)->empty());
}

// A store written before webhook deliveries had the pending index, and before records named a
// lane's destinationId: its pending records get the index at the first open, the others not, and
// load with their endpointId as destination.
TEST(DeliveryStoreTest, AStoreWithoutThePendingIndexGetsItAtOpen) {
  esign::testing::TempDir dir;
  delivery::Delivery pending = Make("whe_a", 2);
  delivery::Delivery succeeded = Make("whe_a", 3);
  succeeded.state = delivery::DeliveryState::kSucceeded;
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir.path() + "/webhook-deliveries", &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    // As records were written before the core named a lane's destination channel-neutrally.
    std::string old_record = delivery::DeliveryToJson(pending);
    const size_t name = old_record.find("\"destinationId\"");
    ASSERT_NE(name, std::string::npos);
    old_record.replace(name, 15, "\"endpointId\"");
    ASSERT_TRUE(db->Put({}, "d/" + pending.id, old_record).ok());
    ASSERT_TRUE(db->Put({}, "d/" + succeeded.id, delivery::DeliveryToJson(succeeded)).ok());
  }
  for (int open = 0; open < 2; ++open) {  // the second finds the index made by the first
    auto store = delivery::DeliveryStore::Open(dir.path());
    ASSERT_TRUE(store) << store.error().message;
    auto listed = (*store)->Pending();
    ASSERT_TRUE(listed);
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ((*listed)[0], pending);
  }
}

TEST(DeliveryStoreTest, AdmitsNewDeliveriesOnceAndReturnsThoseStillPending) {
  esign::testing::TempDir dir;
  auto store = delivery::DeliveryStore::Open(dir.path());
  ASSERT_TRUE(store) << store.error().message;
  std::vector<std::string> stored_now;
  auto admitted =
      (*store)->Admit({Make("whe_a", 9), Make("whe_a", 3), Make("whe_b", 4)}, &stored_now);
  ASSERT_TRUE(admitted);
  EXPECT_EQ(admitted->size(), 3u);
  EXPECT_EQ(stored_now,
            (std::vector<std::string>{(*admitted)[0].id, (*admitted)[1].id, (*admitted)[2].id}));

  delivery::Delivery done = (*admitted)[1];
  ASSERT_EQ(done.position, 3u);
  done.attempts.push_back({.at_us = 7, .code = 200, .latency_ms = 3});
  done.state = delivery::DeliveryState::kSucceeded;
  ASSERT_TRUE((*store)->Update(done));
  EXPECT_EQ(*(*store)->Get(done.id).value(), done);

  // The same events read again (a restart, a rebalance): only the one still pending comes back,
  // as stored, and nothing is stored twice.
  delivery::Delivery again = Make("whe_a", 9);
  again.body = "changed";
  auto readmitted = (*store)->Admit({again, Make("whe_a", 3), Make("whe_d", 5)}, &stored_now);
  ASSERT_TRUE(readmitted);
  ASSERT_EQ(readmitted->size(), 2u);
  // Only the new one was stored now: the one read again was stored before.
  EXPECT_EQ(stored_now, std::vector<std::string>{Make("whe_d", 5).id});
  EXPECT_EQ((*readmitted)[0].position, 9u);
  EXPECT_EQ((*readmitted)[0].body, "{}");

  auto listed = (*store)->List("whe_a", 0, 10);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].position, 9u);  // newest first
  EXPECT_EQ((*store)->List("whe_a", 9, 10)->size(), 1u);
  EXPECT_TRUE((*store)->List("whe_c", 0, 10)->empty());

  // A delivery first stored by Update (one recorded by another dispatcher) is listed too.
  ASSERT_TRUE((*store)->Update(Make("whe_c", 12)));
  EXPECT_EQ((*store)->List("whe_c", 0, 10)->size(), 1u);
}

TEST(DeliveryStoreTest, CountsPendingDeliveriesAndOutcomesAsTheyAreWritten) {
  esign::testing::TempDir dir;
  {
    auto store = delivery::DeliveryStore::Open(dir.path(), "mail", /*outbox=*/true);
    ASSERT_TRUE(store) << store.error().message;
    std::vector<delivery::Delivery> made{Make("a@x.example", 1), Make("b@x.example", 2),
                                         Make("c@x.example", 3)};
    for (size_t i = 0; i < made.size(); ++i) made[i].created_us = int64_t{100} * (3 - i);
    ASSERT_TRUE((*store)->Admit(made));
    auto counts = (*store)->Counts();
    EXPECT_EQ(counts.pending, 3u);
    EXPECT_EQ(counts.oldest_pending_created_us, std::optional<int64_t>(100));

    // The oldest is deferred, then sent: one failed attempt, one sent.
    delivery::Delivery oldest = made[2];
    oldest.attempts.push_back({.at_us = 7, .code = 451});
    ASSERT_TRUE((*store)->UpdateAdmitted(oldest));
    EXPECT_EQ((*store)->Counts().failed_attempts, 1u);
    EXPECT_EQ((*store)->Counts().pending, 3u);
    oldest.attempts.push_back({.at_us = 9, .code = 250});
    oldest.state = delivery::DeliveryState::kSucceeded;
    ASSERT_TRUE((*store)->Update(oldest));
    // Another fails for good, and its record is written again: counted once.
    delivery::Delivery refused = made[0];
    refused.attempts.push_back({.at_us = 8, .code = 550});
    refused.state = delivery::DeliveryState::kFailed;
    ASSERT_TRUE((*store)->Update(refused));
    ASSERT_TRUE((*store)->Update(refused));

    counts = (*store)->Counts();
    EXPECT_EQ(counts.pending, 1u);
    EXPECT_EQ(counts.oldest_pending_created_us, std::optional<int64_t>(200));
    EXPECT_EQ(counts.sent, 1u);
    EXPECT_EQ(counts.failed, 1u);
    EXPECT_EQ(counts.failed_attempts, 2u);
  }
  // Opened again: what is pending is known at once; the totals start over.
  auto reopened = delivery::DeliveryStore::Open(dir.path(), "mail", /*outbox=*/true);
  ASSERT_TRUE(reopened) << reopened.error().message;
  const auto counts = (*reopened)->Counts();
  EXPECT_EQ(counts.pending, 1u);
  EXPECT_EQ(counts.oldest_pending_created_us, std::optional<int64_t>(200));
  EXPECT_EQ(counts.sent, 0u);
  EXPECT_EQ(counts.failed, 0u);
}

TEST(DeliveryTopicsTest, RequestsAndRecordsRoundTrip) {
  delivery::Delivery delivery = Make("whe_a", 7);
  delivery.attempts.push_back({.at_us = 9, .code = 503, .latency_ms = 4, .error = ""});
  delivery.state = delivery::DeliveryState::kSucceeded;
  const delivery::Delivery retried = RetriedNow(delivery, 100);
  EXPECT_EQ(retried.state, delivery::DeliveryState::kPending);
  EXPECT_EQ(retried.round_start, 1u);
  EXPECT_EQ(retried.next_attempt_us, 100);

  const TopicMessage retry = RetryRequestMessage(retried);
  EXPECT_EQ(retry.topic, kRetriesTopic);
  EXPECT_EQ(retry.key, "ctr_1");  // the contract's partition
  auto parsed = ParseDeliveryTopicRecord(retry.value);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->kind, DeliveryTopicRecord::Kind::kRetry);
  EXPECT_EQ(parsed->delivery, retried);

  const TopicMessage record = DeliveryRecordMessage(delivery);
  EXPECT_EQ(record.topic, kDeliveriesTopic);
  EXPECT_EQ(record.key, delivery.id);
  parsed = ParseDeliveryTopicRecord(record.value);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->kind, DeliveryTopicRecord::Kind::kDelivery);
  EXPECT_EQ(parsed->delivery, delivery);

  parsed = ParseDeliveryTopicRecord(DisableRequestMessage("whe_a", "410 Gone").value);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->kind, DeliveryTopicRecord::Kind::kDisable);
  EXPECT_EQ(parsed->endpoint_id, "whe_a");
  EXPECT_EQ(parsed->reason, "410 Gone");

  EXPECT_FALSE(ParseDeliveryTopicRecord("not json"));
  EXPECT_FALSE(ParseDeliveryTopicRecord(R"({"kind":"other"})"));
  EXPECT_FALSE(ParseDeliveryTopicRecord(R"({"kind":"retry","delivery":{}})"));
  EXPECT_FALSE(ParseDeliveryTopicRecord(R"({"kind":"disable","endpointId":7})"));
}

}  // namespace
}  // namespace esign::webhooks
