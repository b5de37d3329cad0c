// ContractDocuments for a contract made from uploads: Render composes the cleaned blobs, Freeze
// stores that, Seal stamps every field into the frozen composition, appends the certificate that
// names each document with its hashes and pages, and seals the whole file; a missing blob is
// refused before anything is stored.
#include <gtest/gtest.h>

#include <memory>

#include "base/sha256.h"
#include "documents/contract_documents.h"
#include "documents/uploaded_pdf_composer.h"
#include "tests/documents/contract_documents_fixture.h"
#include "tests/documents/pdf_fixtures.h"
#include "tests/documents/upload_pdf_fixtures.h"

namespace esign::documents {
namespace {

using pdf_test::Contains;
using pdf_test::PdfFile;

class ContractDocumentsUploadsTest : public ContractDocumentsFixture {
 protected:
  void StoreUploads() {
    ASSERT_EQ(store_->blobs().Put(upload_test::TaggedPdf()).value(), state_.documents[0].sha256);
    ASSERT_EQ(store_->blobs().Put(upload_test::FormPdf()).value(), state_.documents[1].sha256);
  }

  static ContractState State() {
    ContractState state;
    state.id = "ctr_01JD4T5Y2UPL";
    state.version = 4;
    state.title = "Supply agreement";
    state.organization_id = "org_acme";
    state.created_at = "2026-11-21T09:00:00Z";
    state.sent_at = "2026-11-21T09:05:00Z";
    state.documents = upload_test::Documents();
    state.fields = upload_test::Fields();
    Participant ana = pdf_test::Person("p_ana", "Ana de Souza", ParticipantAction::kSign);
    ana.signed_at = "2026-11-21T10:04:33Z";
    ana.progress = ParticipantProgress::kSigned;
    ana.signing_evidence = {{"signerName", "Ana de Souza"}, {"signatureText", "Ana S."}};
    state.participants = {ana};
    return state;
  }

  ContractState state_ = State();
};

TEST_F(ContractDocumentsUploadsTest, FreezesTheCompositionAndSealsTheStampedFieldsAndCertificate) {
  StoreUploads();
  auto rendered = documents_->Render(state_);
  ASSERT_TRUE(rendered) << rendered.error().message;
  const std::string tagged = upload_test::TaggedPdf(), form = upload_test::FormPdf();
  const std::vector<UploadedPdf> inputs = {{&state_.documents[0], tagged},
                                           {&state_.documents[1], form}};
  EXPECT_EQ(*rendered, ComposeUploadedPdf(inputs).value());
  auto frozen = documents_->Freeze(state_);
  ASSERT_TRUE(frozen) << frozen.error().message;
  EXPECT_EQ(frozen->sha256, Sha256Hex(*rendered));
  EXPECT_TRUE(frozen->signature_placements.empty());
  state_.rendered_document_sha256 = frozen->sha256;

  auto sealed = documents_->Seal(state_);
  ASSERT_TRUE(sealed) << sealed.error().message;
  const std::string pdf = store_->blobs().Get(sealed->signed_pdf_key).value();
  const std::string signed_pages = store_->blobs().Get(sealed->signed_content_sha256).value();
  EXPECT_TRUE(pdf.starts_with(signed_pages));

  PdfFile file(pdf);
  const auto check = file.Check();
  EXPECT_EQ(check.exit_code, 0) << check.out;
  const std::string signatures = file.Signatures();
  EXPECT_TRUE(Contains(signatures, "Signature Validation: Signature is Valid.")) << signatures;
  EXPECT_TRUE(Contains(signatures, "Total document signed")) << signatures;
  EXPECT_FALSE(Contains(signatures, "Not total document signed")) << signatures;

  // The three document pages carry the stamps; the certificate follows them.
  const auto pages = file.PageTexts();
  ASSERT_GT(pages.size(), 3u);
  EXPECT_TRUE(Contains(pages[0], "Ana S.")) << pages[0];
  EXPECT_TRUE(Contains(pages[0], "Signed by")) << pages[0];
  EXPECT_TRUE(Contains(pages[1], "AS")) << pages[1];
  EXPECT_TRUE(Contains(pages[1], "2026-11-21")) << pages[1];
  EXPECT_TRUE(Contains(pages[2], "Ana de Souza")) << pages[2];
  EXPECT_TRUE(Contains(pages[2], "p_ana@example.com")) << pages[2];
  EXPECT_TRUE(Contains(pages[2], "Net 30 days")) << pages[2];

  std::string certificate;
  for (size_t i = 3; i < pages.size(); ++i) certificate += pages[i];
  EXPECT_TRUE(Contains(certificate, "2 uploaded")) << certificate;
  EXPECT_TRUE(Contains(certificate, "Master agreement.pdf pages 1\u20132")) << certificate;
  EXPECT_TRUE(Contains(certificate, "Order form.pdf page 3")) << certificate;
  for (const ContractDocument& document : state_.documents) {
    EXPECT_TRUE(Contains(certificate, document.sha256)) << document.sha256 << "\n" << certificate;
    EXPECT_TRUE(Contains(certificate, document.upload_sha256)) << certificate;
  }
  EXPECT_TRUE(Contains(certificate, frozen->sha256)) << certificate;
  EXPECT_TRUE(Contains(certificate, sealed->signed_content_sha256)) << certificate;
}

TEST_F(ContractDocumentsUploadsTest, AMissingUploadIsRefusedAndNothingIsStored) {
  ASSERT_TRUE(store_->blobs().Put(upload_test::TaggedPdf()));  // the second one is missing
  auto rendered = documents_->Render(state_);
  ASSERT_FALSE(rendered);
  EXPECT_EQ(rendered.error().code, ErrorCode::kNotFound);
  auto frozen = documents_->Freeze(state_);
  ASSERT_FALSE(frozen);
  EXPECT_EQ(frozen.error().code, ErrorCode::kNotFound);
  auto sealed = documents_->Seal(state_);
  ASSERT_FALSE(sealed);
  EXPECT_EQ(sealed.error().code, ErrorCode::kNotFound);
}

TEST_F(ContractDocumentsUploadsTest, AFieldOnAPageTheDocumentDoesNotHaveIsRefusedAtSealing) {
  StoreUploads();
  state_.fields[0].box.page = 7;
  auto sealed = documents_->Seal(state_);
  ASSERT_FALSE(sealed);
  EXPECT_EQ(sealed.error().code, ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::documents
