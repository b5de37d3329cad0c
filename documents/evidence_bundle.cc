#include "documents/evidence_bundle.h"

#include <algorithm>

#include "base/sha256.h"
#include "documents/pdf_signature_check.h"
#include "eventstore/proof_bundle.h"

namespace esign {
namespace {

struct DocumentRef {
  std::string kind;
  std::string sha256;
  int64_t revision = 0;  // 0: not a numbered revision
};

std::vector<DocumentRef> DocumentsOf(const ContractState& state) {
  std::vector<DocumentRef> out;
  if (state.rendered_document_sha256) {
    out.push_back({"rendered_unsigned", *state.rendered_document_sha256, 0});
  }
  for (const auto& r : state.artifact_revisions) out.push_back({r.kind, r.sha256, r.revision});
  // The signed PDF the downloads serve, unless a revision already lists it.
  if (state.signed_pdf_key && std::none_of(out.begin(), out.end(), [&](const DocumentRef& d) {
        return d.sha256 == *state.signed_pdf_key;
      })) {
    out.push_back({"signed_pdf", *state.signed_pdf_key, 0});
  }
  return out;
}

// Which document a check is about: "documents.rendered_unsigned",
// "documents.revision[2].signed_pdf", or "documents[i]" when the entry says nothing.
std::string DocumentLabel(const boost::json::value& item, size_t index) {
  const auto* object = item.if_object();
  const auto* kind = object ? object->if_contains("kind") : nullptr;
  const auto* revision = object ? object->if_contains("revision") : nullptr;
  if (kind == nullptr || !kind->is_string()) return "documents[" + std::to_string(index) + "]";
  const std::string kind_text(kind->as_string());
  boost::system::error_code ec;
  const auto number = revision ? revision->to_number<int64_t>(ec) : 0;
  if (revision && !ec) return "documents.revision[" + std::to_string(number) + "]." + kind_text;
  return "documents." + kind_text;
}

// One check per PDF signature, then whether the last one covers the whole document.
void CheckSignedPdf(const std::string& label, std::string_view pdf,
                    std::string_view trusted_certificate_pem, std::vector<EvidenceCheck>& checks) {
  auto signatures = documents::CheckPdfSignatures(pdf, trusted_certificate_pem);
  if (!signatures) {
    checks.push_back({label + ".signatures", false, signatures.error().message});
    return;
  }
  for (const auto& s : *signatures) {
    std::string detail = s.error;
    if (s.valid) {
      detail = "valid, signed by " + s.signer_subject;
      if (!s.signing_time.empty()) detail += " at " + s.signing_time;
    }
    checks.push_back({label + ".signature[" + s.field_name + "]", s.valid, std::move(detail)});
  }
  const bool unmodified = documents::UnmodifiedSinceLastSignature(*signatures);
  std::string detail = "no signature";
  if (!signatures->empty()) {
    const auto& last = signatures->back();
    detail = !last.covers_whole_document
                 ? "bytes follow the last signature (" + last.field_name + ")"
             : unmodified ? "the last signature (" + last.field_name + ") covers the whole document"
                          : "the last signature covers the whole document, but not every "
                            "signature is valid";
  }
  checks.push_back({label + ".unmodified", unmodified, std::move(detail)});
}

}  // namespace

Result<boost::json::object> BuildEvidenceBundle(const EvidenceSources& sources) {
  const ContractState& state = *sources.state;
  boost::json::array audit;
  for (const auto& entry : sources.audit_entries) {
    boost::system::error_code ec;
    auto value = boost::json::parse(entry, ec);
    if (ec) return Fail(ErrorCode::kCorruption, "an audit-trail entry is not JSON");
    audit.push_back(std::move(value));
  }
  boost::json::array documents;
  for (const auto& doc : DocumentsOf(state)) {
    // A document whose bytes are gone is still listed (as missing): the bundle says what the
    // events recorded, and its verification fails on that document by name.
    auto bytes = sources.blobs->Get(doc.sha256);
    if (!bytes && bytes.error().code != ErrorCode::kNotFound) return std::unexpected(bytes.error());
    boost::json::object item{{"kind", doc.kind}, {"sha256", doc.sha256}};
    if (bytes) {
      item["size"] = bytes->size();
    } else {
      item["missing"] = true;
    }
    if (doc.revision > 0) item["revision"] = doc.revision;
    documents.push_back(std::move(item));
  }
  return boost::json::object{
      {"format", kEvidenceBundleFormat},
      {"contractId", state.id},
      {"generatedAt", sources.generated_at},
      {"status", ToString(state.status)},
      {"version", state.version},
      {"auditTrail", std::move(audit)},
      {"documents", std::move(documents)},
      {"ledger", sources.ledger_proof},
      {"serviceCertificatePem", sources.certificate_pem},
  };
}

bool IsEvidenceBundle(const boost::json::value& value) {
  const auto* object = value.if_object();
  const auto* format = object ? object->if_contains("format") : nullptr;
  return format != nullptr && format->is_string() && format->as_string() == kEvidenceBundleFormat;
}

std::vector<EvidenceCheck> VerifyEvidenceBundle(const boost::json::object& bundle,
                                                const eventstore::BlobStore* blobs,
                                                std::string_view trusted_public_key_pem,
                                                std::string_view trusted_certificate_pem) {
  std::vector<EvidenceCheck> checks;
  checks.push_back({"format", IsEvidenceBundle(bundle), std::string(kEvidenceBundleFormat)});
  const auto* ledger = bundle.if_contains("ledger");
  if (!ledger) {
    checks.push_back({"ledger", false, "missing"});
  } else {
    auto report = eventstore::VerifyProofBundle(*ledger, trusted_public_key_pem);
    if (!report) {
      checks.push_back({"ledger", false, report.error().message});
    } else {
      for (const auto& c : report->checks) checks.push_back({"ledger." + c.name, c.ok, c.detail});
    }
  }
  if (!trusted_certificate_pem.empty()) {
    const auto* pem = bundle.if_contains("serviceCertificatePem");
    checks.push_back({"serviceCertificate",
                      pem && pem->is_string() && pem->as_string() == trusted_certificate_pem,
                      "the bundle names the service's signing certificate"});
  }
  const auto* documents = bundle.if_contains("documents");
  if (blobs == nullptr) return checks;
  if (documents && documents->is_array()) {
    const auto& items = documents->as_array();
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string label = DocumentLabel(items[i], i);
      const std::string name = label + ".sha256";
      const auto* sha = items[i].is_object() ? items[i].as_object().if_contains("sha256") : nullptr;
      if (!sha || !sha->is_string()) {
        checks.push_back({name, false, "missing"});
        continue;
      }
      const std::string expected(sha->as_string());
      auto bytes = blobs->Get(expected);
      if (!bytes) {
        checks.push_back({name, false, "no stored document with this hash"});
        continue;
      }
      const std::string actual = Sha256Hex(*bytes);
      std::string detail = "stored bytes match";
      if (actual != expected) {
        detail = "stored bytes hash to " + actual;
        detail += ", not " + expected;
      }
      checks.push_back({name, actual == expected, std::move(detail)});
      // The signatures are checked on the bytes as stored, so a change is also located.
      if (items[i].as_object().if_contains("kind") &&
          items[i].as_object().at("kind") == "signed_pdf") {
        CheckSignedPdf(label, *bytes, trusted_certificate_pem, checks);
      }
    }
  } else {
    checks.push_back({"documents", false, "missing"});
  }
  return checks;
}

boost::json::object VerificationReport(std::string_view contract_id,
                                       const std::vector<EvidenceCheck>& checks,
                                       std::string_view verified_at) {
  boost::json::array items;
  bool all = !checks.empty();
  for (const auto& c : checks) {
    all = all && c.ok;
    items.push_back(boost::json::object{{"name", c.name},
                                        {"passed", c.ok},
                                        {"result", c.ok ? "pass" : "fail"},
                                        {"detail", c.detail}});
  }
  boost::json::object report{{"contractId", contract_id}};
  if (!verified_at.empty()) report["verifiedAt"] = verified_at;
  report["valid"] = all;
  report["verdict"] = all ? "pass" : "fail";
  report["checks"] = std::move(items);
  return report;
}

}  // namespace esign
