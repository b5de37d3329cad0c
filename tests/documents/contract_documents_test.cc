// ContractDocuments: the template version comes from the look-up (an unknown one is refused
// before anything is rendered or stored), Freeze stores exactly what Render returns, and Seal
// stores a sealed PDF.
#include "documents/contract_documents.h"

#include <gtest/gtest.h>

#include <memory>

#include "documents/pdf_renderer.h"
#include "eventstore/memory_event_store.h"
#include "pdf_fixtures.h"

namespace esign::documents {
namespace {

using pdf_test::LoadTemplate;
using pdf_test::ServicesState;

class ContractDocumentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    auto cert = ServiceCertificate::CreateEphemeral();
    ASSERT_TRUE(cert);
    cert_ = std::move(*cert);
    documents_ = std::make_unique<ContractDocuments>(
        [this](std::string_view id) -> std::shared_ptr<const Template> {
          return id == tmpl_->template_id ? tmpl_ : nullptr;
        },
        *store_, *cert_, clock_);
  }

  std::shared_ptr<const Template> tmpl_ =
      std::make_shared<const Template>(LoadTemplate("services-agreement.json"));
  ManualClock clock_{1'800'000'000'000'000};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::unique_ptr<ServiceCertificate> cert_;
  std::unique_ptr<ContractDocuments> documents_;
};

TEST_F(ContractDocumentsTest, AnUnknownTemplateVersionIsRefusedAndNothingIsStored) {
  ContractState unknown_version = ServicesState(*tmpl_, 1);
  unknown_version.template_version_id = "tv_missing";
  ContractState unknown_template = ServicesState(*tmpl_, 1);
  unknown_template.template_id = "tpl_missing";
  for (const auto& state : {unknown_version, unknown_template}) {
    auto rendered = documents_->Render(state);
    ASSERT_FALSE(rendered);
    EXPECT_EQ(rendered.error().code, ErrorCode::kTemplateVersionNotFound);
    auto frozen = documents_->Freeze(state);
    ASSERT_FALSE(frozen);
    EXPECT_EQ(frozen.error().code, ErrorCode::kTemplateVersionNotFound);
    auto sealed = documents_->Seal(state);
    ASSERT_FALSE(sealed);
    EXPECT_EQ(sealed.error().code, ErrorCode::kTemplateVersionNotFound);
  }
}

TEST_F(ContractDocumentsTest, FreezeStoresWhatRenderReturns) {
  const ContractState state = ServicesState(*tmpl_, 2);
  auto rendered = documents_->Render(state);
  ASSERT_TRUE(rendered) << rendered.error().message;
  EXPECT_EQ(*rendered, RenderContractPdf(*tmpl_, tmpl_->versions.front(), state).value());
  auto sha256 = documents_->Freeze(state);
  ASSERT_TRUE(sha256) << sha256.error().message;
  auto stored = store_->blobs().Get(*sha256);
  ASSERT_TRUE(stored);
  EXPECT_EQ(*stored, *rendered);
}

}  // namespace
}  // namespace esign::documents
