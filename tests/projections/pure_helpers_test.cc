// Key building: the small pure pieces the views rely on.
#include <gtest/gtest.h>

#include "projections/key_codec.h"

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

}  // namespace
}  // namespace esign::projections
