// JSON member readers: the value when the member has the type asked for, nothing otherwise.
#include "base/json_read.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

const boost::json::object& Sample() {
  static const boost::json::object object =
      boost::json::parse(R"({"s":"text","i":-7,"u":18446744073709551615,"z":0,"d":1.0,)"
                         R"("b":true,"n":null,"o":{"k":1},"a":[1,2]})")
          .as_object();
  return object;
}

TEST(JsonReadTest, AnswersTheMemberOfTheTypeAsked) {
  EXPECT_EQ(StringMember(Sample(), "s"), "text");
  EXPECT_EQ(StringMemberOrEmpty(Sample(), "s"), "text");
  EXPECT_EQ(IntegerMember(Sample(), "i"), -7);
  EXPECT_EQ(IntegerMember(Sample(), "z"), 0);
  EXPECT_EQ(UnsignedMember(Sample(), "u"), UINT64_MAX);
  EXPECT_EQ(UnsignedMember(Sample(), "z"), 0u);
  ASSERT_NE(ObjectMember(Sample(), "o"), nullptr);
  EXPECT_EQ(ObjectMember(Sample(), "o")->size(), 1u);
  ASSERT_NE(ArrayMember(Sample(), "a"), nullptr);
  EXPECT_EQ(ArrayMember(Sample(), "a")->size(), 2u);
  ASSERT_NE(Member(Sample(), "b"), nullptr);
  EXPECT_TRUE(Member(Sample(), "b")->as_bool());
}

TEST(JsonReadTest, WrongTypesAndAbsentMembersAnswerNothing) {
  for (const char* key : {"i", "d", "b", "n", "o", "a", "missing"}) {
    EXPECT_FALSE(StringMember(Sample(), key)) << key;
    EXPECT_EQ(StringMemberOrEmpty(Sample(), key), "") << key;
  }
  for (const char* key : {"s", "u", "d", "b", "n", "o", "a", "missing"}) {
    EXPECT_FALSE(IntegerMember(Sample(), key)) << key;
  }
  for (const char* key : {"s", "i", "d", "b", "n", "o", "a", "missing"}) {
    EXPECT_FALSE(UnsignedMember(Sample(), key)) << key;
  }
  for (const char* key : {"s", "i", "n", "a", "missing"}) {
    EXPECT_EQ(ObjectMember(Sample(), key), nullptr) << key;
  }
  for (const char* key : {"s", "i", "n", "o", "missing"}) {
    EXPECT_EQ(ArrayMember(Sample(), key), nullptr) << key;
  }
  // null counts as absent.
  EXPECT_EQ(Member(Sample(), "n"), nullptr);
  EXPECT_EQ(Member(Sample(), "missing"), nullptr);
}

TEST(JsonReadTest, IntegersAreNeverDoublesAndMustFit) {
  EXPECT_EQ(AsInteger(boost::json::value(uint64_t{5})), 5);
  EXPECT_FALSE(AsInteger(boost::json::value(uint64_t{1} << 63)));
  EXPECT_FALSE(AsInteger(boost::json::value(2.0)));
  EXPECT_EQ(AsUnsigned(boost::json::value(int64_t{5})), 5u);
  EXPECT_FALSE(AsUnsigned(boost::json::value(int64_t{-1})));
  EXPECT_FALSE(AsUnsigned(boost::json::value(2.0)));
}

}  // namespace
}  // namespace esign
