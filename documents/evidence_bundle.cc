#include "documents/evidence_bundle.h"

#include <algorithm>

#include "base/json_difference.h"
#include "base/json_read.h"
#include "base/sha256.h"
#include "documents/pdf_signature_check.h"
#include "documents/proven_contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/proof_bundle.h"

namespace esign {
namespace {

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
                    std::string_view trusted_certificate_pem, std::string_view trusted_tsa_ca_pem,
                    std::vector<EvidenceCheck>& checks) {
  auto signatures = documents::CheckPdfSignatures(pdf, trusted_certificate_pem, trusted_tsa_ca_pem);
  if (!signatures) {
    checks.push_back({label + ".signatures", false, signatures.error().message});
    return;
  }
  for (const auto& s : *signatures) {
    std::string detail = s.error;
    if (s.valid) {
      detail = "valid, signed by " + s.signer_subject;
      if (!s.signing_time.empty()) detail += " at " + s.signing_time;
      if (!s.timestamp_time.empty()) {
        detail += ", timestamped " + s.timestamp_time + " by " + s.timestamp_authority;
      }
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

constexpr std::string_view kMembers[] = {
    "format",     "contractId", "status", "version",
    "auditTrail", "documents",  "ledger", "serviceCertificatePem",
    "unproven",   "fieldValues"};

// What signers entered, as the proven records give it: [{fieldId, participantId, value}] in
// field order.
boost::json::array EnteredValues(const ContractState& state) {
  boost::json::array values;
  for (const PlacedField& field : state.fields) {
    if (!field.filled_by_signer() || field.value.is_null()) continue;
    values.push_back(boost::json::object{{"fieldId", field.field_id},
                                         {"participantId", field.participant_id},
                                         {"value", field.value}});
  }
  return values;
}

// A JSON value in a check's detail, cut short: a report names the difference, it need not
// repeat a signature image.
std::string Shown(const boost::json::value* value) {
  if (value == nullptr) return "nothing";
  std::string text = boost::json::serialize(*value);
  constexpr size_t kMaxShown = 160;
  if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...";
  return text;
}

// One failed check per member where `shown` differs from what the records say (`proven`), named
// "<name>.<member>"; one passed check "<name>" when they are equal.
void CompareWithRecords(const std::string& name, const boost::json::value& shown,
                        const boost::json::object& proven, std::string passed_detail,
                        std::vector<EvidenceCheck>& checks) {
  if (!shown.is_object()) {
    checks.push_back(
        {name, false, "not an object; the proven record says " + boost::json::serialize(proven)});
    return;
  }
  const boost::json::object& object = shown.get_object();
  bool equal = true;
  auto compare = [&](std::string_view key) {
    const boost::json::value* given = object.if_contains(key);
    const boost::json::value* expected = proven.if_contains(key);
    if (given != nullptr && expected != nullptr && *given == *expected) return;
    equal = false;
    const std::string member = name + "." + std::string(key);
    checks.push_back({member, false,
                      DescribeJsonDifference(member, given, expected, "the bundle shows",
                                             "the proven record says")});
  };
  for (const auto& member : proven) compare(member.key());
  for (const auto& member : object) {
    if (!proven.contains(member.key())) compare(member.key());
  }
  if (equal) checks.push_back({name, true, std::move(passed_detail)});
}

// The array `name` of the bundle against the entries the records give: its length ("<name>"),
// then each entry ("<name>[i]", or "<name>[i].<member>" for each member that differs).
void CompareList(const boost::json::object& bundle, const std::string& name,
                 const boost::json::array& proven, std::string_view proven_what,
                 std::vector<EvidenceCheck>& checks) {
  const boost::json::array* shown = ArrayMember(bundle, name);
  const size_t shown_size = shown ? shown->size() : 0;
  checks.push_back({name, shown != nullptr && shown_size == proven.size(),
                    std::to_string(shown_size) + " shown, " + std::to_string(proven.size()) + " " +
                        std::string(proven_what)});
  for (size_t i = 0; shown != nullptr && i < std::min(shown_size, proven.size()); ++i) {
    const boost::json::object& expected = proven[i].get_object();
    const boost::json::value* type = expected.if_contains("type");
    CompareWithRecords(
        name + "[" + std::to_string(i) + "]", (*shown)[i], expected,
        type ? "equals the proven record (" + Shown(type) + ")" : "equals what the records say",
        checks);
  }
}

// status, version, the audit trail and the document list against what the records replay to.
void CheckShownParts(const boost::json::object& bundle, const documents::ProvenContract& proven,
                     std::vector<EvidenceCheck>& checks) {
  const std::string status(ToString(proven.state.status));
  const boost::json::value* shown_status = bundle.if_contains("status");
  checks.push_back(
      {"status", shown_status != nullptr && *shown_status == boost::json::value(status),
       "the bundle shows " + Shown(shown_status) + ", the records replay to \"" + status + "\""});
  const boost::json::value* shown_version = bundle.if_contains("version");
  checks.push_back(
      {"version",
       shown_version != nullptr && *shown_version == boost::json::value(proven.state.version),
       "the bundle shows " + Shown(shown_version) + ", the records replay to " +
           std::to_string(proven.state.version)});

  CompareList(bundle, "auditTrail", proven.audit_trail, "proven records", checks);
  boost::json::array recorded;
  for (const auto& document : proven.documents) recorded.push_back(document.ToJson());
  CompareList(bundle, "documents", recorded, "recorded by the events", checks);
  // Bundles from before signers entered values have none to show.
  const boost::json::array values = EnteredValues(proven.state);
  if (!values.empty() || bundle.contains("fieldValues")) {
    CompareList(bundle, "fieldValues", values, "entered in the proven records", checks);
  }
}

// "unproven" may hold only what the builder puts there; the report says it is not proven.
void CheckUnproven(const boost::json::object& bundle, std::vector<EvidenceCheck>& checks) {
  const boost::json::value* unproven = bundle.if_contains("unproven");
  if (unproven == nullptr) return;
  const boost::json::object* object = unproven->if_object();
  bool well_formed = object != nullptr;
  for (size_t i = 0; object != nullptr && i < object->size(); ++i) {
    const auto& member = object->begin()[i];
    if (member.key() == "generatedAt" && member.value().is_string()) continue;
    if (member.key() == "storedDocuments" && member.value().is_array()) continue;
    well_formed = false;
  }
  if (!well_formed) {
    checks.push_back({"unproven", false,
                      "holds something other than generatedAt (a string) and storedDocuments (an "
                      "array)"});
    return;
  }
  checks.push_back({"unproven.generatedAt", false,
                    "when the service says it generated the bundle; no record proves it", true});
  checks.push_back({"unproven.storedDocuments", false,
                    "the sizes of the stored bytes as the service read them; the documents' "
                    "hashes are proven, their sizes are not",
                    true});
}

}  // namespace

Result<boost::json::object> BuildEvidenceBundle(const EvidenceSources& sources) {
  // Everything shown is what the proven records say, so a verifier recomputes it exactly.
  documents::ProvenContract proven = documents::ReadProvenContract(sources.ledger_proof);
  boost::json::array listed;
  boost::json::array stored;
  for (const auto& doc : proven.documents) {
    listed.push_back(doc.ToJson());
    // A document whose bytes are gone is still listed: the bundle says what the events recorded,
    // and its verification fails on that document by name.
    auto bytes = sources.blobs->Get(doc.sha256);
    if (!bytes && bytes.error().code != ErrorCode::kNotFound) return std::unexpected(bytes.error());
    boost::json::object item{{"sha256", doc.sha256}};
    if (bytes) {
      item["size"] = bytes->size();
    } else {
      item["missing"] = true;
    }
    stored.push_back(std::move(item));
  }
  return boost::json::object{
      {"format", kEvidenceBundleFormat},
      {"contractId", sources.contract_id},
      {"status", ToString(proven.state.status)},
      {"version", proven.state.version},
      {"auditTrail", std::move(proven.audit_trail)},
      {"documents", std::move(listed)},
      {"fieldValues", EnteredValues(proven.state)},
      {"ledger", sources.ledger_proof},
      {"serviceCertificatePem", sources.certificate_pem},
      {"unproven", boost::json::object{{"generatedAt", sources.generated_at},
                                       {"storedDocuments", std::move(stored)}}},
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
                                                std::string_view trusted_certificate_pem,
                                                std::string_view trusted_tsa_ca_pem) {
  std::vector<EvidenceCheck> checks;
  const auto* format = bundle.if_contains("format");
  checks.push_back({"format", IsEvidenceBundle(bundle),
                    "the bundle says " + Shown(format) + "; this verifier reads " +
                        std::string(kEvidenceBundleFormat)});
  for (const auto& member : bundle) {
    if (std::find(std::begin(kMembers), std::end(kMembers), member.key()) == std::end(kMembers)) {
      checks.push_back(
          {std::string(member.key()), false, "not part of " + std::string(kEvidenceBundleFormat)});
    }
  }
  const auto* ledger = bundle.if_contains("ledger");
  if (!ledger) {
    checks.push_back({"ledger", false, "missing"});
  } else {
    auto report =
        eventstore::VerifyProofBundle(*ledger, trusted_public_key_pem, trusted_tsa_ca_pem);
    if (!report) {
      checks.push_back({"ledger", false, report.error().message});
    } else {
      for (const auto& c : report->checks) checks.push_back({"ledger." + c.name, c.ok, c.detail});
    }
  }
  // The contract the records are of: the proof bundle's stream.
  const std::optional<std::string_view> contract_id = StringMember(bundle, "contractId");
  std::string stream_id = "(none)";
  if (ledger != nullptr && ledger->is_object()) {
    if (const auto id = StringMember(ledger->get_object(), "streamId")) stream_id = *id;
  }
  checks.push_back({"contractId", contract_id && ContractStreamId(*contract_id) == stream_id,
                    "the records are of stream " + stream_id});
  static const boost::json::value kNoRecords;
  CheckShownParts(bundle, documents::ReadProvenContract(ledger ? *ledger : kNoRecords), checks);
  const auto* pem = bundle.if_contains("serviceCertificatePem");
  if (!trusted_certificate_pem.empty()) {
    checks.push_back({"serviceCertificate",
                      pem && pem->is_string() && pem->as_string() == trusted_certificate_pem,
                      "the bundle names the service's signing certificate"});
  } else if (pem == nullptr || !pem->is_string()) {
    checks.push_back({"serviceCertificate", false, "serviceCertificatePem missing or not text"});
  } else {
    checks.push_back({"serviceCertificatePem", false,
                      "no trusted certificate was given: the one the bundle carries is shown, "
                      "not proven",
                      true});
  }
  CheckUnproven(bundle, checks);
  const auto* documents = bundle.if_contains("documents");
  if (blobs == nullptr) {
    checks.push_back({"documents.bytes", false,
                      "the stored documents were not at hand: their hashes are proven, the bytes "
                      "are not checked",
                      true});
    return checks;
  }
  std::vector<std::pair<std::string, std::string>> contents;  // signed_content: label, bytes
  std::vector<std::string> signed_pdfs;
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
      const auto* kind = items[i].as_object().if_contains("kind");
      if (kind != nullptr && *kind == "signed_pdf") {
        CheckSignedPdf(label, *bytes, trusted_certificate_pem, trusted_tsa_ca_pem, checks);
        signed_pdfs.push_back(std::move(*bytes));
      } else if (kind != nullptr && *kind == "signed_content") {
        contents.emplace_back(label, std::move(*bytes));
      }
    }
  } else {
    checks.push_back({"documents", false, "missing"});
  }
  // The signed contract pages the certificate hashes are the sealed PDF's first bytes.
  for (const auto& [label, content] : contents) {
    const bool prefix = std::any_of(signed_pdfs.begin(), signed_pdfs.end(), [&](const auto& pdf) {
      return pdf.size() > content.size() && pdf.starts_with(content);
    });
    checks.push_back({label + ".prefix", prefix,
                      prefix ? "the signed PDF's first " + std::to_string(content.size()) + " bytes"
                             : "no signed PDF begins with these bytes"});
  }
  return checks;
}

boost::json::object VerificationReport(std::string_view contract_id,
                                       const std::vector<EvidenceCheck>& checks,
                                       std::string_view verified_at) {
  boost::json::array items;
  boost::json::array unproven;
  bool all_passed = true;
  for (const auto& c : checks) {
    if (c.unproven) {
      unproven.push_back(boost::json::object{{"name", c.name}, {"detail", c.detail}});
      continue;
    }
    all_passed = all_passed && c.ok;
    items.push_back(boost::json::object{{"name", c.name},
                                        {"passed", c.ok},
                                        {"result", c.ok ? "pass" : "fail"},
                                        {"detail", c.detail}});
  }
  boost::json::object report{{"contractId", contract_id}};
  if (!verified_at.empty()) report["verifiedAt"] = verified_at;
  const bool valid = all_passed && !items.empty();
  report["valid"] = valid;
  report["verdict"] = valid ? "pass" : "fail";
  report["checks"] = std::move(items);
  if (!unproven.empty()) report["unproven"] = std::move(unproven);
  return report;
}

}  // namespace esign
