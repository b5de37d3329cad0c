#include "domain/json_parse.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

TEST(JsonParseTest, ParsesLikeBoostJson) {
  auto value = ParseJson(R"({"a": [1, 2.5, "x", true, null], "b": {"c": -3}})");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, boost::json::parse(R"({"a": [1, 2.5, "x", true, null], "b": {"c": -3}})"));
}

TEST(JsonParseTest, RefusesNumbersADoubleCannotCarry) {
  auto value = ParseJson(R"({"amount": 1234567890.123456789})");
  ASSERT_FALSE(value.has_value());
  EXPECT_EQ(value.error().code, ErrorCode::kValidationFailed);
  EXPECT_NE(value.error().details.at(0).issue.find("string"), std::string::npos);
}

TEST(JsonParseTest, AcceptsOrdinaryDecimals) {
  auto value = ParseJson(R"([19.99, 0.1, 1e-7, 1250.50])");
  ASSERT_TRUE(value.has_value());
}

TEST(JsonParseTest, RejectsMalformedText) {
  EXPECT_FALSE(ParseJson("{").has_value());
  EXPECT_FALSE(ParseJson("{} x").has_value());
}

TEST(JsonParseTest, NamesWhereTheTextStopsBeingJson) {
  // The stray x after the value of "title" (a comma or a brace was due) is on line 3, column 16.
  const std::string text = "{\n  \"a\": 1,\n  \"title\": \"x\" x\n}";
  auto value = ParseJson(text);
  ASSERT_FALSE(value.has_value());
  EXPECT_EQ(value.error().message,
            "the body is not valid JSON: syntax error at line 3, column 16 (offset 27)");
  ASSERT_EQ(value.error().details.size(), 1u);
  EXPECT_EQ(value.error().details[0].field, "body");
  EXPECT_EQ(value.error().details[0].issue, "syntax error at line 3, column 16 (offset 27)");
  EXPECT_EQ(text[27], 'x');
}

TEST(JsonParseTest, CountsColumnsInCharactersAndOffsetsInBytes) {
  // "é" is two bytes, one column; the literal that is not one starts at byte 7, column 7.
  auto value = ParseJson("[\"\xC3\xA9\", tru]");
  ASSERT_FALSE(value.has_value());
  EXPECT_EQ(value.error().details.at(0).issue, "syntax error at line 1, column 7 (offset 7)");
}

TEST(JsonParseTest, NamesTheEndOfATruncatedBodyAndTheStartOfExtraData) {
  auto truncated = ParseJson("{\"a\": [1,\n2");
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().details.at(0).issue,
            "incomplete JSON at line 2, column 2 (offset 11)");
  auto extra = ParseJson("{}\n{}");
  ASSERT_FALSE(extra.has_value());
  EXPECT_EQ(extra.error().details.at(0).issue, "extra data at line 2, column 1 (offset 3)");
}

}  // namespace
}  // namespace esign
