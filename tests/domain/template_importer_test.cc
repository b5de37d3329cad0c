#include "domain/template_importer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "domain/json_util.h"
#include "domain/template_json.h"
#include "test_files.h"

namespace esign {
namespace {

// A minimal valid template; tests break one thing at a time.
boost::json::value MinimalTemplate() {
  return boost::json::parse(R"({
    "templateId": "tpl_min",
    "name": "Minimal",
    "versions": [{
      "templateVersionId": "v1",
      "published": true,
      "inputSchema": {"sections": [{
        "key": "main", "title": "Main",
        "fields": [
          {"key": "startDate", "label": "Start", "type": "date", "required": true},
          {"key": "kind", "label": "Kind", "type": "enum", "options": ["a", "b"]},
          {"key": "fee", "label": "Fee", "type": "decimal", "minimum": "0.01", "maximum": 1000}
        ],
        "tables": [{"tableKey": "items", "label": "Items", "minRows": 1, "maxRows": 3,
                    "columns": [{"key": "name", "label": "Name", "type": "string"}]}]
      }]},
      "roles": [{"templateRoleId": "signer", "name": "Signer", "action": "sign",
                 "recipientType": "individual",
                 "signaturePlacement": [{"page": 1, "x": 10, "y": 20, "width": 100, "height": 30}]}],
      "body": [{"type": "paragraph", "text": "Starts {{ startDate }}."},
               {"type": "table", "tableKey": "items"}, {"type": "signatures"}]
    }]
  })");
}

boost::json::object& Version(boost::json::value& doc) {
  return doc.at("versions").at(0).as_object();
}
boost::json::object& Section(boost::json::value& doc) {
  return Version(doc).at("inputSchema").at("sections").at(0).as_object();
}

// True when the error carries a detail for `field`.
bool HasDetail(const Error& error, const std::string& field) {
  return std::any_of(error.details.begin(), error.details.end(),
                     [&](const ErrorDetail& d) { return d.field == field; });
}

std::string DescribeProblems(const Error& error) {
  std::string out = error.message;
  for (const auto& d : error.details) out += "\n  " + d.field + ": " + d.issue;
  return out;
}

void ExpectInvalid(const boost::json::value& doc, const std::string& field) {
  auto result = ImportTemplate(doc);
  ASSERT_FALSE(result.has_value()) << "expected a problem at " << field;
  EXPECT_EQ(result.error().code, ErrorCode::kTemplateInvalid);
  EXPECT_TRUE(HasDetail(result.error(), field)) << DescribeProblems(result.error());
}

TEST(TemplateImporterTest, ImportsTheMinimalTemplate) {
  auto result = ImportTemplate(MinimalTemplate());
  ASSERT_TRUE(result.has_value()) << DescribeProblems(result.error());
  const Template& tmpl = *result;
  EXPECT_EQ(tmpl.template_id, "tpl_min");
  ASSERT_NE(tmpl.PublishedVersion(), nullptr);
  const TemplateVersion& version = *tmpl.PublishedVersion();
  EXPECT_EQ(version.settings.organization_signing_mode, OrganizationSigningMode::kAutomatic);
  ASSERT_NE(version.FindField("fee"), nullptr);
  EXPECT_EQ(version.FindField("fee")->minimum, "0.01");
  EXPECT_EQ(version.FindField("fee")->maximum, "1000");
  EXPECT_EQ(version.FindRole("signer")->routing_order, 1);
  EXPECT_FALSE(version.FindRole("signer")->required);
  EXPECT_EQ(version.FindTable("items")->max_rows, 3);
}

TEST(TemplateImporterTest, ImportsEveryExampleTemplate) {
  for (const char* name : {"mutual-nda.json", "services-agreement.json", "employment-offer.json"}) {
    auto result = ImportTemplateText(testing::ReadFile(testing::ExampleTemplatePath(name)));
    ASSERT_TRUE(result.has_value()) << name << ": " << DescribeProblems(result.error());
    EXPECT_NE(result->PublishedVersion(), nullptr) << name;
  }
}

TEST(TemplateImporterTest, ExampleSettingsAreThoseDocumented) {
  auto services = ImportTemplateText(
      testing::ReadFile(testing::ExampleTemplatePath("services-agreement.json")));
  ASSERT_TRUE(services.has_value());
  const auto& version = *services->PublishedVersion();
  EXPECT_EQ(version.FindRole("provider_company")->recipient_type, RecipientType::kOrganization);
  EXPECT_EQ(version.FindRole("provider_company")->routing_order, 2);
  EXPECT_EQ(version.FindTable("paymentMilestones")->FindColumn("amount")->type,
            FieldType::kDecimal);
  auto offer =
      ImportTemplateText(testing::ReadFile(testing::ExampleTemplatePath("employment-offer.json")));
  ASSERT_TRUE(offer.has_value());
  EXPECT_EQ(offer->PublishedVersion()->settings.organization_signing_mode,
            OrganizationSigningMode::kManual);
}

TEST(TemplateImporterTest, SerializationRoundTrips) {
  for (const char* name : {"mutual-nda.json", "services-agreement.json", "employment-offer.json"}) {
    auto first = ImportTemplateText(testing::ReadFile(testing::ExampleTemplatePath(name)));
    ASSERT_TRUE(first.has_value()) << name;
    boost::json::value json = TemplateToJson(*first);
    auto second = ImportTemplate(json);
    ASSERT_TRUE(second.has_value()) << name << ": " << DescribeProblems(second.error());
    EXPECT_EQ(CanonicalJson(TemplateToJson(*second)), CanonicalJson(json)) << name;
  }
}

TEST(TemplateImporterTest, SerializesIntegralCoordinatesAsIntegers) {
  auto result = ImportTemplate(MinimalTemplate());
  ASSERT_TRUE(result.has_value());
  std::string text = boost::json::serialize(TemplateToJson(*result));
  EXPECT_NE(text.find("\"width\":100"), std::string::npos) << text;
}

TEST(TemplateImporterTest, ATableWithoutLabelIsLabelledByItsKey) {
  auto doc = MinimalTemplate();
  Section(doc)["tables"].as_array()[0].as_object().erase("label");
  auto result = ImportTemplate(doc);
  ASSERT_TRUE(result.has_value()) << DescribeProblems(result.error());
  EXPECT_EQ(result->PublishedVersion()->FindTable("items")->label, "items");
}

TEST(TemplateImporterTest, RejectsAnEmptyOrNonTextTableLabel) {
  auto doc = MinimalTemplate();
  Section(doc)["tables"].as_array()[0].as_object()["label"] = "";
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].tables[0].label");
  Section(doc)["tables"].as_array()[0].as_object()["label"] = 7;
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].tables[0].label");
}

TEST(TemplateImporterTest, RejectsUnknownFieldType) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array()[0].as_object()["type"] = "money";
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[0].type");
}

TEST(TemplateImporterTest, RejectsDuplicateFieldKeysAcrossSections) {
  auto doc = MinimalTemplate();
  auto& sections = Version(doc)["inputSchema"].as_object()["sections"].as_array();
  sections.push_back(boost::json::parse(
      R"({"key": "second", "title": "Second", "fields": [{"key": "x", "label": "X", "type": "string"},
          {"key": "startDate", "label": "Again", "type": "date"}]})"));
  ExpectInvalid(doc, "versions[0].inputSchema.sections[1].fields[1].key");
}

TEST(TemplateImporterTest, RejectsFieldKeyEqualToTableKey) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array().push_back(
      boost::json::parse(R"({"key": "items", "label": "Items", "type": "string"})"));
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[3].key");
}

TEST(TemplateImporterTest, RejectsFieldKeyEqualToColumnKey) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array().push_back(
      boost::json::parse(R"({"key": "name", "label": "Name", "type": "string"})"));
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[3].key");
}

TEST(TemplateImporterTest, RejectsDuplicateColumnKeys) {
  auto doc = MinimalTemplate();
  Section(doc)["tables"].as_array()[0].as_object()["columns"].as_array().push_back(
      boost::json::parse(R"({"key": "name", "label": "Again", "type": "string"})"));
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].tables[0].columns[1].key");
}

TEST(TemplateImporterTest, RejectsEnumWithoutOptions) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array()[1].as_object().erase("options");
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[1].options");
}

TEST(TemplateImporterTest, RejectsLimitsOnTheWrongType) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array()[0].as_object()["maxLength"] = 3;
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[0].maxLength");
}

TEST(TemplateImporterTest, RejectsMinimumAboveMaximum) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array()[2].as_object()["minimum"] = "1000.01";
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[2].minimum");
}

TEST(TemplateImporterTest, RejectsPlaceholderOfUnknownField) {
  auto doc = MinimalTemplate();
  Version(doc)["body"].as_array()[0].as_object()["text"] = "Signed on {{signDate}}.";
  ExpectInvalid(doc, "versions[0].body[0].text");
}

TEST(TemplateImporterTest, RejectsUnbalancedPlaceholder) {
  auto doc = MinimalTemplate();
  Version(doc)["body"].as_array()[0].as_object()["text"] = "Starts {{startDate.";
  ExpectInvalid(doc, "versions[0].body[0].text");
}

TEST(TemplateImporterTest, RejectsTableBlockOfUnknownTable) {
  auto doc = MinimalTemplate();
  Version(doc)["body"].as_array()[1].as_object()["tableKey"] = "lines";
  ExpectInvalid(doc, "versions[0].body[1].tableKey");
}

TEST(TemplateImporterTest, RejectsDuplicateRoleIds) {
  auto doc = MinimalTemplate();
  auto& roles = Version(doc)["roles"].as_array();
  roles.push_back(roles[0]);
  ExpectInvalid(doc, "versions[0].roles[1].templateRoleId");
}

TEST(TemplateImporterTest, RejectsSignRoleWithoutPlacement) {
  auto doc = MinimalTemplate();
  Version(doc)["roles"].as_array()[0].as_object().erase("signaturePlacement");
  ExpectInvalid(doc, "versions[0].roles[0].signaturePlacement");
}

TEST(TemplateImporterTest, RejectsBadPlacementSize) {
  auto doc = MinimalTemplate();
  Version(doc)["roles"]
      .as_array()[0]
      .as_object()["signaturePlacement"]
      .as_array()[0]
      .as_object()["width"] = 0;
  ExpectInvalid(doc, "versions[0].roles[0].signaturePlacement[0].width");
}

TEST(TemplateImporterTest, RejectsUnknownRecipientType) {
  auto doc = MinimalTemplate();
  Version(doc)["roles"].as_array()[0].as_object()["recipientType"] = "company";
  ExpectInvalid(doc, "versions[0].roles[0].recipientType");
}

TEST(TemplateImporterTest, RejectsUnknownAction) {
  auto doc = MinimalTemplate();
  Version(doc)["roles"].as_array()[0].as_object()["action"] = "approve";
  ExpectInvalid(doc, "versions[0].roles[0].action");
}

TEST(TemplateImporterTest, RejectsTwoPublishedVersions) {
  auto doc = MinimalTemplate();
  auto& versions = doc.as_object()["versions"].as_array();
  versions.push_back(versions[0]);
  versions[1].as_object()["templateVersionId"] = "v2";
  ExpectInvalid(doc, "versions[1].published");
}

TEST(TemplateImporterTest, RejectsInvalidNotificationDefaults) {
  auto doc = MinimalTemplate();
  Version(doc)["settings"] =
      boost::json::parse(R"({"notifications": {"reminder": {"intervalDays": 0}}})");
  ExpectInvalid(doc, "versions[0].settings.notifications.reminder.intervalDays");
}

TEST(TemplateImporterTest, RejectsUnknownSigningMode) {
  auto doc = MinimalTemplate();
  Version(doc)["settings"] = boost::json::parse(R"({"organizationSigningMode": "auto"})");
  ExpectInvalid(doc, "versions[0].settings.organizationSigningMode");
}

TEST(TemplateImporterTest, RejectsUnknownMembers) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array()[0].as_object()["requird"] = true;
  ExpectInvalid(doc, "versions[0].inputSchema.sections[0].fields[0].requird");
}

TEST(TemplateImporterTest, ReportsEveryProblemAtOnce) {
  auto doc = MinimalTemplate();
  Section(doc)["fields"].as_array()[0].as_object()["type"] = "money";
  Version(doc)["roles"].as_array()[0].as_object()["action"] = "approve";
  auto result = ImportTemplate(doc);
  ASSERT_FALSE(result.has_value());
  EXPECT_GE(result.error().details.size(), 2u) << DescribeProblems(result.error());
}

TEST(TemplateImporterTest, MalformedTextIsTemplateInvalid) {
  auto result = ImportTemplateText("{\"templateId\": ");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kTemplateInvalid);
}

// The minimal template with fields on its role: a named text field with a pattern, an unnamed
// checkbox, a read-only value and a date shown only with the checkbox ticked.
boost::json::value TemplateWithRoleFields() {
  auto doc = MinimalTemplate();
  Version(doc)["roles"].as_array()[0].as_object()["fields"] = boost::json::parse(R"([
    {"type": "text", "name": "vatNumber", "page": 1, "x": 10, "y": 60, "width": 200, "height": 20,
     "pattern": "[A-Z]{2}[0-9]{8,12}", "patternMessage": "two letters, then digits"},
    {"type": "checkbox", "page": 1, "x": 10, "y": 90, "width": 20, "height": 20,
     "required": false},
    {"type": "text", "name": "Reference", "page": 1, "x": 10, "y": 120, "width": 200,
     "height": 20, "readOnly": true, "value": "PO-7"},
    {"type": "date", "name": "since", "page": 2, "x": 10, "y": 150, "width": 90, "height": 20,
     "min": "2020-01-01", "showIf": {"field": "fld_2", "equals": true}}
  ])");
  return doc;
}

boost::json::object& RoleField(boost::json::value& doc, size_t index) {
  return Version(doc)["roles"].as_array()[0].as_object()["fields"].as_array()[index].as_object();
}

TEST(TemplateImporterTest, ReadsTheFieldsOfARole) {
  auto result = ImportTemplate(TemplateWithRoleFields());
  ASSERT_TRUE(result.has_value()) << DescribeProblems(result.error());
  const auto& fields = result->versions[0].fields;
  ASSERT_EQ(fields.size(), 4u);
  // The name is the id when it is an identifier; otherwise the field is numbered.
  EXPECT_EQ(fields[0].field_id, "vatNumber");
  EXPECT_EQ(fields[1].field_id, "fld_2");
  EXPECT_EQ(fields[2].field_id, "Reference");
  EXPECT_EQ(fields[3].field_id, "since");
  for (const auto& field : fields) {
    EXPECT_EQ(field.participant_id, "signer");
    EXPECT_EQ(field.document_index, 0);
  }
  ASSERT_TRUE(fields[0].rules.has_value());
  EXPECT_EQ(fields[0].rules->pattern, "[A-Z]{2}[0-9]{8,12}");
  EXPECT_TRUE(fields[0].filled_by_signer());
  EXPECT_FALSE(fields[1].required);
  EXPECT_TRUE(fields[2].read_only);
  EXPECT_EQ(fields[2].value, boost::json::value("PO-7"));
  EXPECT_EQ(fields[3].box.page, 2);
  ASSERT_TRUE(fields[3].rules->show_if.has_value());
  EXPECT_EQ(fields[3].rules->show_if->field, "fld_2");
}

TEST(TemplateImporterTest, RoleFieldsRoundTrip) {
  auto first = ImportTemplate(TemplateWithRoleFields());
  ASSERT_TRUE(first.has_value()) << DescribeProblems(first.error());
  boost::json::value json = TemplateToJson(*first);
  auto second = ImportTemplate(json);
  ASSERT_TRUE(second.has_value()) << DescribeProblems(second.error());
  EXPECT_EQ(CanonicalJson(TemplateToJson(*second)), CanonicalJson(json));
  ASSERT_EQ(second->versions[0].fields.size(), 4u);
  EXPECT_EQ(second->versions[0].fields[1].field_id, "fld_2");
}

TEST(TemplateImporterTest, AFieldNameGivenTwiceIsNoId) {
  auto doc = TemplateWithRoleFields();
  RoleField(doc, 2)["name"] = "vatNumber";
  auto result = ImportTemplate(doc);
  ASSERT_TRUE(result.has_value()) << DescribeProblems(result.error());
  EXPECT_EQ(result->versions[0].fields[0].field_id, "fld_1");
  EXPECT_EQ(result->versions[0].fields[2].field_id, "fld_3");
}

TEST(TemplateImporterTest, RejectsARoleFieldPatternRe2Refuses) {
  auto doc = TemplateWithRoleFields();
  RoleField(doc, 0)["pattern"] = "(a)\\1";
  ExpectInvalid(doc, "versions[0].roles[0].fields[0].pattern");
}

TEST(TemplateImporterTest, RejectsRoleFieldProblemsByTheirPath) {
  auto doc = TemplateWithRoleFields();
  RoleField(doc, 0)["options"] = boost::json::array{"a"};
  RoleField(doc, 1)["x"] = 590;
  RoleField(doc, 2)["documentIndex"] = 0;
  RoleField(doc, 3)["page"] = 1001;
  auto result = ImportTemplate(doc);
  ASSERT_FALSE(result.has_value());
  for (const char* field :
       {"versions[0].roles[0].fields[0].options", "versions[0].roles[0].fields[1]",
        "versions[0].roles[0].fields[2].documentIndex", "versions[0].roles[0].fields[3].page"}) {
    EXPECT_TRUE(HasDetail(result.error(), field)) << field << DescribeProblems(result.error());
  }
}

TEST(TemplateImporterTest, RejectsAShowIfOfNoFieldOfTheRole) {
  auto doc = TemplateWithRoleFields();
  RoleField(doc, 3)["showIf"].as_object()["field"] = "nothing";
  ExpectInvalid(doc, "versions[0].roles[0].fields[3].showIf.field");
}

TEST(TemplateImporterTest, RejectsFieldsOfARoleThatDoesNotSign) {
  auto doc = TemplateWithRoleFields();
  auto& roles = Version(doc)["roles"].as_array();
  boost::json::object viewer{{"templateRoleId", "viewer"},
                             {"name", "Viewer"},
                             {"action", "view"},
                             {"recipientType", "individual"},
                             {"fields", boost::json::parse(R"([{"type": "text", "page": 1,
                               "x": 300, "y": 60, "width": 100, "height": 20}])")}};
  roles.push_back(std::move(viewer));
  ExpectInvalid(doc, "versions[0].roles[1].fields");
}

TEST(TemplateImporterTest, SelectsNamedOrPublishedVersion) {
  auto result = ImportTemplate(MinimalTemplate());
  ASSERT_TRUE(result.has_value());
  auto published = SelectTemplateVersion(*result, std::nullopt);
  ASSERT_TRUE(published.has_value());
  EXPECT_EQ((*published)->template_version_id, "v1");
  auto missing = SelectTemplateVersion(*result, "v9");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kTemplateVersionNotFound);
}

}  // namespace
}  // namespace esign
