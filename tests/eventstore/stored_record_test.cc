#include "eventstore/stored_record.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "eventstore/event_record.h"

namespace esign::eventstore {
namespace {

// Strings that exercise escaping: quotes, backslashes, control characters, UTF-8, invalid UTF-8,
// and plain ones that take the fast path.
std::string RandomString(std::mt19937_64& random) {
  static const std::vector<std::string> pieces = {
      "a",  "Z",  "ctr_01HZX",          "-",    "_",    " ",        "\"",           "\\",   "/",
      "\n", "\t", std::string(1, '\0'), "\x1f", "\x7f", "\xc3\xa9", "\xe2\x80\xa8", "\xff", "\xc3",
      "{",  "}",  ",\"data\":",         ":"};
  std::string out;
  const size_t count = random() % 6;
  for (size_t i = 0; i < count; ++i) out += pieces[random() % pieces.size()];
  return out;
}

EventRecord RandomRecord(std::mt19937_64& random) {
  static const std::vector<uint64_t> numbers = {0,  1,     9,
                                                10, 12345, std::numeric_limits<uint64_t>::max()};
  static const std::vector<int> ints = {
      0, 1, -1, 2, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
  static const std::vector<int64_t> times = {0,
                                             1,
                                             -1,
                                             1'795'000'000'123'456,
                                             -62'167'219'200'000'000,  // 0000-01-01
                                             253'402'300'799'999'999,  // 9999-12-31
                                             253'402'300'800'000'000,  // 10000-01-01
                                             951'782'400'000'000};     // 2000-02-29
  static const std::vector<std::string> data = {"{}", R"({"a":1})", R"({"x":[1,{"y":"\""}]})",
                                                R"({"s":"\u00e9","n":-1.5e3,"t":true})"};
  EventRecord record;
  record.position = GlobalPosition(numbers[random() % numbers.size()]);
  record.stream_id = RandomString(random);
  record.version = StreamVersion(numbers[random() % numbers.size()]);
  record.event_id = RandomString(random);
  record.type = RandomString(random);
  record.schema_version = ints[random() % ints.size()];
  record.recorded_at_us = times[random() % times.size()] + static_cast<int64_t>(random() % 1000);
  record.actor = Actor{RandomString(random), RandomString(random), RandomString(random),
                       RandomString(random), RandomString(random)};
  record.data = data[random() % data.size()];
  return record;
}

// StoredRecordPosition answers what ParseStoredRecord answers: the record's position, or the same
// error.
void ExpectSamePosition(const std::string& bytes, const Result<EventRecord>& parsed) {
  const Result<GlobalPosition> position = StoredRecordPosition(bytes);
  ASSERT_EQ(position.has_value(), parsed.has_value()) << bytes;
  if (parsed) {
    EXPECT_EQ(*position, parsed->position) << bytes;
  } else {
    EXPECT_EQ(position.error().message, parsed.error().message) << bytes;
  }
}

// The head-only parse and the position read give what the full parse gives, or fail with it.
void ExpectAgreesWithParseRecord(const std::string& bytes) {
  const Result<EventRecord> fast = ParseStoredRecord(bytes);
  const Result<EventRecord> reference = ParseRecord(bytes);
  ASSERT_EQ(fast.has_value(), reference.has_value()) << bytes;
  if (reference) {
    EXPECT_EQ(*fast, *reference) << bytes;
  }
  ExpectSamePosition(bytes, fast);
}

TEST(StoredRecordTest, AgreesWithParseRecordOnRandomRecords) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 5000; ++i) {
    const EventRecord record = RandomRecord(random);
    const std::string bytes = CanonicalBytes(record);
    ASSERT_NO_FATAL_FAILURE(ExpectAgreesWithParseRecord(bytes));
  }
}

TEST(StoredRecordTest, AgreesWithParseRecordOnDamagedHeads) {
  std::mt19937_64 random(11);
  const std::string replacements = "0123456789-\"\\{}:,. aZ\x01\x80";
  for (int i = 0; i < 5000; ++i) {
    const EventRecord record = RandomRecord(random);
    std::string bytes = CanonicalBytes(record);
    const size_t head = bytes.find(",\"data\":") + 8;
    // Change, drop or insert one byte of the head (the data is the fast path's stated exception).
    const size_t at = random() % head;
    switch (random() % 3) {
      case 0:
        bytes[at] = replacements[random() % replacements.size()];
        break;
      case 1:
        bytes.erase(at, 1);
        break;
      case 2:
        bytes.insert(at, 1, replacements[random() % replacements.size()]);
        break;
    }
    ASSERT_NO_FATAL_FAILURE(ExpectAgreesWithParseRecord(bytes));
  }
}

// Head strings longer than the fast path's 16-byte steps, with one special byte at every offset:
// quotes, backslashes and control characters end the fast path wherever they sit.
TEST(StoredRecordTest, AgreesWithParseRecordOnLongStringsWithOneSpecialByte) {
  const std::string specials = std::string("\"\\\x01\x1f\x20\x7f\x80\xff") + std::string(1, '\0');
  for (size_t length = 1; length <= 40; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (const char special : specials) {
        EventRecord record;
        record.position = GlobalPosition(length * 100 + at);
        record.stream_id = "contract-" + std::string(length, 'a');
        record.stream_id[9 + at] = special;
        record.event_id = std::string(length, 'e');
        record.type = "contract.created";
        record.actor.user_agent = record.stream_id;
        record.data = R"({"n":1})";
        const std::string bytes = CanonicalBytes(record);
        ASSERT_NO_FATAL_FAILURE(ExpectAgreesWithParseRecord(bytes));
      }
    }
  }
}

TEST(StoredRecordTest, TakesTheFastPathForPlainRecords) {
  EventRecord record;
  record.position = GlobalPosition(42);
  record.stream_id = "contract-ctr_1";
  record.version = StreamVersion(3);
  record.event_id = "evt_1";
  record.type = "contract.created";
  record.recorded_at_us = 1'795'000'000'123'456;
  record.data = R"({"title":"Lease"})";
  EXPECT_EQ(ParseStoredRecord(CanonicalBytes(record)).value(), record);
  EXPECT_EQ(StoredRecordPosition(CanonicalBytes(record)).value(), GlobalPosition(42));
}

TEST(CheckEventDataTest, AcceptsWhatParseRecordReadsBack) {
  for (const char* good : {"", "{}", R"({"a":[1,2,{"b":null}]})", "{\"s\":\"\xff\"}"}) {
    EXPECT_TRUE(CheckEventData(good)) << good;
    EventRecord record;
    record.data = good;
    EXPECT_TRUE(ParseRecord(CanonicalBytes(record))) << good;
  }
  for (const char* bad :
       {"[]", "1", "\"s\"", "{", "{} ", " {}", "{}{}", "{\"a\":}", "{}x", "{\"a\":1,}", "null"}) {
    EXPECT_FALSE(CheckEventData(bad)) << bad;
    EventRecord record;
    record.data = bad;
    EXPECT_FALSE(ParseRecord(CanonicalBytes(record))) << bad;
  }
  std::string deep(300, '[');
  deep = "{\"a\":" + deep + std::string(300, ']') + "}";
  EXPECT_FALSE(CheckEventData(deep));
}

}  // namespace
}  // namespace esign::eventstore
