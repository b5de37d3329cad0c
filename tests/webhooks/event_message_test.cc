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

TEST(EventMessageTest, ContractStreamIsKeyedByContractId) {
  const EventMessage message =
      MakeEventMessage(Record("contract-ctr_9", R"({"status":"sent"})"), "org_c");
  EXPECT_EQ(message.key, "ctr_9");
  const auto value = boost::json::parse(message.value).as_object();
  EXPECT_EQ(value.at("schemaVersion").as_int64(), 1);
  EXPECT_EQ(value.at("eventId").as_string(), "evt_1");
  EXPECT_EQ(value.at("type").as_string(), "contract.sent");
  EXPECT_EQ(value.at("position").to_number<uint64_t>(), 42u);
  EXPECT_EQ(value.at("streamId").as_string(), "contract-ctr_9");
  EXPECT_EQ(value.at("streamVersion").to_number<uint64_t>(), 3u);
  EXPECT_EQ(value.at("contractId").as_string(), "ctr_9");
  EXPECT_EQ(value.at("contractOrganizationId").as_string(), "org_c");
  EXPECT_EQ(value.at("time").as_string(), "2023-11-14T22:13:20.123456Z");
  EXPECT_EQ(value.at("dataSchemaVersion").as_int64(), 2);
  EXPECT_EQ(value.at("data").at("status").as_string(), "sent");
  // The actor's address and user agent stay out of the topic.
  const auto& actor = value.at("actor").as_object();
  EXPECT_EQ(actor.size(), 2u);
  EXPECT_EQ(actor.at("organizationId").as_string(), "org_a");
}

TEST(EventMessageTest, ASignersValuesStayOutOfTheTopicAndTheFieldsFilledAreNamed) {
  auto record = Record("contract-ctr_9", R"({"participantId":"prt_1","filledFields":["fld_2"],
    "fieldValues":[{"fieldId":"fld_2","value":"42"}]})");
  record.type = "signer.completed";
  const auto data = boost::json::parse(MakeEventMessage(record, "org_c").value).at("data");
  EXPECT_FALSE(data.as_object().contains("fieldValues"));
  EXPECT_EQ(data.at("filledFields").as_array().size(), 1u);
  // A contract's template data is not a signer's: contract.created keeps it.
  auto created = Record("contract-ctr_9", R"({"fieldValues":{"purpose":"x"}})");
  created.type = "contract.created";
  EXPECT_TRUE(boost::json::parse(MakeEventMessage(created, "org_c").value)
                  .at("data")
                  .as_object()
                  .contains("fieldValues"));
  // An attached file's name stays out too; its hash, type and size go.
  auto attached = Record("contract-ctr_9", R"({"sha256":"ab","name":"passport.png",
    "mediaType":"image/png","size":70})");
  attached.type = "signer.attachment_uploaded";
  const auto file = boost::json::parse(MakeEventMessage(attached, "org_c").value).at("data");
  EXPECT_FALSE(file.as_object().contains("name"));
  EXPECT_EQ(file.at("sha256"), "ab");
}

TEST(EventMessageTest, OtherStreamsUseContractIdOfDataElseStreamId) {
  EXPECT_EQ(
      MakeEventMessage(Record("session-ses_1", R"({"contractId":"ctr_5"})"), std::nullopt).key,
      "ctr_5");
  const EventMessage tmpl =
      MakeEventMessage(Record("template-tpl_1", R"({"name":"x"})"), std::nullopt);
  EXPECT_EQ(tmpl.key, "template-tpl_1");
  EXPECT_TRUE(boost::json::parse(tmpl.value).at("contractId").is_null());
  EXPECT_TRUE(boost::json::parse(tmpl.value).at("contractOrganizationId").is_null());
  // Endpoint events: keyed by their stream, so each endpoint's events keep their order.
  EXPECT_EQ(
      MakeEventMessage(Record("webhook-whe_1", R"({"url":"https://h.example/"})"), std::nullopt)
          .key,
      "webhook-whe_1");
}

TEST(EventMessageTest, ParseEventMessageGivesBackTheRecordButWhatTheTopicLeavesOut) {
  const eventstore::EventRecord record =
      Record("webhook-whe_1", R"({"endpointId":"whe_1","eventTypes":["contract.sent"],"n":1})");
  const EventMessage message = MakeEventMessage(record, std::nullopt);
  auto parsed = ParseEventMessage(message.value);
  ASSERT_TRUE(parsed) << parsed.error().message;
  eventstore::EventRecord expected = record;
  expected.actor = {.client_id = "cli_1", .organization_id = "org_a"};
  EXPECT_EQ(*parsed, expected);
  // And back: the same message. (The data is serialized anew: equal as JSON, and byte for byte
  // for the compact JSON the service writes, though a number may be spelt differently.)
  EXPECT_EQ(MakeEventMessage(*parsed, std::nullopt).value, message.value);

  EXPECT_FALSE(ParseEventMessage("not json"));
  EXPECT_FALSE(ParseEventMessage(R"({"position":1})"));
  boost::json::object bad_time = boost::json::parse(message.value).as_object();
  bad_time["time"] = "yesterday";
  auto refused = ParseEventMessage(boost::json::serialize(bad_time));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed);
}

TEST(EventMessageTest, TheDataGoesAsRecordedAndDamagedDataAsAnEmptyObject) {
  // As the log holds it, white space and key order included (the relay does not parse it).
  const std::string data = R"({"b": 1, "a": {"c": [true, null]}})";
  const EventMessage message = MakeEventMessage(Record("contract-ctr_9", data), "org_c");
  EXPECT_TRUE(message.value.ends_with(",\"data\":" + data + "}")) << message.value;
  EXPECT_EQ(boost::json::parse(message.value).at("data"), boost::json::parse(data));
  // Data that is not one JSON object in valid UTF-8 (only damage can put it in the log) would
  // make the message unreadable: an empty object takes its place.
  for (const std::string damaged :
       {R"({"a":1)", R"([1,2])", "", R"({"a":1} {"b":2})", "{\"a\":\"\xff\"}"}) {
    const EventMessage broken = MakeEventMessage(Record("contract-ctr_9", damaged), "org_c");
    boost::system::error_code ec;
    const boost::json::value value = boost::json::parse(broken.value, ec);
    ASSERT_FALSE(ec) << broken.value;
    EXPECT_EQ(value.at("data"), boost::json::object()) << damaged;
  }
}

}  // namespace
}  // namespace esign::webhooks
