// CheckPdfSignatures on PDFs signed by SignPdf, then changed; every verdict is cross-checked with
// poppler's pdfsig, an independent implementation.
#include "documents/pdf_signature_check.h"

#include <gtest/gtest.h>

#include <string>

#include "documents/pdf_renderer.h"
#include "documents/pdf_signer.h"
#include "documents/service_certificate.h"
#include "tests/documents/pdf_test_support.h"

namespace esign::documents {
namespace {

class PdfSignatureCheckTest : public PdfCertificateTest {
 protected:
  std::string Signed(const std::string& pdf, const std::string& reason) {
    auto signed_pdf = SignPdf(pdf, *cert_, {.reason = reason});
    EXPECT_TRUE(signed_pdf.has_value()) << signed_pdf.error().message;
    return signed_pdf.value_or("");
  }
  std::vector<PdfSignatureResult> Check(const std::string& pdf, std::string_view trusted = {}) {
    auto results = CheckPdfSignatures(pdf, trusted);
    EXPECT_TRUE(results.has_value()) << results.error().message;
    return results.value_or(std::vector<PdfSignatureResult>{});
  }
  std::string Pdfsig(const std::string& name, const std::string& pdf) {
    return Run("pdfsig " + Write(name, pdf));
  }
  // `pdf` with the first byte of `marker` (searched from `from`) changed.
  static std::string ChangedAt(std::string pdf, const std::string& marker, size_t from = 0) {
    const size_t at = pdf.find(marker, from);
    EXPECT_NE(at, std::string::npos) << marker;
    if (at != std::string::npos) pdf[at] = static_cast<char>(pdf[at] ^ 0x20);
    return pdf;
  }
};

TEST_F(PdfSignatureCheckTest, OneSignatureByTheServicePasses) {
  const std::string pdf = Signed(MinimalPdf(), "Contract executed");
  const auto results = Check(pdf, cert_->CertificatePem());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].field_name, "Signature1");
  EXPECT_EQ(results[0].signer_subject, "CN=Contract Signing Service");
  EXPECT_TRUE(results[0].covers_whole_document);
  EXPECT_TRUE(results[0].valid) << results[0].error;
  EXPECT_TRUE(results[0].error.empty());
  EXPECT_TRUE(results[0].signing_time.starts_with("D:")) << results[0].signing_time;
  EXPECT_EQ(results[0].byte_range[0], 0);
  EXPECT_EQ(results[0].byte_range[2] + results[0].byte_range[3], static_cast<int64_t>(pdf.size()));
  EXPECT_TRUE(UnmodifiedSinceLastSignature(results));

  const std::string sig = Pdfsig("one.pdf", pdf);
  EXPECT_EQ(Count(sig, "Signature is Valid."), 1u) << sig;
  EXPECT_EQ(Count(sig, "Total document signed"), 1u) << sig;
}

TEST_F(PdfSignatureCheckTest, TwoSignaturesPassAndOnlyTheLastCoversTheWholeDocument) {
  const std::string pdf = Signed(Signed(MinimalPdf(), "First"), "Second");
  const auto results = Check(pdf, cert_->CertificatePem());
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].field_name, "Signature1");
  EXPECT_EQ(results[1].field_name, "Signature2");
  EXPECT_TRUE(results[0].valid) << results[0].error;
  EXPECT_TRUE(results[1].valid) << results[1].error;
  EXPECT_FALSE(results[0].covers_whole_document);
  EXPECT_TRUE(results[1].covers_whole_document);
  EXPECT_TRUE(UnmodifiedSinceLastSignature(results));

  const std::string sig = Pdfsig("two.pdf", pdf);
  EXPECT_EQ(Count(sig, "Signature is Valid."), 2u) << sig;
  EXPECT_EQ(Count(sig, "Total document signed"), 1u) << sig;
  EXPECT_EQ(Count(sig, "Not total document signed"), 1u) << sig;
}

TEST_F(PdfSignatureCheckTest, AChangedByteInsideASignedRangeFailsThatSignatureByName) {
  const std::string once = Signed(MinimalPdf(), "First");
  const std::string twice = Signed(once, "Second");

  // In the second revision only: the first signature still holds, the second one fails.
  const std::string late = ChangedAt(twice, "Second)", once.size());
  auto results = Check(late);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].valid) << results[0].error;
  EXPECT_FALSE(results[1].valid);
  EXPECT_EQ(results[1].field_name, "Signature2");
  EXPECT_NE(results[1].error.find("does not verify"), std::string::npos) << results[1].error;
  EXPECT_FALSE(UnmodifiedSinceLastSignature(results));
  std::string sig = Pdfsig("late.pdf", late);
  EXPECT_EQ(Count(sig, "Signature is Valid."), 1u) << sig;
  EXPECT_LT(sig.find("Signature is Valid."), sig.find("Signature #2")) << sig;

  // In the original content: both signatures cover it, both fail.
  const std::string early = ChangedAt(twice, "Service agreement");
  results = Check(early);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].valid);
  EXPECT_FALSE(results[1].valid);
  sig = Pdfsig("early.pdf", early);
  EXPECT_EQ(Count(sig, "Signature is Valid."), 0u) << sig;
  EXPECT_EQ(Count(sig, "Signature Validation:"), 2u) << sig;
}

TEST_F(PdfSignatureCheckTest, AnAppendedByteMeansTheLastSignatureNoLongerCoversTheDocument) {
  const std::string pdf = Signed(MinimalPdf(), "Contract executed") + " ";
  const auto results = Check(pdf);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].covers_whole_document);
  EXPECT_TRUE(results[0].valid) << results[0].error;  // what it covers is intact
  EXPECT_FALSE(UnmodifiedSinceLastSignature(results));
  const std::string sig = Pdfsig("appended.pdf", pdf);
  EXPECT_EQ(Count(sig, "Not total document signed"), 1u) << sig;
}

TEST_F(PdfSignatureCheckTest, AChangedByteInTheContentsPaddingOrByteRangeIsCaught) {
  const std::string pdf = Signed(MinimalPdf(), "Contract executed");
  // The last hex digits of /Contents are the zero padding after the DER.
  const size_t contents_end = pdf.find("> /M (");
  ASSERT_NE(contents_end, std::string::npos);
  std::string padded = pdf;
  padded[contents_end - 1] = '1';
  auto results = Check(padded);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].valid);
  EXPECT_NE(results[0].error.find("after the CMS"), std::string::npos) << results[0].error;

  // A /ByteRange that leaves out more than /Contents.
  std::string widened = pdf;
  const size_t range = widened.find("/ByteRange [0 ") + 14;
  widened[range] = static_cast<char>(widened[range] - 1);
  results = Check(widened);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].valid);
  EXPECT_NE(results[0].error.find("/Contents"), std::string::npos) << results[0].error;
}

TEST_F(PdfSignatureCheckTest, AByteRangeBeyondTheFileOrAnUnknownSubFilterIsNamed) {
  const std::string pdf = Signed(MinimalPdf(), "Contract executed");
  // The second range's length, the last number of /ByteRange, made larger than the file: the
  // spaces that pad it to its fixed width become digits, so no offset moves.
  std::string beyond = pdf;
  const size_t range_end = beyond.find(']', beyond.find("/ByteRange ["));
  ASSERT_NE(range_end, std::string::npos);
  const size_t last_digit = beyond.find_last_of("0123456789", range_end);
  ASSERT_LT(last_digit + 1, range_end);
  for (size_t at = last_digit + 1; at < range_end; ++at) beyond[at] = '9';
  auto results = Check(beyond);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].valid);
  EXPECT_NE(results[0].error.find("/ByteRange does not describe"), std::string::npos)
      << results[0].error;

  results = Check(ChangedAt(pdf, "detached"));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].valid);
  EXPECT_NE(results[0].error.find("unsupported /SubFilter"), std::string::npos) << results[0].error;
}

TEST_F(PdfSignatureCheckTest, AnotherSignerFailsAgainstTheTrustedCertificate) {
  auto other = ServiceCertificate::CreateEphemeral();
  ASSERT_TRUE(other.has_value());
  const std::string pdf = Signed(MinimalPdf(), "Contract executed");
  const auto results = Check(pdf, (*other)->CertificatePem());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].valid);
  EXPECT_NE(results[0].error.find("other than the trusted"), std::string::npos) << results[0].error;
  auto untrusted = CheckPdfSignatures(pdf, "not a certificate");
  ASSERT_FALSE(untrusted.has_value());
  EXPECT_EQ(untrusted.error().code, ErrorCode::kValidationFailed);
}

TEST_F(PdfSignatureCheckTest, ARenderedContractSignedByTheServicePasses) {
  const Template tmpl = pdf_test::LoadTemplate("services-agreement.json");
  auto rendered = RenderContractPdf(tmpl, tmpl.versions.front(), pdf_test::ServicesState(tmpl, 40));
  ASSERT_TRUE(rendered.has_value()) << rendered.error().message;
  const std::string pdf = Signed(*rendered, "Contract executed");
  const auto results = Check(pdf, cert_->CertificatePem());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].valid) << results[0].error;
  EXPECT_TRUE(UnmodifiedSinceLastSignature(results));
  const std::string sig = Pdfsig("rendered.pdf", pdf);
  EXPECT_EQ(Count(sig, "Total document signed"), 1u) << sig;

  const auto changed = Check(ChangedAt(pdf, "/Producer"));
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_FALSE(changed[0].valid);
}

TEST_F(PdfSignatureCheckTest, APdfWithoutSignaturesHasNone) {
  const auto results = Check(MinimalPdf());
  EXPECT_TRUE(results.empty());
  EXPECT_FALSE(UnmodifiedSinceLastSignature(results));
  const std::string sig = Pdfsig("plain.pdf", MinimalPdf());
  EXPECT_NE(sig.find("does not contain any signatures"), std::string::npos) << sig;

  auto unreadable = CheckPdfSignatures("hello");
  ASSERT_FALSE(unreadable.has_value());
  EXPECT_EQ(unreadable.error().code, ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::documents
