#include "domain/contract_data.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "domain/decimal.h"
#include "domain/template_importer.h"
#include "domain/text_formats.h"
#include "test_files.h"

namespace esign {
namespace {

class ContractDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto imported = ImportTemplateText(
        testing::ReadFile(testing::TestDataPath("templates/test-contract.json")));
    ASSERT_TRUE(imported.has_value());
    tmpl_ = std::move(*imported);
    version_ = tmpl_.PublishedVersion();
  }

  // Reads `fieldValues` text; returns the details.
  Details FieldValues(const char* json) {
    Details details;
    ReadFieldValues(*version_, boost::json::parse(json), "fieldValues", changes_, details);
    return details;
  }
  Details TableData(const char* json) {
    Details details;
    ReadTableData(*version_, boost::json::parse(json), "tableData", changes_, details);
    return details;
  }
  Details SectionData(const char* json) {
    Details details;
    ReadSectionData(*version_, boost::json::parse(json), "data", changes_, details);
    return details;
  }

  static void ExpectOne(const Details& details, const std::string& field,
                        const std::string& issue_part = "") {
    ASSERT_EQ(details.size(), 1u) << (details.empty() ? "no detail" : details[0].field);
    EXPECT_EQ(details[0].field, field) << details[0].issue;
    if (!issue_part.empty()) {
      EXPECT_NE(details[0].issue.find(issue_part), std::string::npos) << details[0].issue;
    }
  }

  Template tmpl_;
  const TemplateVersion* version_ = nullptr;
  DataChanges changes_;
};

TEST_F(ContractDataTest, AcceptsEveryType) {
  auto details = FieldValues(R"([
      {"key": "name", "value": "Ada"}, {"key": "notes", "value": "line\nline"},
      {"key": "count", "value": 3}, {"key": "amount", "value": "12.50"},
      {"key": "flag", "value": true}, {"key": "startDate", "value": "2024-02-29"},
      {"key": "contact", "value": "ada@example.com"}, {"key": "level", "value": "high"}])");
  EXPECT_TRUE(details.empty()) << details[0].field << ": " << details[0].issue;
  EXPECT_EQ(changes_.fields.at("amount"), "12.50");
}

TEST_F(ContractDataTest, UnknownKeyNamesItsIndex) {
  ExpectOne(FieldValues(R"([{"key": "name", "value": "Ada"}, {"key": "colour", "value": "x"}])"),
            "fieldValues[1].key");
}

TEST_F(ContractDataTest, TableKeyInFieldValuesIsRejected) {
  ExpectOne(FieldValues(R"([{"key": "items", "value": []}])"), "fieldValues[0].key",
            "table cell values belong in tableData");
}

TEST_F(ContractDataTest, ColumnKeyInFieldValuesIsRejected) {
  ExpectOne(FieldValues(R"([{"key": "price", "value": "1.00"}])"), "fieldValues[0].key",
            "table cell values belong in tableData");
}

TEST_F(ContractDataTest, DuplicateKeyIsRejected) {
  ExpectOne(FieldValues(R"([{"key": "name", "value": "Ada"}, {"key": "name", "value": "Bob"}])"),
            "fieldValues[1].key", "duplicate");
}

TEST_F(ContractDataTest, StringLengthLimits) {
  ExpectOne(FieldValues(R"([{"key": "name", "value": "A"}])"), "fieldValues[0].value");
  changes_ = {};
  ExpectOne(FieldValues(R"([{"key": "name", "value": "Abcdefghijklmnopqrstu"}])"),
            "fieldValues[0].value");
  changes_ = {};
  // Twenty characters of two bytes each: limits count characters, not bytes.
  EXPECT_TRUE(FieldValues(R"([{"key": "name", "value": "éééééééééééééééééééé"}])").empty());
}

TEST_F(ContractDataTest, StringIsSingleLine) {
  ExpectOne(FieldValues(R"([{"key": "name", "value": "Ada\nLovelace"}])"), "fieldValues[0].value");
}

TEST_F(ContractDataTest, IntegerMustBeIntegerWithinLimits) {
  ExpectOne(FieldValues(R"([{"key": "count", "value": 2.5}])"), "fieldValues[0].value");
  changes_ = {};
  ExpectOne(FieldValues(R"([{"key": "count", "value": "3"}])"), "fieldValues[0].value");
  changes_ = {};
  ExpectOne(FieldValues(R"([{"key": "count", "value": 11}])"), "fieldValues[0].value", "at most");
  changes_ = {};
  ExpectOne(FieldValues(R"([{"key": "count", "value": 0}])"), "fieldValues[0].value", "at least");
}

TEST_F(ContractDataTest, DecimalKeepsExactText) {
  EXPECT_TRUE(FieldValues(R"([{"key": "amount", "value": "999.999999999999999999"}])").empty());
  EXPECT_EQ(changes_.fields.at("amount"), "999.999999999999999999");
  changes_ = {};
  EXPECT_TRUE(FieldValues(R"([{"key": "amount", "value": 19.99}])").empty());
  EXPECT_EQ(changes_.fields.at("amount"), "19.99");
}

TEST_F(ContractDataTest, DecimalLimitsAreComparedExactly) {
  // 1000.000000000000000001 is above the maximum 1000.00, though a double could not tell.
  ExpectOne(FieldValues(R"([{"key": "amount", "value": "1000.000000000000000001"}])"),
            "fieldValues[0].value", "at most");
  changes_ = {};
  EXPECT_TRUE(FieldValues(R"([{"key": "amount", "value": "1000.0000"}])").empty());
  changes_ = {};
  ExpectOne(FieldValues(R"([{"key": "amount", "value": "0.009"}])"), "fieldValues[0].value");
}

TEST_F(ContractDataTest, DecimalRejectsOtherForms) {
  for (const char* bad : {R"("1e3")", R"("12.")", R"(".5")", R"("+1")", R"("1,5")", "true"}) {
    changes_ = {};
    std::string json = std::string(R"([{"key": "amount", "value": )") + bad + "}]";
    ExpectOne(FieldValues(json.c_str()), "fieldValues[0].value");
  }
}

TEST_F(ContractDataTest, BooleanMustBeJsonBoolean) {
  ExpectOne(FieldValues(R"([{"key": "flag", "value": "true"}])"), "fieldValues[0].value");
}

TEST_F(ContractDataTest, DateMustBeARealDay) {
  for (const char* bad : {"2023-02-29", "2024-13-01", "2024-1-01", "01/02/2024", "2024-04-31"}) {
    changes_ = {};
    std::string json = std::string(R"([{"key": "startDate", "value": ")") + bad + "\"}]";
    ExpectOne(FieldValues(json.c_str()), "fieldValues[0].value");
  }
}

TEST_F(ContractDataTest, EmailIsChecked) {
  for (const char* bad : {"ada", "ada@", "@example.com", "ada@example", "a b@example.com",
                          "ada@@example.com", "ada@-example.com"}) {
    changes_ = {};
    std::string json = std::string(R"([{"key": "contact", "value": ")") + bad + "\"}]";
    ExpectOne(FieldValues(json.c_str()), "fieldValues[0].value");
  }
}

TEST_F(ContractDataTest, EnumMustBeAnOption) {
  ExpectOne(FieldValues(R"([{"key": "level", "value": "medium"}])"), "fieldValues[0].value");
}

TEST_F(ContractDataTest, NullClearsAField) {
  ContractData data;
  data.field_values["name"] = "Ada";
  EXPECT_TRUE(FieldValues(R"([{"key": "name", "value": null}])").empty());
  ApplyDataChanges(data, changes_);
  EXPECT_FALSE(data.field_values.contains("name"));
}

TEST_F(ContractDataTest, TableRowsAreValidatedCellByCell) {
  ExpectOne(
      TableData(R"({"items": [{"label": "A", "price": "1.00"}, {"label": "B", "price": "x"}]})"),
      "tableData.items[1].price");
  changes_ = {};
  ExpectOne(TableData(R"({"items": [{"label": "A", "colour": "red"}]})"),
            "tableData.items[0].colour");
  changes_ = {};
  ExpectOne(TableData(R"({"items": ["A"]})"), "tableData.items[0]");
  changes_ = {};
  ExpectOne(TableData(R"({"lines": []})"), "tableData.lines");
  changes_ = {};
  ExpectOne(TableData(R"({"items": {}})"), "tableData.items");
}

TEST_F(ContractDataTest, MaxRowsIsEnforcedOnWrite) {
  ExpectOne(TableData(R"({"items": [{}, {}, {}, {}]})"), "tableData.items", "at most 3");
}

TEST_F(ContractDataTest, SectionDataMapsToFieldsAndTables) {
  auto details = SectionData(R"({"general": {"name": "Ada", "amount": 5},
                                 "lines": {"items": [{"label": "A", "price": "1"}]}})");
  EXPECT_TRUE(details.empty());
  EXPECT_EQ(changes_.fields.at("name"), "Ada");
  EXPECT_EQ(changes_.fields.at("amount"), "5");
  EXPECT_EQ(changes_.tables.at("items").as_array().size(), 1u);
}

TEST_F(ContractDataTest, SectionDataNamesSectionPaths) {
  ExpectOne(SectionData(R"({"general": {"count": "three"}})"), "data.general.count");
  changes_ = {};
  ExpectOne(SectionData(R"({"misc": {}})"), "data.misc");
  changes_ = {};
  ExpectOne(SectionData(R"({"general": {"items": []}})"), "data.general.items", "another section");
  changes_ = {};
  ExpectOne(SectionData(R"({"lines": {"items": [{"qty": 0}]}})"), "data.lines.items[0].qty");
}

TEST_F(ContractDataTest, SendRequiresRequiredFieldsRowsAndCells) {
  ContractData data;
  data.field_values["name"] = "Ada";
  data.field_values["count"] = 2;
  data.table_data["items"] = boost::json::parse(R"([{"label": "A"}])");
  auto status = CheckDataCompleteForSend(*version_, data, DataForm::kDirect);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kValidationFailed);
  std::vector<std::string> fields;
  for (const auto& detail : status.error().details) fields.push_back(detail.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"fieldValues.amount", "fieldValues.startDate",
                                              "tableData.items[0].price"}));
}

TEST_F(ContractDataTest, SendNamesMissingDataBySectionWhenItWasGivenBySection) {
  ContractData data;
  data.field_values["name"] = "Ada";
  data.field_values["count"] = 2;
  auto status = CheckDataCompleteForSend(*version_, data, DataForm::kSections);
  ASSERT_FALSE(status.has_value());
  std::vector<std::string> fields;
  for (const auto& detail : status.error().details) fields.push_back(detail.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"data.general.amount", "data.general.startDate",
                                              "data.lines.items"}));
  data.table_data["items"] = boost::json::parse(R"([{"label": "A"}])");
  status = CheckDataCompleteForSend(*version_, data, DataForm::kSections);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().details.back().field, "data.lines.items[0].price");
}

TEST_F(ContractDataTest, SendRequiresMinRows) {
  ContractData data;
  auto status = CheckDataCompleteForSend(*version_, data, DataForm::kDirect);
  ASSERT_FALSE(status.has_value());
  EXPECT_TRUE(std::any_of(status.error().details.begin(), status.error().details.end(),
                          [](const ErrorDetail& d) { return d.field == "tableData.items"; }));
}

TEST(DecimalTest, ComparesByValue) {
  EXPECT_EQ(CompareDecimals("1.50", "1.5"), 0);
  EXPECT_EQ(CompareDecimals("-0", "0.000"), 0);
  EXPECT_LT(CompareDecimals("-2", "-1.99"), 0);
  EXPECT_GT(CompareDecimals("10", "9.999999999999999999999"), 0);
  EXPECT_LT(CompareDecimals("0.0001", "0.001"), 0);
  EXPECT_GT(CompareDecimals("100", "-100"), 0);
}

TEST(DecimalTest, DoublesOnlyWhenExact) {
  EXPECT_TRUE(NumberLiteralEqualsDouble("0.1", 0.1));
  EXPECT_TRUE(NumberLiteralEqualsDouble("1.10", 1.1));
  EXPECT_TRUE(NumberLiteralEqualsDouble("2e3", 2000.0));
  EXPECT_FALSE(NumberLiteralEqualsDouble("0.10000000000000000001", 0.1));
}

TEST(TextFormatsTest, Timestamps) {
  EXPECT_TRUE(IsTimestamp("2026-01-15T10:00:00Z"));
  EXPECT_TRUE(IsTimestamp("2026-01-15T10:00:00.123456+02:00"));
  EXPECT_FALSE(IsTimestamp("2026-01-15 10:00:00Z"));
  EXPECT_FALSE(IsTimestamp("2026-01-15T25:00:00Z"));
}

}  // namespace
}  // namespace esign
