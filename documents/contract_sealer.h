// The signed PDF of a completed contract (DESIGN section 12): the contract laid out exactly as
// RenderContractPdf lays it out (same pages, same placements), with every signer's signature
// drawn in their placement boxes (signature_appearance.h); then, when a completion certificate
// is given, its pages (certificate_pages.h) appended as an incremental update
// (pdf_page_append.h); then the whole sealed with the service's PAdES B-B signature
// (pdf_signer.h) as a further incremental update. The signed contract pages therefore stay an
// exact prefix of the sealed file: their SHA-256, which the certificate prints, can be checked
// against its first bytes.
//
// Deterministic up to the signature value: for the same input every byte is the same except
// the hex of /Contents, because ECDSA draws a fresh nonce for every signature.
// Thread safety: SealContractPdf is a pure function of its arguments and may run on several
// threads at once. It is CPU-bound (tens of milliseconds): keep it off the I/O threads.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "documents/completion_certificate.h"
#include "documents/pdf_embedded_files.h"
#include "documents/pdf_renderer.h"
#include "documents/service_certificate.h"
#include "documents/signature_appearance.h"
#include "documents/timestamp_authority.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign::documents {

struct SealOptions {
  std::string reason = "Contract executed";  // /Reason of the service signature
  // /M of the service signature (the completion time; passed, never read from the clock inside,
  // so the output is deterministic). Default: the epoch.
  std::chrono::system_clock::time_point signing_time;
  // The certificate whose pages follow the contract's, its signed_sha256 and signed_size filled
  // in by the sealer. Default: none (the sealed PDF is the contract's pages alone).
  std::optional<CompletionCertificate> certificate;
  // PAdES B-LT when set (pdf_signer.h). When the authority gives no token, the seal is made
  // without one (B-B, no timestamp claimed) and the failure logged: completing never waits on it.
  const TimestampAuthority* timestamp_authority = nullptr;
  // How the contract's pages are laid out: as its unsigned PDF was (ContractDocuments::Seal picks
  // the layout that reproduces the frozen PDF).
  RenderOptions layout;
  // The files signers attached, embedded under the seal after the certificate's pages.
  std::vector<EmbeddedFile> attachments;
};

struct SealedContract {
  std::string pdf;                 // the sealed PDF
  size_t signed_content_size = 0;  // its first bytes: the signed contract pages
  std::string_view signed_content() const {
    return std::string_view(pdf).substr(0, signed_content_size);
  }
};

// Renders the contract with every appearance drawn inside its signer's placement boxes, adds the
// certificate's pages when given, then applies the service's PAdES signature (SignPdf: B-LT with
// a timestamp authority that answers, B-B otherwise).
// kValidationFailed for an appearance whose participant has no prepared role, two appearances of
// one participant, an image that is not a PNG cairo can read (or larger than 4096 pixels on a
// side) or an appearance with nothing to draw; kInternal when rendering or signing fails.
Result<SealedContract> SealContractPdf(const Template& tmpl, const TemplateVersion& version,
                                       const ContractState& state,
                                       const std::vector<SignatureAppearance>& appearances,
                                       const ServiceCertificate& certificate,
                                       const SealOptions& options);

// The same from the signed contract pages as given (a contract from uploads: the frozen
// composition with its fields stamped, field_stamper.h): the certificate's pages appended when
// given, then the seal. options.layout is not used. Errors as SealContractPdf's after rendering.
Result<SealedContract> SealSignedPages(std::string signed_pages,
                                       const ServiceCertificate& certificate,
                                       const SealOptions& options);

}  // namespace esign::documents
