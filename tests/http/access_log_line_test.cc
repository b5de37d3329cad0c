#include "http/access_log_line.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

TEST(AccessLogLineTest, WritesTheDurationAsAPlainDecimalOfThreePlaces) {
  const boost::json::object line{{"status", 200}, {"durationMs", 27.9610423}, {"bytes", 12}};
  EXPECT_EQ(AccessLogLine(line), R"({"status":200,"durationMs":27.961,"bytes":12})");
  EXPECT_EQ(AccessLogLine({{"durationMs", 0.0004}}), R"({"durationMs":0.000})");
  EXPECT_EQ(AccessLogLine({{"durationMs", 12345.6789}}), R"({"durationMs":12345.679})");
}

TEST(AccessLogLineTest, AStringThatLooksLikeTheMemberIsLeftAlone) {
  const boost::json::object line{{"path", R"(/x"durationMs":1E1)"}, {"durationMs", 1.5}};
  const std::string text = AccessLogLine(line);
  EXPECT_EQ(text, R"({"path":"/x\"durationMs\":1E1","durationMs":1.500})");
  EXPECT_EQ(boost::json::parse(text).at("path"), R"(/x"durationMs":1E1)");
}

TEST(AccessLogLineTest, WithoutADoubleDurationTheLineIsAsSerialized) {
  EXPECT_EQ(AccessLogLine({{"status", 404}}), R"({"status":404})");
  EXPECT_EQ(AccessLogLine({{"durationMs", 3}}), R"({"durationMs":3})");
}

}  // namespace
}  // namespace esign::http
