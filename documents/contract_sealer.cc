#include "documents/contract_sealer.h"

#include <iostream>

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
  SignOptions sign{.reason = options.reason, .signing_time = options.signing_time};
  if (options.timestamp_authority != nullptr) {
    sign.timestamp_authority = options.timestamp_authority;
    auto sealed = SignPdf(*pdf, certificate, sign);
    if (sealed || sealed.error().code != ErrorCode::kUnavailable) return sealed;
    std::cerr << "contractd: sealed without a timestamp (PAdES B-B): " << sealed.error().message
              << std::endl;
    sign.timestamp_authority = nullptr;
  }
  return SignPdf(*pdf, certificate, sign);
}

}  // namespace esign::documents
