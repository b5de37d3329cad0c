#include "base/json_difference.h"

#include <gtest/gtest.h>

#include <string>

namespace esign {
namespace {

namespace json = boost::json;

TEST(JsonDifferenceTest, ShortValuesAreShownWhole) {
  const json::value a = json::parse(R"({"type":"contract.voided"})");
  const json::value b = json::parse(R"({"type":"contract.sent"})");
  EXPECT_EQ(DescribeJsonDifference("auditTrail[1]", &a, &b, "shows", "says"),
            R"(shows {"type":"contract.voided"}, says {"type":"contract.sent"})");
  EXPECT_EQ(DescribeJsonDifference("status", &a, nullptr, "shows", "says"),
            R"(shows {"type":"contract.voided"}, says nothing)");
}

TEST(JsonDifferenceTest, TheFirstDifferingPathIsFoundAtAnyDepth) {
  const json::value a = json::parse(R"({"x":1,"d":{"list":[1,2,{"r":"a"}]}})");
  const json::value b = json::parse(R"({"x":1,"d":{"list":[1,2,{"r":"b"}]}})");
  EXPECT_EQ(FirstJsonDifferencePath(a, b), ".d.list[2].r");
  EXPECT_EQ(FirstJsonDifferencePath(a, a), "");
  EXPECT_EQ(FirstJsonDifferencePath(json::parse(R"({"a":1,"extra":2})"), json::parse(R"({"a":1})")),
            ".extra");
  EXPECT_EQ(FirstJsonDifferencePath(json::parse("[1,2,3]"), json::parse("[1,2]")), "[2]");
  EXPECT_EQ(FirstJsonDifferencePath(json::parse(R"({"a":1})"), json::parse("[1]")), "");
}

// A change at character 500 of a 1,000-character value deep in an object: the path, the offset
// and the change inside both windows, which the first 160 characters would never have shown.
TEST(JsonDifferenceTest, ALongValueIsShownAroundItsFirstDifference) {
  std::string text(1000, 'a');
  json::value proven = json::object{{"details", json::object{{"reason", text}}}, {"type", "t"}};
  text[500] = 'Z';
  json::value shown = json::object{{"details", json::object{{"reason", text}}}, {"type", "t"}};
  const std::string described =
      DescribeJsonDifference("auditTrail[0]", &shown, &proven, "shows", "says");
  // The serialized string starts with its quote: character 500 of the text is 501 of the JSON.
  EXPECT_NE(described.find("differs at auditTrail[0].details.reason, first at character 501 of "
                           "1002 and 1002"),
            std::string::npos)
      << described;
  const std::string window_shown =
      "..." + std::string(40, 'a') + "Z" + std::string(39, 'a') + "...";
  const std::string window_proven = "..." + std::string(80, 'a') + "...";
  EXPECT_NE(described.find("shows " + window_shown + ", says " + window_proven), std::string::npos)
      << described;
  EXPECT_LT(described.size(), 400u);
}

TEST(JsonDifferenceTest, ALongMemberOnlyOneSideHasIsNamed) {
  const json::value shown =
      json::object{{"details", json::object{{"added", std::string(300, 'x')}}}};
  const json::value proven = json::object{{"details", json::object{}}};
  const std::string described = DescribeJsonDifference("e", &shown, &proven, "shows", "says");
  EXPECT_NE(described.find("differs at e.details.added, first at character 0"), std::string::npos)
      << described;
  EXPECT_NE(described.find(", says nothing"), std::string::npos) << described;
}

}  // namespace
}  // namespace esign
