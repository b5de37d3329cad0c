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

}  // namespace
}  // namespace esign
