// The rules of the fields signers fill in and the one check of their values: each type's value
// forms, limits, patterns (RE2: a pattern that would backtrack catastrophically elsewhere runs in
// linear time here, and one RE2 refuses is refused), options, defaults, showIf and the refusals
// of a signer's whole set of values, each naming its field.
#include "domain/signer_field_rules.h"

#include <gtest/gtest.h>

#include "domain/json_parse.h"

namespace esign {
namespace {

boost::json::object Object(std::string_view text) { return ParseJson(text)->as_object(); }

SignerFieldRules Rules(SignerInputType type, std::string_view json) {
  Details details;
  auto rules = ReadSignerFieldRules(type, Object(json), "fields[0]", details);
  EXPECT_TRUE(rules.has_value()) << (details.empty() ? ""
                                                     : details[0].field + ": " + details[0].issue);
  return rules.value_or(SignerFieldRules{});
}

// The detail the rules refuse with, or "" when they are accepted.
std::string Refusal(SignerInputType type, std::string_view json) {
  Details details;
  auto rules = ReadSignerFieldRules(type, Object(json), "fields[0]", details);
  if (rules) return "";
  return details.empty() ? "?" : details[0].field + ": " + details[0].issue;
}

SignerFieldRules Optional(SignerFieldRules rules) {
  rules.required = false;
  return rules;
}

std::optional<boost::json::value> Check(const SignerFieldRules& rules, std::string_view value) {
  Details details;
  return CheckSignerValue(rules, *ParseJson(value), "v", details);
}

TEST(SignerFieldRulesTest, EachTypeStoresItsValueInOneForm) {
  EXPECT_EQ(Check(Rules(SignerInputType::kNumber, "{}"), "12.50"), boost::json::value("12.5"));
  EXPECT_EQ(Check(Rules(SignerInputType::kNumber, "{}"), R"("7.00")"), boost::json::value("7.00"));
  EXPECT_EQ(Check(Rules(SignerInputType::kCheckbox, "{}"), "true"), boost::json::value(true));
  EXPECT_FALSE(Check(Rules(SignerInputType::kCheckbox, "{}"), R"("yes")"));
  EXPECT_EQ(Check(Rules(SignerInputType::kPhone, "{}"), R"("+44 (20) 7946-0958")"),
            boost::json::value("+442079460958"));
  EXPECT_FALSE(Check(Rules(SignerInputType::kPhone, "{}"), R"("call me")"));
  EXPECT_FALSE(Check(Rules(SignerInputType::kPhone, "{}"), R"("1234")"));
  EXPECT_TRUE(Check(Rules(SignerInputType::kEmail, "{}"), R"("ada@example.com")"));
  EXPECT_FALSE(Check(Rules(SignerInputType::kEmail, "{}"), R"("ada@")"));
  EXPECT_TRUE(Check(Rules(SignerInputType::kDate, "{}"), R"("2026-02-28")"));
  EXPECT_FALSE(Check(Rules(SignerInputType::kDate, "{}"), R"("2026-02-30")"));
  EXPECT_FALSE(Check(Rules(SignerInputType::kText, "{}"), "12"));
}

TEST(SignerFieldRulesTest, AnAttachmentNamesAFileOfTheSessionAndStoresItWhole) {
  const SignerFieldRules rules = Rules(SignerInputType::kAttachment, "{}");
  const std::vector<SignerAttachment> uploaded{{"ab12", "scan.png", "image/png", 70}};
  Details details;
  const auto stored = CheckSignerValue(rules, boost::json::value("ab12"), "v", details, uploaded);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(
      *stored,
      (boost::json::object{
          {"sha256", "ab12"}, {"name", "scan.png"}, {"mediaType", "image/png"}, {"size", 70}}));
  EXPECT_EQ(CheckSignerValue(rules, *ParseJson(R"({"sha256":"ab12"})"), "v", details, uploaded),
            stored);
  // Another file, the object's other members, or no file uploaded at all: refused.
  EXPECT_FALSE(CheckSignerValue(rules, boost::json::value("cd34"), "v", details, uploaded));
  EXPECT_FALSE(CheckSignerValue(rules, *ParseJson(R"({"sha256":"ab12","name":"x"})"), "v", details,
                                uploaded));
  EXPECT_FALSE(Check(rules, R"("ab12")"));
  EXPECT_EQ(Refusal(SignerInputType::kAttachment, R"({"default":"ab12"})"),
            "fields[0].default: an attachment field takes no default");
  EXPECT_EQ(Refusal(SignerInputType::kAttachment, R"({"maxLength":3})"),
            "fields[0].maxLength: not a rule of the attachment type");
}

TEST(SignerFieldRulesTest, LimitsStepsAndOptionsAreKept) {
  const auto amount =
      Rules(SignerInputType::kNumber, R"({"min": 10, "max": "100.5", "step": 0.25})");
  EXPECT_TRUE(Check(amount, "10.75"));
  EXPECT_FALSE(Check(amount, "10.8"));
  EXPECT_FALSE(Check(amount, "9.75"));
  EXPECT_FALSE(Check(amount, "100.75"));
  const auto day = Rules(SignerInputType::kDate, R"({"min": "2026-01-01", "max": "2026-12-31"})");
  EXPECT_TRUE(Check(day, R"("2026-06-30")"));
  EXPECT_FALSE(Check(day, R"("2027-01-01")"));
  const auto choice = Rules(SignerInputType::kDropdown, R"({"options": ["monthly", "yearly"]})");
  EXPECT_TRUE(Check(choice, R"("yearly")"));
  EXPECT_FALSE(Check(choice, R"("weekly")"));
  const auto code = Rules(SignerInputType::kText,
                          R"({"minLength": 2, "maxLength": 8, "pattern": "[A-Z]{2}[0-9]+",
                              "patternMessage": "two capitals, then digits"})");
  EXPECT_TRUE(Check(code, R"("AB123")"));
  Details details;
  EXPECT_FALSE(CheckSignerValue(code, boost::json::value("ab123"), "v", details));
  ASSERT_EQ(details.size(), 1u);
  EXPECT_EQ(details[0].issue, "two capitals, then digits");
  EXPECT_FALSE(Check(code, R"("AB1234567")"));  // nine characters
}

TEST(SignerFieldRulesTest, APatternIsMatchedInLinearTimeOrRefused) {
  // Catastrophic for a backtracking engine on 40 a's and a b; RE2 answers at once.
  const auto nested = Rules(SignerInputType::kText, R"({"pattern": "(a+)+$"})");
  EXPECT_FALSE(Check(nested, R"(")" + std::string(40, 'a') + R"(b")"));
  EXPECT_TRUE(Check(nested, R"(")" + std::string(40, 'a') + R"(")"));
  EXPECT_NE(Refusal(SignerInputType::kText, R"json({"pattern": "(a)\\1"})json").find("RE2"),
            std::string::npos);
  EXPECT_NE(Refusal(SignerInputType::kText, R"json({"pattern": "(?=a)"})json"), "");
  EXPECT_NE(Refusal(SignerInputType::kText, R"({"pattern": "[\\p{L} .-]{1,100}"})").find("complex"),
            std::string::npos);
}

TEST(SignerFieldRulesTest, RulesThatDoNotFitTheTypeAreRefusedWithTheirPath) {
  EXPECT_EQ(Refusal(SignerInputType::kCheckbox, R"({"pattern": "x"})"),
            "fields[0].pattern: not a rule of the checkbox type");
  EXPECT_EQ(Refusal(SignerInputType::kNumber, R"({"min": 5, "max": 1})"),
            "fields[0].min: more than max");
  EXPECT_NE(Refusal(SignerInputType::kRadio, "{}"), "");
  EXPECT_NE(Refusal(SignerInputType::kRadio, R"({"options": ["a", "a"]})"), "");
  EXPECT_NE(Refusal(SignerInputType::kNumber, R"({"step": 0})"), "");
  EXPECT_EQ(Refusal(SignerInputType::kDropdown, R"({"options": ["a"], "default": "b"})"),
            "fields[0].default: one of the field's options");
  EXPECT_NE(Refusal(SignerInputType::kText, R"({"showIf": {"field": "fld_1"}})"), "");
}

class SignerValuesTest : public ::testing::Test {
 protected:
  std::vector<FillableField> fields_{
      {"fld_1", "ada", Optional(Rules(SignerInputType::kCheckbox, R"({"default": false})"))},
      {"fld_2", "ada",
       Rules(SignerInputType::kText, R"({"showIf": {"field": "fld_1", "equals": true}})")},
      {"fld_3", "ada", Rules(SignerInputType::kNumber, "{}")},
      {"fld_4", "grace", Rules(SignerInputType::kText, "{}")},
      {"fld_5", "ada", Rules(SignerInputType::kText, "{}"), /*read_only=*/true},
  };

  Result<std::vector<FilledValue>> Fill(std::string_view json) {
    return CheckSignerValues(fields_, "ada", *ParseJson(json));
  }

  static std::string Detail(const Result<std::vector<FilledValue>>& refused) {
    if (refused || refused.error().details.empty()) return "";
    return refused.error().details[0].field + ": " + refused.error().details[0].issue;
  }
};

TEST_F(SignerValuesTest, AHiddenFieldIsNeitherRequiredNorStored) {
  auto filled = Fill(R"([{"field": "fld_3", "value": 3}])");
  ASSERT_TRUE(filled) << Detail(filled);
  ASSERT_EQ(filled->size(), 2u);  // the checkbox's default and the number
  EXPECT_EQ((*filled)[0].value, boost::json::value(false));
  EXPECT_EQ((*filled)[1].value, boost::json::value("3"));
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_3", "value": 3}, {"field": "fld_2", "value": "x"}])")),
            "fieldValues[1].field: field fld_2 is hidden: fld_1 does not hold the value that "
            "shows it");
}

TEST_F(SignerValuesTest, AShownFieldIsRequiredAndStored) {
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_1", "value": true}, {"field": "fld_3", "value": 1}])")),
            "fieldValues: field fld_2 is required");
  auto filled = Fill(
      R"([{"field": "fld_1", "value": true}, {"field": "fld_2", "value": "why"},
          {"field": "fld_3", "value": 1}])");
  ASSERT_TRUE(filled) << Detail(filled);
  EXPECT_EQ(filled->size(), 3u);
}

TEST_F(SignerValuesTest, EveryOtherMistakeNamesItsField) {
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_4", "value": "x"}, {"field": "fld_3", "value": 1}])")),
            "fieldValues[0].field: field fld_4 is another signer's");
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_5", "value": "x"}, {"field": "fld_3", "value": 1}])")),
            "fieldValues[0].field: field fld_5 is read-only");
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_9", "value": "x"}])")),
            "fieldValues[0].field: no field fld_9 in this contract");
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_3", "value": "many"}])")),
            "fieldValues[0].value: a number");
  EXPECT_EQ(Detail(Fill(R"([{"field": "fld_3", "value": 1}, {"field": "fld_3", "value": 2}])")),
            "fieldValues[1].field: field fld_3 is given twice");
  EXPECT_EQ(Detail(Fill(R"({"fld_3": 1})")), "fieldValues: an array of {field, value}");
  EXPECT_EQ(Detail(Fill("[]")), "fieldValues: field fld_3 is required");
  // More values than fields is refused whole: a long list makes no detail per entry.
  std::string many = "[";
  for (int i = 0; i < 1000; ++i) many += std::string(i ? "," : "") + "{}";
  auto refused = Fill(many + "]");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().details.size(), 1u);
  EXPECT_EQ(Detail(refused), "fieldValues: 1000 values for 5 fields: at most one per field");
}

TEST(SignerValuesRequiredCheckboxTest, ARequiredCheckboxMustBeTicked) {
  std::vector<FillableField> fields{{"fld_1", "ada", Rules(SignerInputType::kCheckbox, "{}")}};
  auto unticked =
      CheckSignerValues(fields, "ada", *ParseJson(R"([{"field":"fld_1","value":false}])"));
  ASSERT_FALSE(unticked);
  EXPECT_EQ(unticked.error().details[0].field, "fieldValues[0].value");
  EXPECT_TRUE(CheckSignerValues(fields, "ada", *ParseJson(R"([{"field":"fld_1","value":true}])")));
}

}  // namespace
}  // namespace esign
