// Key building and timestamps: the small pure pieces the views rely on.
#include <gtest/gtest.h>

#include "projections/key_codec.h"
#include "projections/timestamp.h"

namespace esign::projections {
namespace {

TEST(KeyCodecTest, EscapesTheSeparatorSoPrefixesCannotCross) {
  EXPECT_EQ(EscapeKeyPart("org_1"), "org_1");
  EXPECT_EQ(EscapeKeyPart("ctr_01JD3V7Q2K"), "ctr_01JD3V7Q2K");
  EXPECT_EQ(EscapeKeyPart("a/b"), "a%2Fb");
  EXPECT_EQ(EscapeKeyPart("100%"), "100%25");
  EXPECT_EQ(EscapeKeyPart(std::string("x\0y\n", 4)), "x%00y%0A");
  // "a/" + anything of org "a/b" can never start with the prefix "a/" of org "a".
  EXPECT_FALSE(EscapeKeyPart("a/b").starts_with("a/"));
}

TEST(KeyCodecTest, HexKeepsNumericOrder) {
  EXPECT_EQ(HexU64(0), "0000000000000000");
  EXPECT_EQ(HexU64(255), "00000000000000ff");
  EXPECT_LT(HexU64(9), HexU64(10));
  EXPECT_EQ(ParseHexU64(HexU64(123456789)), 123456789u);
  EXPECT_FALSE(ParseHexU64("12"));
  EXPECT_FALSE(ParseHexU64("000000000000000g"));
}

TEST(KeyCodecTest, PrefixSuccessor) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor("a/"), "a0");
  EXPECT_EQ(PrefixSuccessor(std::string("a\xff", 2)), "b");
  EXPECT_EQ(PrefixSuccessor(std::string("\xff\xff", 2)), "");
}

TEST(KeyCodecTest, AsciiLowerLeavesOtherBytes) {
  EXPECT_EQ(AsciiLower("MiXeD Case 123"), "mixed case 123");
  EXPECT_EQ(AsciiLower("\xC3\x84rger"), "\xC3\x84rger");
}

TEST(TimestampTest, ParsesRfc3339WithOffsetsAndFractions) {
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:01.5Z"), 1'500'000);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T00:00:00.000001Z"), 1);
  EXPECT_EQ(ParseTimestampMicros("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_EQ(ParseTimestampMicros("1969-12-31T23:00:00-01:00"), 0);
  EXPECT_EQ(ParseTimestampMicros("2026-01-15T10:00:00Z"), int64_t{1768471200} * 1'000'000);
  EXPECT_EQ(ParseTimestampMicros("2026-01-15"), ParseTimestampMicros("2026-01-15T00:00:00Z"));
  EXPECT_EQ(ParseTimestampMicros("2024-02-29T00:00:00Z"),
            *ParseTimestampMicros("2024-02-28T00:00:00Z") + int64_t{86400} * 1'000'000);
}

TEST(TimestampTest, RefusesWhatIsNotATimestamp) {
  for (const char* text :
       {"", "2026-01-15T10:00:00", "2026-13-01T00:00:00Z", "2025-02-29", "2026-01-15 10:00:00Z",
        "2026-01-15T24:00:00Z", "2026-01-15T10:00Z", "2026-01-15T10:00:00.Z",
        "2026-01-15T10:00:00+0100", "2026-01-15T10:00:00Zjunk", "yesterday", "2026-1-5"}) {
    EXPECT_FALSE(ParseTimestampMicros(text)) << text;
  }
}

}  // namespace
}  // namespace esign::projections
