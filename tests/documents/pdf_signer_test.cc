#include "documents/pdf_signer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "documents/service_certificate.h"

namespace esign::documents {
namespace {

// A two-page PDF with text, classic xref table, offsets computed as it is written.
std::string MinimalPdf() {
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R "
      "/Resources << /Font << /F1 6 0 R >> >> >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R "
      "/Resources << /Font << /F1 6 0 R >> >> >>",
      "",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  };
  const std::string text = "BT /F1 24 Tf 72 720 Td (Service agreement) Tj ET";
  objects[4] = "<< /Length " + std::to_string(text.size()) + " >>\nstream\n" + text + "\nendstream";
  std::string pdf = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const size_t offset : offsets) {
    char entry[32];
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", offset);
    pdf += entry;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

class PdfSignerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pdf_signer_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    auto cert = ServiceCertificate::CreateEphemeral();
    ASSERT_TRUE(cert.has_value()) << cert.error().message;
    cert_ = std::move(*cert);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
  }
  static std::string Run(const std::string& command) {
    std::string output;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return output;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    ::pclose(pipe);
    return output;
  }
  static size_t Count(const std::string& haystack, const std::string& needle) {
    size_t count = 0;
    for (size_t at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + 1)) {
      ++count;
    }
    return count;
  }

  std::filesystem::path dir_;
  std::unique_ptr<ServiceCertificate> cert_;
};

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
