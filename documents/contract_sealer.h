// The signed PDF of a completed contract (DESIGN section 12): the contract laid out exactly as
// RenderContractPdf lays it out (same pages, same placements), with every signer's signature
// drawn in their placement boxes (signature_appearance.h), then sealed with the service's
// PAdES B-B signature (pdf_signer.h) as an incremental update.
//
// Deterministic up to the signature value: for the same input every byte is the same except
// the hex of /Contents, because ECDSA draws a fresh nonce for every signature.
// Thread safety: SealContractPdf is a pure function of its arguments and may run on several
// threads at once. It is CPU-bound (tens of milliseconds): keep it off the I/O threads.
#pragma once

#include <chrono>
#include <string>
#include <vector>

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
  // PAdES B-LT when set (pdf_signer.h). When the authority gives no token, the seal is made
  // without one (B-B, no timestamp claimed) and the failure logged: completing never waits on it.
  const TimestampAuthority* timestamp_authority = nullptr;
};

// Renders the contract with every appearance drawn inside its signer's placement boxes, then
// applies the service's PAdES B-B signature (SignPdf). kValidationFailed for an appearance whose
// participant has no prepared role, two appearances of one participant, an image that is not a
// PNG cairo can read (or larger than 4096 pixels on a side) or an appearance with nothing to
// draw; kInternal when rendering or signing fails.
Result<std::string> SealContractPdf(const Template& tmpl, const TemplateVersion& version,
                                    const ContractState& state,
                                    const std::vector<SignatureAppearance>& appearances,
                                    const ServiceCertificate& certificate,
                                    const SealOptions& options);

}  // namespace esign::documents
