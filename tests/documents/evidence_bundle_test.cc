// The evidence bundle and its verification report over a contract with a frozen unsigned PDF and
// a signed PDF revision (signed twice with SignPdf): every document and every PDF signature gets
// a check named after it, a changed stored byte fails the checks of that document only, and a
// changed byte anywhere in the bundle but its unproven part fails by name.
#include "documents/evidence_bundle.h"
#include "domain/stream_kinds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "base/sha256.h"
#include "documents/pdf_signer.h"
#include "eventstore/domain_events.h"
#include "eventstore/memory_event_store.h"
#include "eventstore/merkle.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/tree_head.h"
#include "tests/documents/pdf_test_support.h"

namespace esign {
namespace {

// Blobs whose stored bytes a test can change in place, as a disk could.
class ChangeableBlobs final : public eventstore::BlobStore {
 public:
  Result<std::string> Put(std::string_view bytes) override {
    std::string key = Sha256Hex(bytes);
    blobs_[key] = std::string(bytes);
    return key;
  }
  Result<std::string> Get(std::string_view sha256_hex) const override {
    auto it = blobs_.find(std::string(sha256_hex));
    if (it == blobs_.end()) return Fail(ErrorCode::kNotFound, "no blob");
    return it->second;
  }
  Result<bool> Contains(std::string_view sha256_hex) const override {
    return blobs_.contains(std::string(sha256_hex));
  }
  Status Delete(std::string_view sha256_hex) override {
    blobs_.erase(std::string(sha256_hex));
    return {};
  }
  // Flips one bit of the first occurrence of `marker` (from `from`) in the blob `key`.
  void Change(const std::string& key, const std::string& marker, size_t from = 0) {
    std::string& bytes = blobs_.at(key);
    const size_t at = bytes.find(marker, from);
    ASSERT_NE(at, std::string::npos) << marker;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x20);
  }

 private:
  std::map<std::string, std::string> blobs_;
};

class EvidenceBundleTest : public documents::PdfCertificateTest {
 protected:
  void SetUp() override {
    PdfCertificateTest::SetUp();
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store.has_value());
    store_ = std::move(*store);
    unsigned_pdf_ = documents::MinimalPdf();
    auto once = documents::SignPdf(unsigned_pdf_, *cert_, {.reason = "First"});
    ASSERT_TRUE(once.has_value());
    first_revision_size_ = once->size();
    auto twice = documents::SignPdf(*once, *cert_, {.reason = "Second"});
    ASSERT_TRUE(twice.has_value());
    unsigned_sha_ = *blobs_.Put(unsigned_pdf_);
    signed_sha_ = *blobs_.Put(*twice);
    Record("contract.created", {{"contractId", "ctr_1"}, {"title", "Service agreement"}},
           "203.0.113.7");
    Record("contract.prepared",
           {{"renderedDocumentSha256", unsigned_sha_}, {"preparedAt", "2026-11-21T07:00:00Z"}});
    RecordSignedPdf(signed_sha_, 2);
  }

  // Appends an event of contract ctr_1 as client cli_1 from `ip`.
  void Record(std::string type, boost::json::object data, std::string ip = "198.51.100.1") {
    const uint64_t n = store_->Size() + 1;
    eventstore::NewEvent event{"evt_" + std::to_string(n), std::move(type), 1,
                               boost::json::serialize(data)};
    event.actor = {.client_id = "cli_1", .organization_id = "org_1", .ip = std::move(ip)};
    ASSERT_TRUE(store_->Append(ContractStreamId("ctr_1"), eventstore::ExpectedVersion::Any(),
                               {std::move(event)}));
  }
  // A contract.completed recording `sha` as signed PDF revision `revision`.
  void RecordSignedPdf(const std::string& sha, int64_t revision) {
    Record("contract.completed", {{"signedPdfKey", sha},
                                  {"signedPdfSha256", sha},
                                  {"revision", revision},
                                  {"completedAt", "2026-11-21T08:00:00Z"}});
  }

  boost::json::object Bundle() {
    EXPECT_TRUE(store_->ledger().SignTreeHead());
    auto proof = eventstore::BuildProofBundle(*store_, ContractStreamId("ctr_1"));
    EXPECT_TRUE(proof.has_value());
    EvidenceSources sources;
    sources.contract_id = "ctr_1";
    sources.ledger_proof = proof.value_or(boost::json::object{});
    sources.blobs = &blobs_;
    sources.certificate_pem = cert_->CertificatePem();
    sources.generated_at = "2026-11-21T08:30:00Z";
    auto bundle = BuildEvidenceBundle(sources);
    EXPECT_TRUE(bundle.has_value()) << bundle.error().message;
    return bundle.value_or(boost::json::object{});
  }
  boost::json::object Report(const boost::json::object& bundle) {
    const auto checks = VerifyEvidenceBundle(bundle, &blobs_, store_->ledger().PublicKeyPem(),
                                             cert_->CertificatePem());
    return VerificationReport("ctr_1", checks, "2026-11-21T08:30:01Z");
  }
  // name -> passed, for every check of the report.
  static std::map<std::string, bool> Outcomes(const boost::json::object& report) {
    std::map<std::string, bool> out;
    for (const auto& check : report.at("checks").as_array()) {
      out[std::string(check.at("name").as_string())] = check.at("passed").as_bool();
      EXPECT_EQ(check.at("result"), check.at("passed").as_bool() ? "pass" : "fail");
    }
    return out;
  }
  static std::vector<std::string> Failed(const boost::json::object& report) {
    std::vector<std::string> out;
    for (const auto& [name, passed] : Outcomes(report)) {
      if (!passed) out.push_back(name);
    }
    return out;
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  ChangeableBlobs blobs_;
  std::string unsigned_pdf_;
  std::string unsigned_sha_;
  std::string signed_sha_;
  size_t first_revision_size_ = 0;
};

TEST_F(EvidenceBundleTest, EveryDocumentAndEveryPdfSignatureIsCheckedByName) {
  const auto bundle = Bundle();
  ASSERT_EQ(bundle.at("documents").as_array().size(), 2u);  // signedPdfKey is revision 2's blob
  const auto report = Report(bundle);
  EXPECT_EQ(report.at("valid"), true) << boost::json::serialize(report);
  EXPECT_EQ(report.at("verdict"), "pass");
  EXPECT_EQ(report.at("verifiedAt"), "2026-11-21T08:30:01Z");
  const auto outcomes = Outcomes(report);
  for (const std::string name :
       {"documents.rendered_unsigned.sha256", "documents.revision[2].signed_pdf.sha256",
        "documents.revision[2].signed_pdf.signature[Signature1]",
        "documents.revision[2].signed_pdf.signature[Signature2]",
        "documents.revision[2].signed_pdf.unmodified", "serviceCertificate",
        "ledger.treeHead.signature"}) {
    ASSERT_TRUE(outcomes.contains(name)) << name << "\n" << boost::json::serialize(report);
    EXPECT_TRUE(outcomes.at(name)) << name;
  }
}

TEST_F(EvidenceBundleTest, AChangedByteInTheFrozenUnsignedPdfFailsItsCheckOnly) {
  const auto bundle = Bundle();
  blobs_.Change(unsigned_sha_, "Service agreement");
  const auto report = Report(bundle);
  EXPECT_EQ(report.at("valid"), false);
  EXPECT_EQ(report.at("verdict"), "fail");
  EXPECT_EQ(Failed(report), std::vector<std::string>{"documents.rendered_unsigned.sha256"});
}

TEST_F(EvidenceBundleTest, AChangedByteInTheSignedPdfNamesTheSignatureItBreaks) {
  const auto bundle = Bundle();
  blobs_.Change(signed_sha_, "Second)", first_revision_size_);
  const auto report = Report(bundle);
  EXPECT_EQ(report.at("valid"), false);
  EXPECT_EQ(Failed(report),
            (std::vector<std::string>{"documents.revision[2].signed_pdf.sha256",
                                      "documents.revision[2].signed_pdf.signature[Signature2]",
                                      "documents.revision[2].signed_pdf.unmodified"}))
      << boost::json::serialize(report);
}

TEST_F(EvidenceBundleTest, AMissingDocumentIsListedAndFailsItsCheck) {
  blobs_.Delete(unsigned_sha_);
  const auto bundle = Bundle();
  ASSERT_EQ(bundle.at("documents").as_array().size(), 2u);
  const auto& stored = bundle.at("unproven").at("storedDocuments").as_array();
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored.at(0).at("missing"), true);
  EXPECT_FALSE(stored.at(0).as_object().contains("size"));
  const auto report = Report(bundle);
  EXPECT_EQ(report.at("valid"), false);
  EXPECT_EQ(Failed(report), std::vector<std::string>{"documents.rendered_unsigned.sha256"});
}

TEST_F(EvidenceBundleTest, ASignedPdfWithoutSignaturesOrByAnotherSignerFails) {
  // A "signed" revision that is the unsigned PDF: no signature at all.
  RecordSignedPdf(unsigned_sha_, 3);
  auto other = documents::ServiceCertificate::CreateEphemeral();
  ASSERT_TRUE(other.has_value());
  auto foreign = documents::SignPdf(unsigned_pdf_, **other);
  ASSERT_TRUE(foreign.has_value());
  RecordSignedPdf(*blobs_.Put(*foreign), 4);
  const auto report = Report(Bundle());
  EXPECT_EQ(report.at("valid"), false);
  EXPECT_EQ(Failed(report),
            (std::vector<std::string>{"documents.revision[3].signed_pdf.unmodified",
                                      "documents.revision[4].signed_pdf.signature[Signature1]",
                                      "documents.revision[4].signed_pdf.unmodified"}))
      << boost::json::serialize(report);
}

TEST_F(EvidenceBundleTest, AnUnreadableSignedPdfAnotherCertificateAndAnUnnamedEntryAreNamed) {
  // A signed_pdf revision whose bytes QPDF cannot read.
  RecordSignedPdf(*blobs_.Put("not a PDF"), 3);
  auto bundle = Bundle();
  // An entry that does not say its kind is named by its index.
  bundle.at("documents").as_array().at(0).as_object().erase("kind");
  auto report = Report(bundle);
  auto outcomes = Outcomes(report);
  ASSERT_TRUE(outcomes.contains("documents[0].sha256")) << boost::json::serialize(report);
  EXPECT_TRUE(outcomes.at("documents[0].sha256"));
  // The entry no longer equals what the events recorded, and says so by name.
  EXPECT_EQ(Failed(report), (std::vector<std::string>{"documents.revision[3].signed_pdf.signatures",
                                                      "documents[0].kind"}))
      << boost::json::serialize(report);

  // Trusting another certificate: the bundle's no longer matches, nor does any PDF signer.
  auto other = documents::ServiceCertificate::CreateEphemeral();
  ASSERT_TRUE(other.has_value());
  report = VerificationReport(
      "ctr_1", VerifyEvidenceBundle(Bundle(), &blobs_, store_->ledger().PublicKeyPem(),
                                    (*other)->CertificatePem()));
  outcomes = Outcomes(report);
  ASSERT_TRUE(outcomes.contains("serviceCertificate")) << boost::json::serialize(report);
  EXPECT_FALSE(outcomes.at("serviceCertificate"));
  EXPECT_FALSE(outcomes.at("documents.revision[2].signed_pdf.signature[Signature1]"));
  EXPECT_TRUE(outcomes.at("documents.rendered_unsigned.sha256"));
}

// The bundle alone, as an auditor holds it: no stored documents, the service's ledger key.
std::vector<std::string> FailedAlone(const boost::json::object& bundle,
                                     const std::string& trusted_key,
                                     const std::string& trusted_certificate = {}) {
  std::vector<std::string> failed;
  for (const auto& check :
       VerifyEvidenceBundle(bundle, nullptr, trusted_key, trusted_certificate)) {
    if (!check.unproven && !check.ok) failed.push_back(check.name);
  }
  return failed;
}

TEST_F(EvidenceBundleTest, StatusVersionAuditTrailAndDocumentsAreWhatTheRecordsSay) {
  const auto bundle = Bundle();
  EXPECT_EQ(bundle.at("status"), "completed");
  EXPECT_EQ(bundle.at("version").to_number<int64_t>(), 3);
  const auto& trail = bundle.at("auditTrail").as_array();
  ASSERT_EQ(trail.size(), 3u);
  EXPECT_EQ(trail.at(0).at("actor").at("ip"), "203.0.113.7");
  EXPECT_EQ(trail.at(2).at("type"), "contract.completed");
  EXPECT_EQ(trail.at(2).at("details").at("signedPdfSha256").as_string(), signed_sha_);
  const std::string key = store_->ledger().PublicKeyPem();
  EXPECT_EQ(FailedAlone(bundle, key), std::vector<std::string>{});
  const auto report = VerificationReport("ctr_1", VerifyEvidenceBundle(bundle, nullptr, key));
  EXPECT_EQ(report.at("valid"), true) << boost::json::serialize(report);
  // What nothing proves is said, not checked.
  std::vector<std::string> unproven;
  for (const auto& note : report.at("unproven").as_array()) {
    unproven.emplace_back(note.at("name").as_string());
  }
  EXPECT_EQ(unproven, (std::vector<std::string>{"serviceCertificatePem", "unproven.generatedAt",
                                                "unproven.storedDocuments", "documents.bytes"}));
}

TEST_F(EvidenceBundleTest, EachShownPartThatDiffersFromTheRecordsFailsByName) {
  const std::string key = store_->ledger().PublicKeyPem();
  const std::vector<std::pair<std::function<void(boost::json::object&)>, std::string>> edits = {
      {[](auto& b) { b["status"] = "voided"; }, "status"},
      {[](auto& b) { b["version"] = 2; }, "version"},
      {[](auto& b) { b["contractId"] = "ctr_2"; }, "contractId"},
      {[](auto& b) { b["auditTrail"].as_array()[1].as_object()["type"] = "contract.voided"; },
       "auditTrail[1].type"},
      {[](auto& b) {
         b["auditTrail"].as_array()[0].as_object()["recordedAt"] = "2020-01-01T00:00:00Z";
       },
       "auditTrail[0].recordedAt"},
      {[](auto& b) { b["auditTrail"].as_array()[0].as_object()["actor"].as_object()["ip"] = "1"; },
       "auditTrail[0].actor"},
      {[](auto& b) { b["auditTrail"].as_array()[2].as_object().erase("details"); },
       "auditTrail[2].details"},
      {[](auto& b) { b["auditTrail"].as_array()[1].as_object()["note"] = "added"; },
       "auditTrail[1].note"},
      {[](auto& b) { b["auditTrail"].as_array().pop_back(); }, "auditTrail"},
      {[](auto& b) { b["documents"].as_array()[1].as_object()["revision"] = 5; },
       "documents[1].revision"},
      {[](auto& b) { b["documents"].as_array()[0].as_object()["sha256"] = std::string(64, 'a'); },
       "documents[0].sha256"},
      {[](auto& b) { b["documents"].as_array().emplace_back(b["documents"].as_array()[0]); },
       "documents"},
      {[](auto& b) { b["comment"] = "an added claim"; }, "comment"},
      {[](auto& b) { b["ledger"].as_object()["comment"] = "x"; }, "ledger.comment"},
      {[](auto& b) {
         b["ledger"].as_object()["events"].as_array()[0].as_object()["comment"] = "x";
       },
       "ledger.events[0].comment"},
      {[](auto& b) { b["unproven"].as_object()["claim"] = "x"; }, "unproven"},
      {[](auto& b) { b["format"] = "esign-evidence-bundle/1"; }, "format"},
  };
  for (const auto& [edit, name] : edits) {
    auto bundle = Bundle();
    edit(bundle);
    EXPECT_EQ(FailedAlone(bundle, key), std::vector<std::string>{name});
  }
}

TEST_F(EvidenceBundleTest, DuplicatedEventsAnotherTreeSizeAndAnotherKeyAreNamed) {
  const std::string key = store_->ledger().PublicKeyPem();
  auto duplicated = Bundle();
  auto& events = duplicated["ledger"].as_object()["events"].as_array();
  events.insert(events.begin() + 1, events[0]);
  const auto failed = FailedAlone(duplicated, key);
  EXPECT_NE(std::find(failed.begin(), failed.end(), "ledger.events[1].record"), failed.end());

  // The proofs of one head with the signed head of another size.
  auto older = Bundle();
  Record("participant.reminded", {{"participantId", "p1"}});
  auto newer = Bundle();
  older["ledger"].as_object()["treeHead"] = newer["ledger"].at("treeHead");
  EXPECT_EQ(FailedAlone(older, key), (std::vector<std::string>{"ledger.events[0].inclusionProof",
                                                               "ledger.events[1].inclusionProof",
                                                               "ledger.events[2].inclusionProof"}));

  // Another ledger's key and head: not the trusted key, and the head does not verify with it.
  auto other = eventstore::MemoryEventStore::Create();
  ASSERT_TRUE(other.has_value());
  ASSERT_TRUE((*other)->Append("contract-ctr_9", eventstore::ExpectedVersion::Any(),
                               {eventstore::NewEvent{"evt_9", "contract.created", 1, "{}"}}));
  auto other_head = (*other)->ledger().SignTreeHead();
  ASSERT_TRUE(other_head.has_value());
  auto foreign = Bundle();
  foreign["ledger"].as_object()["publicKeyPem"] = (*other)->ledger().PublicKeyPem();
  foreign["ledger"].as_object()["treeHead"] =
      boost::json::parse(eventstore::SerializeTreeHead(*other_head));
  const auto foreign_failed = FailedAlone(foreign, key);
  EXPECT_NE(std::find(foreign_failed.begin(), foreign_failed.end(), "ledger.publicKey"),
            foreign_failed.end());
  EXPECT_NE(std::find(foreign_failed.begin(), foreign_failed.end(), "ledger.treeHead.signature"),
            foreign_failed.end());
}

// One byte changed anywhere in the serialized bundle, at every offset: the bundle no longer parses
// or fails at least one check, unless the byte is in the unproven part; nothing crashes.
TEST_F(EvidenceBundleTest, EveryChangedByteOutsideTheUnprovenPartFails) {
  const std::string key = store_->ledger().PublicKeyPem();
  const std::string text = boost::json::serialize(Bundle());
  const size_t unproven_at = text.find("\"unproven\":");
  ASSERT_NE(unproven_at, std::string::npos);
  size_t passed_outside = 0;
  size_t checked = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    std::string changed = text;
    changed[i] = static_cast<char>(changed[i] ^ 0x01);
    boost::system::error_code ec;
    const auto value = boost::json::parse(changed, ec);
    if (ec || !value.is_object()) continue;
    ++checked;
    const bool failed = !FailedAlone(value.as_object(), key, cert_->CertificatePem()).empty();
    if (!failed && i < unproven_at) {
      ++passed_outside;
      ADD_FAILURE() << "byte " << i << " changed passes: ..."
                    << text.substr(i > 20 ? i - 20 : 0, 40);
    }
  }
  EXPECT_EQ(passed_outside, 0u);
  EXPECT_GT(checked, text.size() / 2);  // most changes still parse: the checks, not JSON, decide
}

}  // namespace
}  // namespace esign
