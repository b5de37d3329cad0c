// What the documents tests share: a small hand-written PDF, files in a per-test directory, and
// the command-line tools (qpdf, pdfsig) run on them with their output captured.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "documents/service_certificate.h"
#include "tests/documents/pdf_fixtures.h"

namespace esign::documents {

// A stream object holding `data` as it is.
inline std::string StreamObject(const std::string& data, const std::string& entries = "") {
  return "<< /Length " + std::to_string(data.size()) + " " + entries + ">>\nstream\n" + data +
         "\nendstream";
}

// A PDF of the given objects (numbered from 1, object 1 the catalog), classic xref table, offsets
// computed as it is written; `trailer` is added to the trailer dictionary. An object written
// "<entries> STREAM:<data>" is a stream of those bytes with those dictionary entries.
inline std::string WritePdf(const std::vector<std::string>& objects,
                            const std::string& trailer = "") {
  std::string pdf = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    std::string body = objects[i];
    if (const size_t at = body.find("STREAM:"); at != std::string::npos) {
      std::string entries = body.substr(0, at);
      while (!entries.empty() && entries.back() == ' ') entries.pop_back();
      body = StreamObject(body.substr(at + 7), entries.empty() ? "" : entries + " ");
    }
    pdf += std::to_string(i + 1) + " 0 obj\n" + body + "\nendobj\n";
  }
  const size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const size_t offset : offsets) {
    char entry[32];
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", offset);
    pdf += entry;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R " + trailer +
         ">>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

// A two-page PDF with text.
inline std::string MinimalPdf() {
  return WritePdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R "
      "/Resources << /Font << /F1 6 0 R >> >> >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R "
      "/Resources << /Font << /F1 6 0 R >> >> >>",
      StreamObject("BT /F1 24 Tf 72 720 Td (Service agreement) Tj ET"),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  });
}

// A committed PDF of tests/fixtures/documents (described in its README.md).
inline std::string DocumentFixture(const std::string& name) {
  std::ifstream in(std::string(ESIGN_DOCUMENT_FIXTURES_DIR) + "/" + name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A directory of its own for each test, removed afterwards.
class PdfFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pdf_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
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
  // The command's stdout and stderr together.
  static std::string Run(const std::string& command) { return pdf_test::Run(command).out; }
  static size_t Count(const std::string& haystack, const std::string& needle) {
    return pdf_test::Count(haystack, needle);
  }

  std::filesystem::path dir_;
};

// With a fresh in-memory signing identity as well.
class PdfCertificateTest : public PdfFilesTest {
 protected:
  void SetUp() override {
    PdfFilesTest::SetUp();
    auto cert = ServiceCertificate::CreateEphemeral();
    ASSERT_TRUE(cert.has_value()) << cert.error().message;
    cert_ = std::move(*cert);
  }

  std::unique_ptr<ServiceCertificate> cert_;
};

}  // namespace esign::documents
