// A template stream's events: what they make of a Template, what does not fit a stream (a
// corruption, never a silent change), and how requests name their problems.
#include "domain/template_events.h"

#include <gtest/gtest.h>

#include "domain/template_importer.h"
#include "test_files.h"

namespace esign {
namespace {

Template Nda() {
  auto tmpl =
      ImportTemplateText(testing::ReadFile(testing::ExampleTemplatePath("mutual-nda.json")));
  EXPECT_TRUE(tmpl) << tmpl.error().message;
  Template out = std::move(*tmpl);
  out.template_id = "tpl_acme";
  out.organization_id = "org_acme";
  return out;
}

TEST(TemplateEventsTest, TheEventsOfAnOrganizationsTemplateMakeItAgain) {
  const Template nda = Nda();
  std::optional<Template> tmpl;
  ASSERT_TRUE(
      ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kCreated, WriteTemplateCreated(nda)));
  ASSERT_TRUE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kVersionAdded,
                                 WriteTemplateVersionAdded(nda, nda.versions[0])));
  ASSERT_TRUE(tmpl);
  EXPECT_EQ(tmpl->organization_id, "org_acme");
  EXPECT_EQ(tmpl->name, nda.name);
  ASSERT_EQ(tmpl->versions.size(), 1u);
  EXPECT_FALSE(tmpl->versions[0].published);  // added as a draft, whatever the flag said
  const std::string version = nda.versions[0].template_version_id;
  ASSERT_TRUE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kPublished,
                                 WriteTemplatePublished(nda, version)));
  EXPECT_EQ(tmpl->PublishedVersion()->template_version_id, version);
  ASSERT_TRUE(
      ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kArchived, WriteTemplateArchived(nda)));
  EXPECT_TRUE(tmpl->archived);
  EXPECT_FALSE(tmpl->VisibleTo("org_globex"));
  EXPECT_TRUE(tmpl->VisibleTo("org_acme"));
  // Other types leave it as it is.
  EXPECT_TRUE(ApplyTemplateEvent(tmpl, "tpl_acme", "contract.created", "{}"));
}

TEST(TemplateEventsTest, WhatDoesNotFitTheStreamIsACorruption) {
  const Template nda = Nda();
  const std::string version_added = WriteTemplateVersionAdded(nda, nda.versions[0]);
  std::optional<Template> none;
  EXPECT_EQ(ApplyTemplateEvent(none, "tpl_acme", template_event::kVersionAdded, version_added)
                .error()
                .code,
            ErrorCode::kCorruption);
  std::optional<Template> tmpl;
  ASSERT_TRUE(
      ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kCreated, WriteTemplateCreated(nda)));
  EXPECT_FALSE(
      ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kCreated, WriteTemplateCreated(nda)));
  EXPECT_FALSE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kPublished,
                                  WriteTemplatePublished(nda, "tv_missing")));
  ASSERT_TRUE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kVersionAdded, version_added));
  EXPECT_FALSE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kVersionAdded, version_added))
      << "a version id is added once";
  EXPECT_FALSE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kImported,
                                  R"({"templateId":"tpl_acme"})"))
      << "an import over an organization's template";
  EXPECT_FALSE(ApplyTemplateEvent(tmpl, "tpl_acme", template_event::kArchived, "not json"));
  EXPECT_EQ(tmpl->versions.size(), 1u);
}

TEST(TemplateEventsTest, AVersionRequestNamesItsProblemsByTheirPathInTheRequest) {
  boost::json::object version =
      boost::json::parse(testing::ReadFile(testing::ExampleTemplatePath("mutual-nda.json")))
          .at("versions")
          .at(0)
          .as_object();
  version.erase("templateVersionId");
  version["roles"].as_array()[0].as_object()["action"] = "stamp";
  auto parsed = ParseTemplateVersionRequest(version, "tv_1", {});
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().code, ErrorCode::kTemplateInvalid);
  ASSERT_FALSE(parsed.error().details.empty());
  EXPECT_EQ(parsed.error().details[0].field, "roles[0].action");

  version["roles"].as_array()[0].as_object()["action"] = "sign";
  parsed = ParseTemplateVersionRequest(version, "tv_1", {});
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->template_version_id, "tv_1");
}

}  // namespace
}  // namespace esign
