// Checks every signature of a PDF, as a relying party would (and as poppler's pdfsig does).
//
// The signature fields are found through the AcroForm (/Fields and their /Kids, /FT /Sig, the
// signature dictionary in /V), read with QPDF. For each signature:
//   - /ByteRange [0 a b c] must be four integers with 0 < a < b <= b + c <= file size, and the
//     gap [a, b) must be exactly the /Contents hex string, '<' and '>' included, so that the
//     signature covers every byte of its revision except its own value;
//   - /Contents must hold one DER CMS SignedData (adbe.pkcs7.detached or ETSI.CAdES.detached)
//     followed by zero padding only; the CMS must verify, detached, over the two ranges
//     (message digest and signature; the signer's certificate chain is not built);
//   - when a trusted certificate is given, the signer's certificate must be that certificate;
//   - a signature timestamp (unsigned attribute id-aa-signatureTimeStampToken, PAdES B-T) must be
//     an RFC 3161 token over SHA-256 of the signature value that verifies (base/timestamp_token.h;
//     against the trusted TSA CA when one is given); its time and authority are reported.
// A signature whose ranges end at the end of the file covers the whole document; after an
// incremental update only the newest one does. The document is unmodified since its last
// signature when the signature reaching furthest covers the whole document and every signature
// is valid.
// Thread safety: a pure function of its arguments; it may run on any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"

namespace esign::documents {

struct PdfSignatureResult {
  std::string field_name;           // the field's full name, e.g. "Signature1"
  std::string signer_subject;       // RFC 2253, e.g. "CN=Contract Signing Service"; "" when unknown
  std::string signing_time;         // /M as written, e.g. "D:20261121083000Z"; "" when absent
  std::string timestamp_time;       // the timestamp's genTime, e.g. "2026-11-21T08:30:01.000000Z";
                                    // "" when the signature carries no timestamp
  std::string timestamp_authority;  // the timestamp signer's subject, RFC 2253
  std::array<int64_t, 4> byte_range{};
  bool covers_whole_document = false;  // the second range ends at the end of the file
  bool valid = false;                  // every check above passed
  std::string error;                   // the first check that failed, when not valid
};

// The signatures in the order of the bytes they cover (the first revision's first). Empty for a
// PDF without signatures. kValidationFailed when QPDF cannot read the bytes as a PDF.
// `trusted_certificate_pem` (optional): the certificate every signer must have used.
// `trusted_tsa_ca_pem` (optional): the CA every signature timestamp must chain to.
[[nodiscard]] Result<std::vector<PdfSignatureResult>> CheckPdfSignatures(
    std::string_view pdf, std::string_view trusted_certificate_pem = {},
    std::string_view trusted_tsa_ca_pem = {});

// True when there is at least one signature, all are valid, and the last covers the whole file.
bool UnmodifiedSinceLastSignature(const std::vector<PdfSignatureResult>& signatures);

}  // namespace esign::documents
