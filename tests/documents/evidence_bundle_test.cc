// The evidence bundle and its verification report over a contract with a frozen unsigned PDF and
// a signed PDF revision (signed twice with SignPdf): every document and every PDF signature gets
// a check named after it, and a changed stored byte fails the checks of that document only.
#include "documents/evidence_bundle.h"
#include "domain/stream_kinds.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "base/sha256.h"
#include "documents/pdf_signer.h"
#include "eventstore/domain_events.h"
#include "eventstore/memory_event_store.h"
#include "eventstore/merkle.h"
#include "eventstore/proof_bundle.h"
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
  void Remove(const std::string& key) { blobs_.erase(key); }
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
    ASSERT_TRUE(store_->Append(ContractStreamId("ctr_1"), eventstore::ExpectedVersion::Any(),
                               {eventstore::NewEvent{"evt_1", "contract.created", 1, "{}"}}));
    ASSERT_TRUE(store_->ledger().SignTreeHead());

    unsigned_pdf_ = documents::MinimalPdf();
    auto once = documents::SignPdf(unsigned_pdf_, *cert_, {.reason = "First"});
    ASSERT_TRUE(once.has_value());
    first_revision_size_ = once->size();
    auto twice = documents::SignPdf(*once, *cert_, {.reason = "Second"});
    ASSERT_TRUE(twice.has_value());
    state_.id = "ctr_1";
    state_.version = 1;
    state_.status = ContractStatus::kCompleted;
    state_.rendered_document_sha256 = *blobs_.Put(unsigned_pdf_);
    signed_sha_ = *blobs_.Put(*twice);
    state_.signed_pdf_key = signed_sha_;
    state_.artifact_revisions.push_back({2, "signed_pdf", signed_sha_, "2026-11-21T08:00:00Z"});
  }

  boost::json::object Bundle() {
    auto proof = eventstore::BuildProofBundle(*store_, ContractStreamId("ctr_1"));
    EXPECT_TRUE(proof.has_value());
    EvidenceSources sources;
    sources.state = &state_;
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
  ContractState state_;
  std::string unsigned_pdf_;
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
  blobs_.Change(*state_.rendered_document_sha256, "Service agreement");
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
  blobs_.Remove(*state_.rendered_document_sha256);
  const auto bundle = Bundle();
  const auto& documents = bundle.at("documents").as_array();
  ASSERT_EQ(documents.size(), 2u);
  EXPECT_EQ(documents.at(0).at("missing"), true);
  EXPECT_FALSE(documents.at(0).as_object().contains("size"));
  const auto report = Report(bundle);
  EXPECT_EQ(report.at("valid"), false);
  EXPECT_EQ(Failed(report), std::vector<std::string>{"documents.rendered_unsigned.sha256"});
}

TEST_F(EvidenceBundleTest, ASignedPdfWithoutSignaturesOrByAnotherSignerFails) {
  // A "signed" revision that is the unsigned PDF: no signature at all.
  state_.artifact_revisions.push_back({3, "signed_pdf", *state_.rendered_document_sha256, ""});
  auto other = documents::ServiceCertificate::CreateEphemeral();
  ASSERT_TRUE(other.has_value());
  auto foreign = documents::SignPdf(unsigned_pdf_, **other);
  ASSERT_TRUE(foreign.has_value());
  state_.artifact_revisions.push_back({4, "signed_pdf", *blobs_.Put(*foreign), ""});
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
  state_.artifact_revisions.push_back({3, "signed_pdf", *blobs_.Put("not a PDF"), ""});
  auto bundle = Bundle();
  // An entry that does not say its kind is named by its index.
  bundle.at("documents").as_array().at(0).as_object().erase("kind");
  auto report = Report(bundle);
  auto outcomes = Outcomes(report);
  ASSERT_TRUE(outcomes.contains("documents[0].sha256")) << boost::json::serialize(report);
  EXPECT_TRUE(outcomes.at("documents[0].sha256"));
  EXPECT_EQ(Failed(report), std::vector<std::string>{"documents.revision[3].signed_pdf.signatures"})
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

}  // namespace
}  // namespace esign
