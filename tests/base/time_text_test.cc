// Time text: the stored form written byte for byte and read back only as written, and the RFC 3339
// forms the API accepts.
#include "base/time_text.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

TEST(FormatTimestampTest, Rfc3339UtcWithMicroseconds) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(FormatTimestamp(1), "1970-01-01T00:00:00.000001Z");
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(FormatTimestamp(951'782'400'000'000), "2000-02-29T00:00:00.000000Z");
  EXPECT_EQ(FormatTimestamp(1'795'000'000'123'456), "2026-11-18T11:06:40.123456Z");
  EXPECT_EQ(FormatTimestamp(1'795'239'324'123'456), "2026-11-21T05:35:24.123456Z");
  EXPECT_EQ(FormatTimestamp(253'402'300'799'999'999), "9999-12-31T23:59:59.999999Z");
  EXPECT_EQ(FormatTimestamp(-62'167'219'200'000'000), "0000-01-01T00:00:00.000000Z");
}

TEST(ParseFormattedTimestampTest, RoundTripsEveryFormattedTime) {
  // Steps of a prime number of microseconds cover leap years, month ends and the sign change.
  for (int64_t us = -62'167'219'200'000'000; us <= 253'402'300'799'999'999;
       us += 98'765'432'109'877) {
    EXPECT_EQ(ParseFormattedTimestamp(FormatTimestamp(us)), us) << FormatTimestamp(us);
    EXPECT_EQ(ParseTimestampMicros(FormatTimestamp(us)),
              us < -62'135'596'800'000'000 ? std::nullopt : std::optional<int64_t>(us))
        << FormatTimestamp(us);
  }
}

TEST(ParseFormattedTimestampTest, RefusesAnyOtherText) {
  for (const char* text :
       {"", "2026-11-21T05:35:24.123456", "2026-11-21T05:35:24.12345Z", "2026-11-21T05:35:24Z",
        "2026-11-21T05:35:24.123456+00:00", "2026-11-21t05:35:24.123456Z",
        "2026-02-30T00:00:00.000000Z", "2025-02-29T00:00:00.000000Z", "2026-13-01T00:00:00.000000Z",
        "2026-11-21T24:00:00.000000Z", "2026-11-21T05:60:00.000000Z", "2026-11-21T05:35:60.000000Z",
        "2026-11-21 05:35:24.123456Z", "2026/11/21T05:35:24.123456Z", "+026-11-21T05:35:24.123456Z",
        "2026-11-21T05:35:24.12345xZ"}) {
    EXPECT_FALSE(ParseFormattedTimestamp(text)) << text;
  }
  EXPECT_EQ(ParseFormattedTimestamp("2024-02-29T00:00:00.000000Z"),
            ParseTimestampMicros("2024-02-29"));
}

TEST(ParseTimestampMicrosTest, ParsesRfc3339WithOffsetsAndFractions) {
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:01.5Z"), 1'500'000);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:00.000001Z"), 1);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:00.123456789z"), 123'456);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_EQ(ParseTimestampMicros("1969-12-31T23:00:00-01:00"), 0);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01t00:00:60Z"), 60'000'000);
  EXPECT_EQ(ParseTimestampMicros("2026-01-15T10:00:00Z"), int64_t{1768471200} * 1'000'000);
  EXPECT_EQ(ParseTimestampMicros("2026-01-15"), ParseTimestampMicros("2026-01-15T00:00:00Z"));
  EXPECT_EQ(ParseTimestampMicros("2024-02-29T00:00:00Z"),
            *ParseTimestampMicros("2024-02-28T00:00:00Z") + int64_t{86400} * 1'000'000);
}

TEST(ParseTimestampMicrosTest, RefusesWhatIsNotATimestamp) {
  for (const char* text :
       {"", "2026-01-15T10:00:00", "2026-13-01T00:00:00Z", "2025-02-29", "2026-01-15 10:00:00Z",
        "2026-01-15T24:00:00Z", "2026-01-15T10:00Z", "2026-01-15T10:00:00.Z",
        "2026-01-15T10:00:00.1234567890Z", "2026-01-15T10:00:00+0100", "2026-01-15T10:00:00+01",
        "2026-01-15T10:00:00+24:00", "2026-01-15T10:00:00Zjunk", "0000-01-01", "yesterday",
        "2026-1-5"}) {
    EXPECT_FALSE(ParseTimestampMicros(text)) << text;
  }
}

}  // namespace
}  // namespace esign
