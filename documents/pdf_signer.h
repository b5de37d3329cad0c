// PAdES signing of a PDF by the service: baseline B-B, or B-LT with a timestamp authority.
//
// SignPdf appends one incremental update to the original bytes, which stay an exact prefix of the
// result: a new signature field whose widget (invisible) sits on page 1, an AcroForm with
// /SigFlags 3 listing every earlier field plus the new one, a signature dictionary (/Filter
// /Adobe.PPKLite, /SubFilter /ETSI.CAdES.detached, /M, /Reason, /Name) and a classic xref section
// with /Prev. /Contents holds a detached CMS SignedData (SHA-256, ESS signing-certificate-v2, no
// signing-time attribute: PAdES takes the time from /M) over the two /ByteRange ranges, i.e. the
// whole file except the /Contents hex string. Signing an already signed file adds a signature and
// keeps the earlier ones valid.
// With a timestamp authority (SignOptions::timestamp_authority), the same update also carries a
// document security store (/DSS in the catalog, /Certs: the service's certificate and the
// authority's certificates, so a validator needs nothing from outside), and the CMS signer info
// gets the unsigned attribute id-aa-signatureTimeStampToken (RFC 3161 token over SHA-256 of the
// signature value): PAdES B-T, with the store B-LT. The signature still covers the whole file.
// Thread safety: SignPdf is a pure function of its arguments; it may run on any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "documents/service_certificate.h"
#include "documents/timestamp_authority.h"
#include "domain/result.h"

namespace esign::documents {

struct SignOptions {
  std::string reason = "Contract executed";       // /Reason
  std::string name = "Contract Signing Service";  // /Name
  std::string field_name;  // /T of the new field; default "Signature<n>" (first unused n)
  std::chrono::system_clock::time_point signing_time = std::chrono::system_clock::now();  // /M, UTC
  size_t contents_capacity = 8192;  // bytes reserved for the DER CMS (hex doubles it); with a
                                    // timestamp authority at least 16384
  const TimestampAuthority* timestamp_authority = nullptr;  // B-LT when set; must outlive the call
};

// kValidationFailed when the input is not a PDF QPDF can read or has no page;
// kInternal when the CMS does not fit the reserved space or OpenSSL fails; kUnavailable when the
// timestamp authority gives no certificates or no token (nothing is signed then: the caller
// decides whether to sign without one).
[[nodiscard]] Result<std::string> SignPdf(std::string_view pdf, const ServiceCertificate& cert,
                                          const SignOptions& options = {});

}  // namespace esign::documents
