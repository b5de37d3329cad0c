#include "documents/contract_sealer.h"

#include <iostream>

#include "base/sha256.h"
#include "documents/certificate_pages.h"
#include "documents/pdf_page_append.h"
#include "documents/pdf_renderer.h"
#include "documents/pdf_signer.h"

namespace esign::documents {

Result<SealedContract> SealContractPdf(const Template& tmpl, const TemplateVersion& version,
                                       const ContractState& state,
                                       const std::vector<SignatureAppearance>& appearances,
                                       const ServiceCertificate& certificate,
                                       const SealOptions& options) {
  auto pages = RenderSignedContractPdf(tmpl, version, state, appearances, options.layout);
  if (!pages) return std::unexpected(std::move(pages.error()));
  return SealSignedPages(std::move(*pages), certificate, options);
}

Result<SealedContract> SealSignedPages(std::string signed_pages,
                                       const ServiceCertificate& certificate,
                                       const SealOptions& options) {
  const size_t signed_content_size = signed_pages.size();
  std::string unsealed = std::move(signed_pages);
  if (options.certificate) {
    CompletionCertificate filled = *options.certificate;
    filled.signed_sha256 = Sha256Hex(unsealed);
    filled.signed_size = signed_content_size;
    auto certificate_pdf = RenderCertificatePdf(filled);
    if (!certificate_pdf) return std::unexpected(std::move(certificate_pdf.error()));
    auto appended = AppendPdfPages(unsealed, *certificate_pdf);
    // Both inputs are the service's own PDFs: a failure to read them is ours, not the caller's.
    if (!appended) return Fail(ErrorCode::kInternal, appended.error().message);
    unsealed = std::move(*appended);
  }
  auto embedded = EmbedFiles(unsealed, options.attachments);
  if (!embedded) return Fail(ErrorCode::kInternal, embedded.error().message);
  unsealed = std::move(*embedded);
  SignOptions sign{.reason = options.reason, .signing_time = options.signing_time};
  sign.timestamp_authority = options.timestamp_authority;
  auto sealed = SignPdf(unsealed, certificate, sign);
  if (!sealed && sign.timestamp_authority != nullptr &&
      sealed.error().code == ErrorCode::kUnavailable) {
    std::cerr << "contractd: sealed without a timestamp (PAdES B-B): " << sealed.error().message
              << std::endl;
    sign.timestamp_authority = nullptr;
    sealed = SignPdf(unsealed, certificate, sign);
  }
  if (!sealed) return std::unexpected(std::move(sealed.error()));
  return SealedContract{std::move(*sealed), signed_content_size};
}

}  // namespace esign::documents
