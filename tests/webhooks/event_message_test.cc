#include "webhooks/event_message.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>

namespace esign::webhooks {
namespace {

eventstore::EventRecord Record(std::string stream, std::string data = "{}") {
  eventstore::EventRecord record;
  record.position = GlobalPosition(42);
  record.stream_id = std::move(stream);
  record.version = StreamVersion(3);
  record.event_id = "evt_1";
  record.type = "contract.sent";
  record.schema_version = 2;
  record.recorded_at_us = 1'700'000'000'123'456;
  record.actor = {"cli_1", "org_a", "req_1", "10.0.0.1", "curl/8"};
  record.data = std::move(data);
  return record;
}

TEST(EventMessageTest, InternalStreamsAreNotPublished) {
  EXPECT_FALSE(IsPublishedStream("client-cli_1"));
  EXPECT_FALSE(IsPublishedStream("idempotency-abc"));
  EXPECT_FALSE(IsPublishedStream("webhook-whe_1"));
  EXPECT_TRUE(IsPublishedStream("contract-ctr_1"));
  EXPECT_TRUE(IsPublishedStream("template-tpl_1"));
  EXPECT_TRUE(IsPublishedStream("session-ses_1"));
}

TEST(EventMessageTest, ContractStreamIsKeyedByContractId) {
  const EventMessage message = MakeEventMessage(Record("contract-ctr_9", R"({"status":"sent"})"));
  EXPECT_EQ(message.key, "ctr_9");
  const auto value = boost::json::parse(message.value).as_object();
  EXPECT_EQ(value.at("schemaVersion").as_int64(), 1);
  EXPECT_EQ(value.at("eventId").as_string(), "evt_1");
  EXPECT_EQ(value.at("type").as_string(), "contract.sent");
  EXPECT_EQ(value.at("position").to_number<uint64_t>(), 42u);
  EXPECT_EQ(value.at("streamId").as_string(), "contract-ctr_9");
  EXPECT_EQ(value.at("streamVersion").to_number<uint64_t>(), 3u);
  EXPECT_EQ(value.at("contractId").as_string(), "ctr_9");
  EXPECT_EQ(value.at("time").as_string(), "2023-11-14T22:13:20.123456Z");
  EXPECT_EQ(value.at("dataSchemaVersion").as_int64(), 2);
  EXPECT_EQ(value.at("data").at("status").as_string(), "sent");
  // The actor's address and user agent stay out of the topic.
  const auto& actor = value.at("actor").as_object();
  EXPECT_EQ(actor.size(), 2u);
  EXPECT_EQ(actor.at("organizationId").as_string(), "org_a");
}

TEST(EventMessageTest, OtherStreamsUseContractIdOfDataElseStreamId) {
  EXPECT_EQ(MakeEventMessage(Record("session-ses_1", R"({"contractId":"ctr_5"})")).key, "ctr_5");
  const EventMessage tmpl = MakeEventMessage(Record("template-tpl_1", R"({"name":"x"})"));
  EXPECT_EQ(tmpl.key, "template-tpl_1");
  EXPECT_TRUE(boost::json::parse(tmpl.value).at("contractId").is_null());
}

}  // namespace
}  // namespace esign::webhooks
