#include "base/json_pick.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

namespace esign {
namespace {

const JsonPick kPick{.members = {"type", "position", "org"},
                     .nested = "data",
                     .nested_members = {"participantId", "count"}};

// What the picker must answer: the parsed object's picked members, arrays and objects emptied.
std::optional<boost::json::object> Expected(const std::string& text) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(text, ec);
  if (ec || !parsed.is_object()) return std::nullopt;
  const auto emptied = [](const boost::json::value& value) -> boost::json::value {
    if (value.is_object()) return boost::json::object();
    if (value.is_array()) return boost::json::array();
    return value;
  };
  boost::json::object expected;
  for (const std::string_view key : kPick.members) {
    if (const auto* value = parsed.as_object().if_contains(key)) expected[key] = emptied(*value);
  }
  if (const auto* data = parsed.as_object().if_contains(kPick.nested);
      data != nullptr && data->is_object()) {
    boost::json::object nested;
    for (const std::string_view key : kPick.nested_members) {
      if (const auto* value = data->as_object().if_contains(key)) nested[key] = emptied(*value);
    }
    expected[kPick.nested] = std::move(nested);
  }
  return expected;
}

TEST(PickJsonMembersTest, AnswersAsTheParsedObjectWould) {
  const std::vector<std::string> texts = {
      R"({"type":"contract.sent","position":42,"org":"org_a","other":"x"})",
      R"({"type":"t","data":{"participantId":"prt_1","count":3,"skip":{"participantId":"no"}}})",
      R"({"data":{"participantId":"first"},"data":{"count":2}})",
      R"({"data":{"participantId":"object first"},"data":7})",
      R"({"data":[{"participantId":"in an array"}]})",
      R"({"data":"a string"})",
      R"({"x":{"type":"nested, not top","data":{"participantId":"deeper"}},"type":"top"})",
      R"({"type":"first","type":"last","type":5})",
      R"({"position":18446744073709551615,"org":-1,"type":1.5e300})",
      R"({"org":null,"type":true,"position":false})",
      R"({"org":["a","b"],"type":{"a":1},"data":{"count":[1,2],"participantId":{"a":[]}}})",
      R"({"ty\u0070e":"escaped key","org":"\"quoted\" \\ \u00e9 \ud83d\ude00"})",
      R"( {"type":"white space around"} )",
      R"({"type":"t"} trailing)",
      R"({"type":"unfinished")",
      R"(["type","t"])",
      R"(42)",
      "",
      "{\"type\":\"bad \xff utf-8\"}",
      R"({"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"type":"deep"})",
      R"({"typeX":"longer","typ":"shorter","data":{},"position":{}})",
      R"({"data":{"count":1,"deep":{"a":{"b":[{"count":"deeper"}]}},"count":2},"org":"after"})",
  };
  for (const std::string& text : texts) {
    EXPECT_EQ(PickJsonMembers(text, kPick), Expected(text)) << text;
  }
}

TEST(PickJsonMembersTest, CopiesOnlyWhatIsPicked) {
  const auto picked = PickJsonMembers(
      R"({"type":"contract.created","data":{"participantId":"prt_1","fields":[1,2,3]},"big":"x"})",
      kPick);
  ASSERT_TRUE(picked);
  EXPECT_EQ(*picked,
            boost::json::parse(R"({"type":"contract.created","data":{"participantId":"prt_1"}})"));
}

}  // namespace
}  // namespace esign
