#include "documents/pdf_signer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "documents/service_certificate.h"
#include "tests/documents/pdf_test_support.h"

namespace esign::documents {
namespace {

using PdfSignerTest = PdfCertificateTest;

TEST_F(PdfSignerTest, SignedPdfIsAnIncrementalUpdateThatQpdfAndPdfsigAccept) {
  const std::string original = MinimalPdf();
  auto signed_pdf = SignPdf(original, *cert_, {.reason = "Contract executed – ünïcode"});
  ASSERT_TRUE(signed_pdf.has_value()) << signed_pdf.error().message;
  EXPECT_EQ(signed_pdf->substr(0, original.size()), original);
  EXPECT_NE(signed_pdf->find("/SubFilter /ETSI.CAdES.detached"), std::string::npos);
  EXPECT_NE(signed_pdf->find("/SigFlags 3"), std::string::npos);

  const std::string path = Write("signed.pdf", *signed_pdf);
  const std::string check = Run("qpdf --check " + path);
  EXPECT_NE(check.find("No syntax or stream encoding errors"), std::string::npos) << check;
  const std::string sig = Run("pdfsig " + path);
  EXPECT_EQ(Count(sig, "Signature Validation: Signature is Valid."), 1u) << sig;
  EXPECT_NE(sig.find("Total document signed"), std::string::npos) << sig;
  EXPECT_NE(sig.find("Contract Signing Service"), std::string::npos) << sig;
  EXPECT_NE(sig.find("ETSI.CAdES.detached"), std::string::npos) << sig;
}

TEST_F(PdfSignerTest, TamperingInsideTheSignedRangeInvalidatesTheSignature) {
  auto signed_pdf = SignPdf(MinimalPdf(), *cert_);
  ASSERT_TRUE(signed_pdf.has_value()) << signed_pdf.error().message;
  std::string tampered = *signed_pdf;
  const size_t at = tampered.find("Service agreement");
  ASSERT_NE(at, std::string::npos);
  tampered[at] = 'X';  // same length: the ByteRange still describes the file
  const std::string sig = Run("pdfsig " + Write("tampered.pdf", tampered));
  EXPECT_EQ(sig.find("Signature is Valid."), std::string::npos) << sig;
  EXPECT_NE(sig.find("Signature Validation:"), std::string::npos) << sig;
}

TEST_F(PdfSignerTest, SigningTwiceKeepsBothSignaturesValid) {
  const std::string original = MinimalPdf();
  auto first = SignPdf(original, *cert_, {.reason = "First (of two)"});
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto second = SignPdf(*first, *cert_, {.reason = "Second"});
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_EQ(second->substr(0, first->size()), *first);
  EXPECT_NE(second->find("/T (Signature2)"), std::string::npos);

  const std::string path = Write("twice.pdf", *second);
  const std::string check = Run("qpdf --check " + path);
  EXPECT_NE(check.find("No syntax or stream encoding errors"), std::string::npos) << check;
  const std::string sig = Run("pdfsig " + path);
  EXPECT_EQ(Count(sig, "Signature Validation: Signature is Valid."), 2u) << sig;
  EXPECT_EQ(Count(sig, "Total document signed"), 1u) << sig;
  EXPECT_NE(sig.find("Signature #2"), std::string::npos) << sig;
}

TEST_F(PdfSignerTest, SignsAPdfWhoseOriginalUsesAnXrefStream) {
  const std::string plain = Write("plain.pdf", MinimalPdf());
  const std::string streamed = (dir_ / "streamed.pdf").string();
  Run("qpdf --object-streams=generate " + plain + " " + streamed);
  const std::string original = Read(streamed);
  ASSERT_NE(original.find("/XRef"), std::string::npos);
  auto signed_pdf = SignPdf(original, *cert_);
  ASSERT_TRUE(signed_pdf.has_value()) << signed_pdf.error().message;
  const std::string path = Write("signed.pdf", *signed_pdf);
  const std::string check = Run("qpdf --check " + path);
  EXPECT_NE(check.find("No syntax or stream encoding errors"), std::string::npos) << check;
  const std::string sig = Run("pdfsig " + path);
  EXPECT_EQ(Count(sig, "Signature Validation: Signature is Valid."), 1u) << sig;
  EXPECT_NE(sig.find("Total document signed"), std::string::npos) << sig;
}

TEST_F(PdfSignerTest, RejectsWhatIsNotAPdf) {
  auto result = SignPdf("hello", *cert_);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kValidationFailed);
}

TEST_F(PdfSignerTest, CertificateIsCreatedOnceWithMode0600AndReloaded) {
  const std::string data = (dir_ / "data").string();
  auto created = ServiceCertificate::OpenOrCreate(data);
  ASSERT_TRUE(created.has_value()) << created.error().message;
  struct stat info {};
  ASSERT_EQ(::stat((data + "/service-signing.pem").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  auto reloaded = ServiceCertificate::OpenOrCreate(data);
  ASSERT_TRUE(reloaded.has_value()) << reloaded.error().message;
  EXPECT_EQ((*created)->CertificatePem(), (*reloaded)->CertificatePem());
  EXPECT_NE((*created)->CertificatePem(), cert_->CertificatePem());

  const std::string pem = Write("cert.pem", (*created)->CertificatePem());
  const std::string text = Run("openssl x509 -noout -text -in " + pem);
  EXPECT_NE(text.find("CN = Contract Signing Service"), std::string::npos) << text;
  EXPECT_NE(text.find("Digital Signature, Non Repudiation"), std::string::npos) << text;
  EXPECT_NE(text.find("prime256v1"), std::string::npos) << text;
}

}  // namespace
}  // namespace esign::documents
