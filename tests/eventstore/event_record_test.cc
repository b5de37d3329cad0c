#include "eventstore/event_record.h"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <string>
#include <vector>

#include "base/time_text.h"

namespace esign::eventstore {
namespace {

using namespace std::string_literals;

EventRecord SampleRecord() {
  EventRecord record;
  record.position = GlobalPosition(17);
  record.stream_id = "contract-ctr_123";
  record.version = StreamVersion(3);
  record.event_id = "evt_abc";
  record.type = "contract.created";
  record.schema_version = 2;
  record.recorded_at_us = 1'795'000'000'123'456;
  record.actor = Actor{"cli_1", "org_9", "req_5", "203.0.113.7", "curl/8.0"};
  record.data = R"({"title":"Lease","amount":12.50,"tags":["a","b"],"nested":{"x":null}})";
  return record;
}

TEST(CanonicalBytesTest, FixedKeyOrderWithoutWhiteSpace) {
  EXPECT_EQ(
      CanonicalBytes(SampleRecord()),
      R"({"position":17,"streamId":"contract-ctr_123","version":3,"eventId":"evt_abc",)"
      R"("type":"contract.created","schemaVersion":2,"recordedAt":"2026-11-18T11:06:40.123456Z",)"
      R"("actor":{"clientId":"cli_1","organizationId":"org_9","requestId":"req_5",)"
      R"("ip":"203.0.113.7","userAgent":"curl/8.0"},)"
      R"("data":{"title":"Lease","amount":12.50,"tags":["a","b"],"nested":{"x":null}}})");
}

TEST(CanonicalBytesTest, RoundTripsThroughParseRecord) {
  const EventRecord record = SampleRecord();
  const std::string bytes = CanonicalBytes(record);
  const Result<EventRecord> parsed = ParseRecord(bytes);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, record);
  EXPECT_EQ(CanonicalBytes(*parsed), bytes);
}

TEST(CanonicalBytesTest, DataIsKeptVerbatim) {
  EventRecord record = SampleRecord();
  // Spacing, key order, number spelling and escapes inside data belong to the caller.
  record.data = "{ \"b\" : 1e3, \"a\":[ ] ,\"s\":\"\\u00e9\\/\"}";
  const std::string bytes = CanonicalBytes(record);
  EXPECT_NE(bytes.find(record.data), std::string::npos);
  EXPECT_EQ(ParseRecord(bytes).value(), record);
}

TEST(CanonicalBytesTest, EmptyDataIsWrittenAsEmptyObject) {
  EventRecord record = SampleRecord();
  record.data.clear();
  const std::string bytes = CanonicalBytes(record);
  EXPECT_TRUE(bytes.ends_with(",\"data\":{}}")) << bytes;
  EXPECT_EQ(ParseRecord(bytes).value().data, "{}");
}

TEST(CanonicalBytesTest, EscapesQuotesBackslashesControlsAndKeepsUtf8) {
  EventRecord record = SampleRecord();
  record.stream_id = "quote\" backslash\\ slash/";
  record.event_id = "nul\0 bell\x07 tab\t nl\n cr\r ff\f bs\b us\x1f del\x7f"s;
  record.type = "données 契約 😀";
  record.actor.user_agent = "\"\\\"\\\\";
  record.actor.ip = "</script>\u2028";
  const std::string bytes = CanonicalBytes(record);
  EXPECT_NE(bytes.find(R"("streamId":"quote\" backslash\\ slash/")"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find(R"("eventId":"nul\u0000 bell\u0007 tab\t nl\n cr\r ff\f bs\b us\u001f del)"
                       "\x7f\""),
            std::string::npos)
      << bytes;
  EXPECT_NE(bytes.find("\"type\":\"données 契約 😀\""), std::string::npos) << bytes;
  EXPECT_NE(bytes.find(R"("userAgent":"\"\\\"\\\\")"), std::string::npos) << bytes;
  for (const char c : bytes) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20) << bytes;

  const Result<EventRecord> parsed = ParseRecord(bytes);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, record);
  EXPECT_EQ(CanonicalBytes(*parsed), bytes);
}

// The ledger hashes these bytes: strings copied without the serializer must come out exactly as
// the serializer writes them, byte for byte.
TEST(CanonicalBytesTest, EveryByteIsWrittenAsTheJsonSerializerWritesIt) {
  for (int byte = 0; byte < 256; ++byte) {
    EventRecord record = SampleRecord();
    record.type = "a" + std::string(1, static_cast<char>(byte)) + "b";
    const std::string expected =
        "\"type\":" + boost::json::serialize(boost::json::string_view(record.type)) + ",";
    EXPECT_NE(CanonicalBytes(record).find(expected), std::string::npos) << byte;
  }
}

TEST(CanonicalBytesTest, ExtremeNumbersRoundTrip) {
  EventRecord record = SampleRecord();
  record.position = GlobalPosition(~uint64_t{0});
  record.version = StreamVersion(0);
  record.schema_version = -2147483647 - 1;
  record.recorded_at_us = 0;
  EXPECT_EQ(ParseRecord(CanonicalBytes(record)).value(), record);
  record.schema_version = 2147483647;
  record.recorded_at_us = -1;
  EXPECT_EQ(ParseRecord(CanonicalBytes(record)).value(), record);
}

TEST(CanonicalBytesTest, EmptyActorRoundTrips) {
  EventRecord record = SampleRecord();
  record.actor = Actor{};
  const std::string bytes = CanonicalBytes(record);
  EXPECT_NE(
      bytes.find(
          R"("actor":{"clientId":"","organizationId":"","requestId":"","ip":"","userAgent":""})"),
      std::string::npos);
  EXPECT_EQ(ParseRecord(bytes).value(), record);
}

TEST(ParseRecordTest, RejectsAnythingButACanonicalRecord) {
  const std::string good = CanonicalBytes(SampleRecord());
  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string text = good;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  const std::vector<std::string> bad = {
      "",
      "{}",
      "[]",
      "null",
      good.substr(0, good.size() - 1),
      good + " ",
      " " + good,
      good + "}",
      replaced("{\"position\":17,", "{\"position\": 17,"),
      replaced("\"position\":17", "\"position\":17.0"),
      replaced("\"position\":17", "\"position\":-17"),
      replaced("\"position\":17", "\"position\":\"17\""),
      replaced("\"position\":17,", "\"position\":17,\"position\":17,"),
      replaced("\"position\":17,\"streamId\":\"contract-ctr_123\"",
               "\"streamId\":\"contract-ctr_123\",\"position\":17"),
      replaced("\"version\":3,", ""),
      replaced("\"schemaVersion\":2", "\"schemaVersion\":2147483648"),
      replaced("\"evt_abc\"", "\"evt_\\u0061bc\""),
      replaced("\"type\"", "\"Type\""),
      replaced("2026-11-18T11:06:40.123456Z", "2026-11-18T08:26:40.123Z"),
      replaced("2026-11-18T11:06:40.123456Z", "2026-02-30T08:26:40.123456Z"),
      replaced("2026-11-18T11:06:40.123456Z", "2026-11-18T24:26:40.123456Z"),
      replaced("2026-11-18T11:06:40.123456Z", "2026-11-18 08:26:40.123456Z"),
      replaced("2026-11-18T11:06:40.123456Z", "2026-11-18T08:26:40.123456+00:00"),
      replaced("\"ip\":\"203.0.113.7\",", ""),
      replaced("\"userAgent\":\"curl/8.0\"", "\"userAgent\":null"),
      replaced("\"userAgent\":\"curl/8.0\"}", "\"userAgent\":\"curl/8.0\",\"x\":1}"),
      replaced(",\"data\":{", ",\"extra\":1,\"data\":{"),
      replaced(",\"data\":{\"title\"", ",\"data\":[{\"title\""),
      replaced("\"nested\":{\"x\":null}}}", "\"nested\":{\"x\":null}},\"data\":{}}"),
      replaced("\"nested\":{\"x\":null}}}", "\"nested\":{\"x\":null}},\"more\":1}"),
      replaced("\"nested\":{\"x\":null}}}", "\"nested\":{\"x\":nul}}}"),
      replaced("{\"title\"", "{title"),
      good.substr(0, good.find(",\"data\":")) + "}",
      good.substr(0, good.find(",\"data\":")) + ",\"data\":}",
      good.substr(0, good.find(",\"data\":")) + ",\"data\":\"{}\"}",
  };
  for (const std::string& text : bad) {
    const Result<EventRecord> parsed = ParseRecord(text);
    ASSERT_FALSE(parsed) << text;
    EXPECT_EQ(parsed.error().code, ErrorCode::kCorruption) << text;
  }
}

TEST(ParseRecordTest, EveryTruncationIsRejected) {
  const std::string good = CanonicalBytes(SampleRecord());
  for (size_t size = 0; size < good.size(); ++size) {
    EXPECT_FALSE(ParseRecord(std::string_view(good).substr(0, size))) << size;
  }
}

TEST(ParseRecordTest, RecordedAtRoundTripsAcrossDays) {
  EventRecord record = SampleRecord();
  // Steps of a prime number of microseconds cover leap years, month ends and the sign change.
  for (int64_t us = -3'000'000'000'000'000; us < 3'000'000'000'000'000; us += 9'876'543'210'987) {
    record.recorded_at_us = us;
    const Result<EventRecord> parsed = ParseRecord(CanonicalBytes(record));
    ASSERT_TRUE(parsed) << FormatTimestamp(us);
    EXPECT_EQ(parsed->recorded_at_us, us) << FormatTimestamp(us);
  }
}

// StringInData reads one member without building the object: it must answer exactly as the
// object boost::json::parse builds would.
TEST(StringInDataTest, AnswersAsTheParsedObjectWould) {
  const std::vector<std::string> texts = {
      R"({"organizationId":"org_a","x":1})",
      R"({"x":{"organizationId":"nested"},"organizationId":"org_b"})",
      R"({"x":[{"organizationId":"in an array"}]})",
      R"({"organizationId":5})",
      R"({"organizationId":null})",
      R"({"organizationId":{"id":"org_c"}})",
      R"({"organizationId":["org_d"]})",
      R"({"organizationId":"first","organizationId":"last"})",
      R"({"organizationId":"first","organizationId":7})",
      R"({"organizationId":7,"organizationId":"later"})",
      R"({"organization\u0049d":"escaped key","y":"o\"rg\n\u00e9"})",
      R"({"organizationId":"with \"quotes\" and \\ and \u00e9 and \ud83d\ude00"})",
      R"( {"organizationId":"white space around"} )",
      R"({"organizationId":"org_a"} trailing)",
      R"({"organizationId":"org_a")",
      R"(["organizationId","org_a"])",
      R"("organizationId")",
      "",
      "{\"organizationId\":\"bad \xff utf-8\"}",
      R"({"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"organizationId":"deep"})",
      R"({"organizationIdX":"longer key","organizationI":"shorter key"})",
  };
  for (const std::string& text : texts) {
    EventRecord record;
    record.data = text;
    std::optional<std::string> expected;
    boost::system::error_code ec;
    const boost::json::value parsed = boost::json::parse(text, ec);
    if (!ec && parsed.is_object()) {
      const auto* member = parsed.as_object().if_contains("organizationId");
      if (member != nullptr && member->is_string()) expected = std::string(member->as_string());
    }
    EXPECT_EQ(StringInData(record, "organizationId"), expected) << text;
  }
  EventRecord record;
  record.data = R"({"organizationId":"org_a"})";
  EXPECT_EQ(StringInData(record, "organizationId"), "org_a");  // the cases above can fail
}

}  // namespace
}  // namespace esign::eventstore
