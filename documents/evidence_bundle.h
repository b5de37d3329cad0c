// The evidence bundle of a contract: one JSON document an auditor can check with nothing but the
// service's public key. Everything it shows follows from the contract's event records, which it
// carries with their Merkle inclusion proofs against a signed tree head
// (eventstore/proof_bundle.h):
//
//   {"format":"esign-evidence-bundle/2","contractId":..,"status":..,"version":..,
//    "auditTrail":[...],"documents":[{"kind","sha256","revision"?}],
//    "ledger":<proof bundle>,"serviceCertificatePem":..,
//    "unproven":{"generatedAt":..,"storedDocuments":[{"sha256","size"|"missing":true}]}}
//
// status, version, the audit trail and the document list are what the proven records replay to
// (documents/proven_contract.h). What no record proves (when the bundle was generated, the sizes
// of the bytes stored) sits under "unproven", and the report says so.
//
// VerifyEvidenceBundle recomputes every check: the proof bundle's (head signature, each leaf hash
// and inclusion proof), that every shown part equals what the proven records say (a difference
// fails by name: "status", "auditTrail[3].type", "documents[1].sha256"), that the bundle holds
// nothing else, each document's hash against the stored bytes, and every PDF signature of each
// signed PDF (documents/pdf_signature_check.h). Document check names say which document they are
// about: "documents.rendered_unsigned.sha256", "documents.revision[2].signed_pdf.sha256",
// "documents.revision[2].signed_pdf.signature[Signature1]",
// "documents.revision[2].signed_pdf.unmodified" (docs/documents.md lists them all).
// Thread safety: pure functions over their arguments; the blob store must be safe to read.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign {

inline constexpr std::string_view kEvidenceBundleFormat = "esign-evidence-bundle/2";

// True when `value` is an object whose "format" is kEvidenceBundleFormat.
bool IsEvidenceBundle(const boost::json::value& value);

struct EvidenceSources {
  std::string contract_id;
  boost::json::object ledger_proof;  // BuildProofBundle of the contract's stream
  const eventstore::BlobStore* blobs = nullptr;
  std::string certificate_pem;
  std::string generated_at;  // RFC 3339
};

Result<boost::json::object> BuildEvidenceBundle(const EvidenceSources& sources);

struct EvidenceCheck {
  std::string name;  // "ledger.treeHead.signature", "documents[0].sha256", ...
  bool ok = false;
  std::string detail;
  // Not a check but a note: the bundle shows this and nothing proves it (ok is unused).
  bool unproven = false;
};

// Every check with its outcome; `trusted_public_key_pem` (the service's ledger key) must match the
// bundle's (empty: the bundle's own key is used). `trusted_certificate_pem` (the service's signing
// certificate), when given, must equal the bundle's and be the signer of every PDF signature.
// `blobs` null: the documents are not checked (an auditor holding the bundle alone).
// `trusted_tsa_ca_pem`, when given, is the CA every timestamp (the tree head's, each PDF
// signature's) must chain to.
std::vector<EvidenceCheck> VerifyEvidenceBundle(const boost::json::object& bundle,
                                                const eventstore::BlobStore* blobs,
                                                std::string_view trusted_public_key_pem,
                                                std::string_view trusted_certificate_pem = {},
                                                std::string_view trusted_tsa_ca_pem = {});

// {"contractId","verifiedAt"?,"valid":bool,"verdict":"pass"|"fail",
//  "checks":[{"name","passed":bool,"result":"pass"|"fail","detail"}],
//  "unproven"?:[{"name","detail"}]}; valid only when there are checks and every one passed (the
// unproven notes do not count). `verified_at` (RFC 3339) is left out when empty.
boost::json::object VerificationReport(std::string_view contract_id,
                                       const std::vector<EvidenceCheck>& checks,
                                       std::string_view verified_at = {});

}  // namespace esign
