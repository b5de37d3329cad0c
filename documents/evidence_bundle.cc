#include "documents/evidence_bundle.h"

#include "eventstore/merkle.h"
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
  return out;
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
    auto bytes = sources.blobs->Get(doc.sha256);
    if (!bytes) return std::unexpected(bytes.error());
    boost::json::object item{{"kind", doc.kind}, {"sha256", doc.sha256}, {"size", bytes->size()}};
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

std::vector<EvidenceCheck> VerifyEvidenceBundle(const boost::json::object& bundle,
                                                const eventstore::BlobStore& blobs,
                                                std::string_view trusted_public_key_pem) {
  std::vector<EvidenceCheck> checks;
  const auto* format = bundle.if_contains("format");
  checks.push_back({"format",
                    format && format->is_string() && format->as_string() == kEvidenceBundleFormat,
                    std::string(kEvidenceBundleFormat)});
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
  const auto* documents = bundle.if_contains("documents");
  if (documents && documents->is_array()) {
    const auto& items = documents->as_array();
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string name = "documents[" + std::to_string(i) + "].sha256";
      const auto* sha = items[i].is_object() ? items[i].as_object().if_contains("sha256") : nullptr;
      if (!sha || !sha->is_string()) {
        checks.push_back({name, false, "missing"});
        continue;
      }
      const std::string expected(sha->as_string());
      auto bytes = blobs.Get(expected);
      if (!bytes) {
        checks.push_back({name, false, "no stored document with this hash"});
        continue;
      }
      const std::string actual = eventstore::ToHex(eventstore::Sha256(*bytes));
      checks.push_back(
          {name, actual == expected,
           actual == expected ? "stored bytes match" : "stored bytes hash to " + actual});
    }
  } else {
    checks.push_back({"documents", false, "missing"});
  }
  return checks;
}

boost::json::object VerificationReport(std::string_view contract_id,
                                       const std::vector<EvidenceCheck>& checks) {
  boost::json::array items;
  bool all = !checks.empty();
  for (const auto& c : checks) {
    all = all && c.ok;
    items.push_back(boost::json::object{
        {"name", c.name}, {"result", c.ok ? "pass" : "fail"}, {"detail", c.detail}});
  }
  return boost::json::object{{"contractId", contract_id},
                             {"verdict", all ? "pass" : "fail"},
                             {"checks", std::move(items)}};
}

}  // namespace esign
