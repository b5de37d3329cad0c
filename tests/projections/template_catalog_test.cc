// TemplateCatalog: imports become rows and in-memory templates, re-imports replace, a restart
// loads the rows, and a template event that does not parse stops the projector.
#include "projections/template_catalog.h"

#include <gtest/gtest.h>

#include "contract_script.h"
#include "domain/template_events.h"
#include "domain/template_json.h"
#include "eventstore/memory_event_store.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"

namespace esign::projections {
namespace {

using std::chrono::milliseconds;

class TemplateCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
  }
  void TearDown() override { store_->Close(); }

  bool Project(TemplateCatalog& catalog) {
    Projector projector(*store_, views_, {&catalog});
    if (!projector.Start()) return false;
    return projector.WaitFor(store_->Size(), milliseconds(5000));
  }

  // An organization's template made of the NDA's first version: created, version added,
  // published, and archived when asked.
  void WriteOrganizationTemplate(bool archive) {
    testing::ContractScript script(*store_);
    script.ImportTemplate("mutual-nda.json");
    TemplateCatalog platform;
    ASSERT_TRUE(Project(platform));
    Template tmpl = *platform.Find("tpl_mutual_nda");
    tmpl.template_id = "tpl_acme";
    tmpl.organization_id = "org_acme";
    std::vector<std::pair<std::string_view, std::string>> events{
        {template_event::kCreated, WriteTemplateCreated(tmpl)},
        {template_event::kVersionAdded, WriteTemplateVersionAdded(tmpl, tmpl.versions[0])},
        {template_event::kPublished,
         WriteTemplatePublished(tmpl, tmpl.versions[0].template_version_id)}};
    if (archive) events.emplace_back(template_event::kArchived, WriteTemplateArchived(tmpl));
    for (auto& [type, data] : events) {
      eventstore::NewEvent event;
      event.event_id = "evt_acme_" + std::to_string(store_->Size());
      event.type = std::string(type);
      event.data = std::move(data);
      auto appended =
          store_->Append("template-tpl_acme", eventstore::ExpectedVersion::Any(), {event});
      ASSERT_TRUE(appended) << appended.error().message;
    }
  }

  // One event on the template's stream, on which the projector stops, showing no template.
  void ExpectStopsOn(const std::string& template_id, std::string_view type, std::string data) {
    eventstore::NewEvent event;
    event.event_id = "evt_bad";
    event.type = std::string(type);
    event.data = std::move(data);
    ASSERT_TRUE(
        store_->Append("template-" + template_id, eventstore::ExpectedVersion::Any(), {event}));
    TemplateCatalog catalog;
    Projector projector(*store_, views_, {&catalog});
    ASSERT_TRUE(projector.Start());
    EXPECT_FALSE(projector.WaitFor(1, milliseconds(5000)));
    ASSERT_FALSE(projector.health());
    EXPECT_EQ(projector.health().error().code, ErrorCode::kCorruption);
    EXPECT_EQ(catalog.Find(template_id), nullptr);
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  MemoryViewStore views_;
};

TEST_F(TemplateCatalogTest, AnOrganizationsTemplateIsVisibleToItAloneAndSurvivesARestart) {
  WriteOrganizationTemplate(/*archive=*/true);
  {
    TemplateCatalog catalog;
    ASSERT_TRUE(Project(catalog));
    auto tmpl = catalog.Find("tpl_acme");
    ASSERT_NE(tmpl, nullptr);
    EXPECT_EQ(tmpl->organization_id, "org_acme");
    EXPECT_TRUE(tmpl->archived);
    EXPECT_NE(tmpl->PublishedVersion(), nullptr);
    EXPECT_EQ(catalog.ListVisibleTo("org_acme").size(), 2u);
    ASSERT_EQ(catalog.ListVisibleTo("org_globex").size(), 1u);
    EXPECT_EQ(catalog.ListVisibleTo("org_globex")[0]->template_id, "tpl_mutual_nda");
    EXPECT_EQ(catalog.CountOf("org_acme").total, 1u);
    EXPECT_EQ(catalog.CountOf("org_acme").active, 0u);
  }
  TemplateCatalog restarted;
  Projector projector(*store_, views_, {&restarted});
  ASSERT_TRUE(projector.Start());
  auto tmpl = restarted.Find("tpl_acme");
  ASSERT_NE(tmpl, nullptr);
  EXPECT_EQ(tmpl->organization_id, "org_acme");
  EXPECT_TRUE(tmpl->archived);
  EXPECT_FALSE(tmpl->VisibleTo("org_globex"));
  EXPECT_FALSE(restarted.Find("tpl_mutual_nda")->organization_id.has_value());
}

TEST_F(TemplateCatalogTest, AnArchivingOfATemplateNeverCreatedStopsTheProjector) {
  ExpectStopsOn("tpl_y", template_event::kArchived,
                R"({"templateId":"tpl_y","organizationId":"org_acme"})");
}

TEST_F(TemplateCatalogTest, ListsAndFindsImportedTemplates) {
  testing::ContractScript script(*store_);
  script.ImportTemplate("services-agreement.json");
  script.ImportTemplate("mutual-nda.json");
  script.ImportTemplate("employment-offer.json");
  TemplateCatalog catalog;
  EXPECT_TRUE(catalog.List().empty());
  ASSERT_TRUE(Project(catalog));

  auto all = catalog.List();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]->template_id, "tpl_employment_offer");
  EXPECT_EQ(all[1]->template_id, "tpl_mutual_nda");
  EXPECT_EQ(all[2]->template_id, "tpl_services_agreement");
  auto nda = catalog.Find("tpl_mutual_nda");
  ASSERT_NE(nda, nullptr);
  ASSERT_NE(nda->PublishedVersion(), nullptr);
  EXPECT_EQ(nda->PublishedVersion()->template_version_id, "tpl_mutual_nda_v1");
  EXPECT_EQ(catalog.Find("tpl_unknown"), nullptr);
  EXPECT_TRUE(views_.Get("templates/t/tpl_mutual_nda")->has_value());
}

TEST_F(TemplateCatalogTest, AReimportReplacesTheTemplateAndOldPointersStayValid) {
  testing::ContractScript script(*store_);
  script.ImportTemplate("mutual-nda.json");
  TemplateCatalog catalog;
  ASSERT_TRUE(Project(catalog));
  auto before = catalog.Find("tpl_mutual_nda");
  ASSERT_NE(before, nullptr);

  Template changed = *before;
  changed.name = "Mutual NDA, revised";
  eventstore::NewEvent event;
  event.event_id = "evt_reimport";
  event.type = "template.imported";
  event.data = boost::json::serialize(TemplateToJson(changed));
  ASSERT_TRUE(store_->Append("template-tpl_mutual_nda", eventstore::ExpectedVersion::Any(),
                             {std::move(event)}));
  TemplateCatalog again;
  ASSERT_TRUE(Project(again));
  EXPECT_EQ(again.Find("tpl_mutual_nda")->name, "Mutual NDA, revised");
  EXPECT_EQ(again.List().size(), 1u);
  EXPECT_NE(before->name, "Mutual NDA, revised");  // a reader's template never changes under it
}

TEST_F(TemplateCatalogTest, ARestartLoadsTheCommittedRows) {
  testing::ContractScript script(*store_);
  script.ImportTemplate("services-agreement.json");
  {
    TemplateCatalog catalog;
    ASSERT_TRUE(Project(catalog));
  }
  TemplateCatalog restarted;
  Projector projector(*store_, views_, {&restarted});
  ASSERT_TRUE(projector.Start());  // Load runs before Start returns; nothing is left to apply
  EXPECT_NE(restarted.Find("tpl_services_agreement"), nullptr);
  EXPECT_EQ(*views_.Checkpoint("templates"), store_->Size());
}

TEST_F(TemplateCatalogTest, IgnoresOtherEvents) {
  eventstore::NewEvent event;
  event.event_id = "evt_other";
  event.type = "contract.created";
  event.data = R"({"contractId":"ctr_1"})";
  ASSERT_TRUE(store_->Append("contract-ctr_1", eventstore::ExpectedVersion::Any(), {event}));
  TemplateCatalog catalog;
  ASSERT_TRUE(Project(catalog));
  EXPECT_TRUE(catalog.List().empty());
}

TEST_F(TemplateCatalogTest, AnUnreadableTemplateStopsTheProjector) {
  ExpectStopsOn("tpl_x", "template.imported", R"({"templateId":"tpl_x"})");
}

}  // namespace
}  // namespace esign::projections
