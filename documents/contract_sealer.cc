#include "documents/contract_sealer.h"

#include "documents/pdf_renderer.h"
#include "documents/pdf_signer.h"

namespace esign::documents {

Result<std::string> SealContractPdf(const Template& tmpl, const TemplateVersion& version,
                                    const ContractState& state,
                                    const std::vector<SignatureAppearance>& appearances,
                                    const ServiceCertificate& certificate,
                                    const SealOptions& options) {
  auto pdf = RenderSignedContractPdf(tmpl, version, state, appearances);
  if (!pdf) return pdf;
  return SignPdf(*pdf, certificate,
                 {.reason = options.reason, .signing_time = options.signing_time});
}

}  // namespace esign::documents
