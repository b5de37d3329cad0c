// ContractDocuments: the template version comes from the look-up (an unknown one is refused
// before anything is rendered or stored), Freeze stores exactly what Render returns, and Seal
// stores a sealed PDF.
#include "documents/contract_documents.h"

#include <gtest/gtest.h>

#include "documents/pdf_renderer.h"
#include "pdf_fixtures.h"
#include "tests/documents/contract_documents_fixture.h"

namespace esign::documents {
namespace {

using pdf_test::LoadTemplate;
using pdf_test::ServicesState;

using ContractDocumentsTest = ContractDocumentsFixture;

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
  auto frozen = documents_->Freeze(state);
  ASSERT_TRUE(frozen) << frozen.error().message;
  auto stored = store_->blobs().Get(frozen->sha256);
  ASSERT_TRUE(stored);
  EXPECT_EQ(*stored, *rendered);
}

}  // namespace
}  // namespace esign::documents
