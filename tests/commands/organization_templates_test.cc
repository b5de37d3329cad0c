// OrganizationTemplates over the in-memory store with the template catalog projected: create, add
// a version, publish, archive; what another organization and a platform template get; refused
// requests append nothing; Idempotency-Key replays; the versions limit.
#include "commands/organization_templates.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "commands/template_commands.h"
#include "domain/id_generator.h"
#include "domain/template_events.h"
#include "domain/template_json.h"
#include "eventstore/memory_event_store.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"

namespace esign::commands {
namespace {

using std::chrono::milliseconds;

// The mutual NDA's file as a request: without the ids the server assigns.
boost::json::object NdaRequest() {
  std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json");
  std::stringstream text;
  text << in.rdbuf();
  auto document = boost::json::parse(text.str()).as_object();
  document.erase("templateId");
  for (auto& version : document.at("versions").as_array()) {
    version.as_object().erase("templateVersionId");
  }
  return document;
}

boost::json::object NdaVersionRequest() {
  auto version = NdaRequest().at("versions").as_array().at(0).as_object();
  version.erase("published");
  return version;
}

bool HasDetail(const Error& error, std::string_view field) {
  for (const auto& detail : error.details) {
    if (detail.field == field) return true;
  }
  return false;
}

class OrganizationTemplatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    projector_ = std::make_unique<projections::Projector>(
        *store_, views_, std::vector<projections::Projection*>{&catalog_});
    ASSERT_TRUE(projector_->Start());
    templates_ = std::make_unique<OrganizationTemplates>(
        *store_,
        [this](std::string_view organization) -> Result<TemplateCounts> {
          if (!projector_->WaitFor(store_->Size(), milliseconds(5000))) {
            return Fail(ErrorCode::kUnavailable, "the catalog is behind");
          }
          return catalog_.CountOf(organization);
        },
        [this](std::string_view, uint64_t size) -> Status {
          if (!projector_->WaitFor(size, milliseconds(5000))) {
            return Fail(ErrorCode::kUnavailable, "the catalog is behind");
          }
          return {};
        },
        RandomIdGenerator::Instance());
  }
  void TearDown() override {
    projector_.reset();
    store_->Close();
  }

  OrganizationTemplates::Outcome MustCreate(const TemplateCaller& caller) {
    auto created = templates_->Create(caller, NdaRequest());
    EXPECT_TRUE(created) << created.error().message;
    return created ? std::move(*created) : OrganizationTemplates::Outcome{};
  }

  const TemplateCaller acme_{"org_acme", {.client_id = "cli_acme"}};
  const TemplateCaller globex_{"org_globex", {.client_id = "cli_globex"}};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  projections::MemoryViewStore views_;
  projections::TemplateCatalog catalog_;
  std::unique_ptr<projections::Projector> projector_;
  std::unique_ptr<OrganizationTemplates> templates_;
};

TEST_F(OrganizationTemplatesTest, CreatesAddsPublishesAndArchives) {
  auto created = MustCreate(acme_);
  const std::string id = created.tmpl.template_id;
  EXPECT_TRUE(id.starts_with("tpl_"));
  EXPECT_EQ(created.tmpl.organization_id, "org_acme");
  ASSERT_EQ(created.tmpl.versions.size(), 1u);
  const std::string first = created.tmpl.versions[0].template_version_id;
  EXPECT_TRUE(first.starts_with("tv_"));
  EXPECT_TRUE(created.tmpl.versions[0].published);  // the file marks it published
  // created, version_added, published: one append, and the catalog shows it on return.
  EXPECT_EQ(store_->Size(), 3u);
  auto listed = catalog_.Find(id);
  ASSERT_NE(listed, nullptr);
  EXPECT_EQ(listed->organization_id, "org_acme");

  auto added = templates_->AddVersion(acme_, id, NdaVersionRequest());
  ASSERT_TRUE(added) << added.error().message;
  const std::string second = added->template_version_id;
  ASSERT_NE(added->tmpl.FindVersion(second), nullptr);
  EXPECT_FALSE(added->tmpl.FindVersion(second)->published);
  EXPECT_EQ(added->tmpl.PublishedVersion()->template_version_id, first);

  auto published = templates_->Publish(acme_, id, second);
  ASSERT_TRUE(published) << published.error().message;
  EXPECT_EQ(published->tmpl.PublishedVersion()->template_version_id, second);
  EXPECT_EQ(catalog_.Find(id)->PublishedVersion()->template_version_id, second);
  const uint64_t size = store_->Size();
  ASSERT_TRUE(templates_->Publish(acme_, id, second));  // already published: nothing to record
  EXPECT_EQ(store_->Size(), size);
  auto unknown = templates_->Publish(acme_, id, "tv_missing");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kTemplateVersionNotFound);

  auto archived = templates_->Archive(acme_, id);
  ASSERT_TRUE(archived) << archived.error().message;
  EXPECT_TRUE(archived->tmpl.archived);
  EXPECT_TRUE(catalog_.Find(id)->archived);
  EXPECT_EQ(catalog_.CountOf("org_acme").active, 0u);
  EXPECT_EQ(catalog_.CountOf("org_acme").total, 1u);
  const uint64_t archived_size = store_->Size();
  ASSERT_TRUE(templates_->Archive(acme_, id));  // archived already: nothing to record
  auto version = templates_->AddVersion(acme_, id, NdaVersionRequest());
  ASSERT_FALSE(version);
  EXPECT_EQ(version.error().code, ErrorCode::kTemplateArchived);
  auto publish = templates_->Publish(acme_, id, first);
  ASSERT_FALSE(publish);
  EXPECT_EQ(publish.error().code, ErrorCode::kTemplateArchived);
  EXPECT_EQ(store_->Size(), archived_size);
}

TEST_F(OrganizationTemplatesTest, AnotherOrganizationFindsNothingAndPlatformTemplatesAreReadOnly) {
  const std::string id = MustCreate(acme_).tmpl.template_id;
  ASSERT_TRUE(ImportTemplateFile(*store_,
                                 std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json",
                                 {.client_id = "contractd"}));
  const uint64_t size = store_->Size();
  auto version = templates_->AddVersion(globex_, id, NdaVersionRequest());
  ASSERT_FALSE(version);
  EXPECT_EQ(version.error().code, ErrorCode::kTemplateNotFound);
  auto publish = templates_->Publish(globex_, id, "tv_any");
  ASSERT_FALSE(publish);
  EXPECT_EQ(publish.error().code, ErrorCode::kTemplateNotFound);
  auto archive = templates_->Archive(globex_, id);
  ASSERT_FALSE(archive);
  EXPECT_EQ(archive.error().code, ErrorCode::kTemplateNotFound);
  auto missing = templates_->Archive(acme_, "tpl_never_made");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kTemplateNotFound);
  auto platform = templates_->Archive(acme_, "tpl_mutual_nda");
  ASSERT_FALSE(platform);
  EXPECT_EQ(platform.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(store_->Size(), size);

  // The catalog's visibility: the platform template for both, each its own. The import went to
  // the log directly, so the catalog is waited for first.
  ASSERT_TRUE(projector_->WaitFor(store_->Size(), milliseconds(5000)));
  EXPECT_EQ(catalog_.ListVisibleTo("org_acme").size(), 2u);
  EXPECT_EQ(catalog_.ListVisibleTo("org_globex").size(), 1u);
  EXPECT_FALSE(catalog_.Find(id)->VisibleTo("org_globex"));

  // The command line cannot import over an organization's template.
  auto document = NdaRequest();
  document["templateId"] = id;
  document["versions"].as_array()[0].as_object()["templateVersionId"] = "v1";
  auto imported = ImportTemplateFromText(*store_, boost::json::serialize(document), "x.json",
                                         {.client_id = "contractd"});
  ASSERT_FALSE(imported);
  EXPECT_EQ(imported.error().code, ErrorCode::kTemplateInvalid);
  EXPECT_EQ(store_->Size(), size);
}

TEST_F(OrganizationTemplatesTest, RefusedRequestsAppendNothing) {
  const std::string id = MustCreate(acme_).tmpl.template_id;
  const uint64_t size = store_->Size();

  auto with_id = NdaRequest();
  with_id["templateId"] = "tpl_mine";
  auto refused = templates_->Create(acme_, with_id);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTemplateInvalid);
  EXPECT_TRUE(HasDetail(refused.error(), "templateId"));

  auto bad_type = NdaRequest();
  bad_type["versions"].as_array()[0].as_object()["roles"].as_array()[0].as_object()["action"] =
      "stamp";
  refused = templates_->Create(acme_, bad_type);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTemplateInvalid);
  EXPECT_TRUE(HasDetail(refused.error(), "versions[0].roles[0].action"));

  auto many = NdaRequest();
  auto& versions = many["versions"].as_array();
  const boost::json::value one = NdaVersionRequest();
  versions.clear();
  for (size_t i = 0; i <= kMaxVersionsPerTemplate; ++i) versions.push_back(one);
  refused = templates_->Create(acme_, many);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed);
  EXPECT_TRUE(HasDetail(refused.error(), "versions"));

  refused = templates_->Create(acme_, boost::json::array{});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTemplateInvalid);

  auto large = NdaVersionRequest();
  large["body"].as_array().push_back(
      {{"type", "paragraph"}, {"text", std::string(kMaxTemplateVersionBytes, 'x')}});
  auto too_large = templates_->AddVersion(acme_, id, large);
  ASSERT_FALSE(too_large);
  EXPECT_EQ(too_large.error().code, ErrorCode::kValidationFailed);

  auto named = NdaVersionRequest();
  named["templateVersionId"] = "v2";
  named["roles"].as_array().clear();
  auto invalid = templates_->AddVersion(acme_, id, named);
  ASSERT_FALSE(invalid);
  EXPECT_EQ(invalid.error().code, ErrorCode::kTemplateInvalid);
  EXPECT_TRUE(HasDetail(invalid.error(), "templateVersionId"));
  EXPECT_EQ(store_->Size(), size);
}

TEST_F(OrganizationTemplatesTest, AnIdempotencyKeyCarriesARequestOutOnce) {
  const eventstore::IdempotentRequest request{"cli_acme", "key-1", "hash-1", acme_.actor};
  auto first = templates_->Create(acme_, NdaRequest(), request);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->replayed);
  const uint64_t size = store_->Size();
  auto again = templates_->Create(acme_, NdaRequest(), request);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->tmpl.template_id, first->tmpl.template_id);
  EXPECT_EQ(store_->Size(), size);
  EXPECT_EQ(catalog_.CountOf("org_acme").total, 1u);

  auto reused = templates_->Create(acme_, NdaRequest(), {{"cli_acme", "key-1", "hash-2", {}}});
  ASSERT_FALSE(reused);
  EXPECT_EQ(reused.error().code, ErrorCode::kIdempotencyKeyReused);

  const std::string id = first->tmpl.template_id;
  const eventstore::IdempotentRequest add{"cli_acme", "key-2", "hash-3", acme_.actor};
  auto added = templates_->AddVersion(acme_, id, NdaVersionRequest(), add);
  ASSERT_TRUE(added);
  auto replayed = templates_->AddVersion(acme_, id, NdaVersionRequest(), add);
  ASSERT_TRUE(replayed);
  EXPECT_TRUE(replayed->replayed);
  EXPECT_EQ(replayed->template_version_id, added->template_version_id);
  EXPECT_EQ(replayed->tmpl.versions.size(), 2u);

  // Refused before the key is reserved: nothing in the log.
  const uint64_t before = store_->Size();
  auto refused = templates_->Archive(globex_, id, {{"cli_globex", "key-3", "hash-4", {}}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTemplateNotFound);
  EXPECT_EQ(store_->Size(), before);
}

TEST_F(OrganizationTemplatesTest, ATemplateTakesAtMostTheBytesLimit) {
  const std::string id = MustCreate(acme_).tmpl.template_id;
  auto large = NdaVersionRequest();
  for (int i = 0; i < 12; ++i) {
    large["body"].as_array().push_back({{"type", "paragraph"}, {"text", std::string(19000, 'x')}});
  }
  size_t added = 1;
  Result<OrganizationTemplates::Outcome> last;
  while ((last = templates_->AddVersion(acme_, id, large))) ++added;
  EXPECT_EQ(last.error().code, ErrorCode::kValidationFailed);
  EXPECT_LT(added, kMaxVersionsPerTemplate);
  EXPECT_EQ(catalog_.Find(id)->versions.size(), added);
  EXPECT_LE(boost::json::serialize(TemplateToJson(*catalog_.Find(id))).size(), kMaxTemplateBytes);
}

TEST_F(OrganizationTemplatesTest, ATemplateTakesAtMostTheVersionsLimit) {
  const std::string id = MustCreate(acme_).tmpl.template_id;
  for (size_t i = 1; i < kMaxVersionsPerTemplate; ++i) {
    ASSERT_TRUE(templates_->AddVersion(acme_, id, NdaVersionRequest())) << i;
  }
  const uint64_t size = store_->Size();
  auto refused = templates_->AddVersion(acme_, id, NdaVersionRequest());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(store_->Size(), size);
  EXPECT_EQ(catalog_.Find(id)->versions.size(), kMaxVersionsPerTemplate);
}

}  // namespace
}  // namespace esign::commands
