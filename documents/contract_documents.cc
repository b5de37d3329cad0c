#include "documents/contract_documents.h"

#include <chrono>
#include <vector>

#include "base/json_read.h"
#include "documents/contract_sealer.h"
#include "documents/pdf_renderer.h"

namespace esign::documents {

ContractDocuments::ContractDocuments(projections::TemplateLookup templates,
                                     eventstore::BlobStore& blobs,
                                     const ServiceCertificate& certificate, const Clock& clock)
    : templates_(std::move(templates)), blobs_(blobs), certificate_(certificate), clock_(clock) {}

Result<ContractDocuments::Source> ContractDocuments::SourceOf(const ContractState& state) const {
  Source source{templates_(state.template_id)};
  if (source.tmpl) source.version = source.tmpl->FindVersion(state.template_version_id);
  if (source.version == nullptr) {
    return Fail(ErrorCode::kTemplateVersionNotFound,
                "template version " + state.template_version_id + " is not available");
  }
  return source;
}

Result<std::string> ContractDocuments::Render(const ContractState& state) const {
  auto source = SourceOf(state);
  if (!source) return std::unexpected(source.error());
  return RenderContractPdf(*source->tmpl, *source->version, state);
}

Result<std::string> ContractDocuments::Freeze(const ContractState& prepared) const {
  auto pdf = Render(prepared);
  if (!pdf) return std::unexpected(pdf.error());
  return blobs_.Put(*pdf);
}

Result<std::string> ContractDocuments::Seal(const ContractState& all_signed) const {
  auto source = SourceOf(all_signed);
  if (!source) return std::unexpected(source.error());
  std::vector<SignatureAppearance> appearances;
  for (const auto& p : all_signed.participants) {
    if (!p.signs() || !p.signed_at || all_signed.PreparedRoleOf(p.participant_id) == nullptr) {
      continue;
    }
    // Every signature as its signer gave it: the typed text, or the image they drew.
    const std::string signer_name = StringMemberOrEmpty(p.signing_evidence, "signerName");
    SignatureAppearance appearance{p.participant_id, signer_name.empty() ? p.name : signer_name,
                                   StringMemberOrEmpty(p.signing_evidence, "signatureText"),
                                   *p.signed_at, ""};
    if (const std::string image = StringMemberOrEmpty(p.signing_evidence, "signatureImageSha256");
        !image.empty()) {
      auto png = blobs_.Get(image);
      if (!png) return std::unexpected(png.error());
      appearance.image_png = std::move(*png);
    }
    appearances.push_back(std::move(appearance));
  }
  SealOptions options;
  options.signing_time =
      std::chrono::system_clock::time_point(std::chrono::microseconds(clock_.NowMicros()));
  options.timestamp_authority = timestamp_authority_;
  auto sealed = SealContractPdf(*source->tmpl, *source->version, all_signed, appearances,
                                certificate_, options);
  if (!sealed) return std::unexpected(sealed.error());
  return blobs_.Put(*sealed);
}

}  // namespace esign::documents
