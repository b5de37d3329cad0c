// PAdES B-T and B-LT: seals timestamped by a real RFC 3161 authority on loopback (tsa_server.mjs),
// checked by CheckPdfSignatures and by independent tools: pdfsig, qpdf --check, openssl cms and
// openssl ts -verify on the token taken out of the CMS; and the fallback to B-B when the
// authority fails.
#include <gtest/gtest.h>
#include <openssl/cms.h>
#include <openssl/x509.h>

#include <regex>
#include <string>

#include "base/hex.h"
#include "documents/contract_sealer.h"
#include "documents/openssl_handles.h"
#include "documents/pdf_signature_check.h"
#include "documents/pdf_signer.h"
#include "documents/timestamp_authority.h"
#include "tests/documents/pdf_fixtures.h"
#include "tests/documents/pdf_test_support.h"
#include "tests/support/test_tsa.h"

namespace esign::documents {
namespace {

using esign::testing::RefusingUrl;
using esign::testing::TestTsa;

// The CMS of the last signature: the /Contents hex string its /ByteRange leaves out.
std::string LastCms(const std::string& pdf) {
  const size_t at = pdf.rfind("/Contents <");
  const size_t end = pdf.find('>', at);
  const std::optional<std::string> der = FromHex(pdf.substr(at + 11, end - at - 11));
  return der.value_or("");
}

// The signature value and the timestamp token of a CMS's one signer, as DER/raw bytes.
struct Stamped {
  std::string signature;
  std::string token;
};
Stamped TokenOf(const std::string& cms_der) {
  const auto* p = reinterpret_cast<const unsigned char*>(cms_der.data());
  CmsPtr cms(d2i_CMS_ContentInfo(nullptr, &p, static_cast<long>(cms_der.size())));
  if (cms == nullptr) return {};
  CMS_SignerInfo* si = sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms.get()), 0);
  const ASN1_OCTET_STRING* value = CMS_SignerInfo_get0_signature(si);
  Stamped out{std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value)),
                          static_cast<size_t>(ASN1_STRING_length(value))),
              ""};
  const int at = CMS_unsigned_get_attr_by_NID(si, NID_id_smime_aa_timeStampToken, -1);
  if (at < 0) return out;
  const ASN1_TYPE* token = X509_ATTRIBUTE_get0_type(CMS_unsigned_get_attr(si, at), 0);
  out.token.assign(reinterpret_cast<const char*>(ASN1_STRING_get0_data(token->value.sequence)),
                   static_cast<size_t>(ASN1_STRING_length(token->value.sequence)));
  return out;
}

class PdfTimestampTest : public PdfCertificateTest {
 protected:
  void SetUp() override {
    PdfCertificateTest::SetUp();
    auto authority = TimestampAuthority::Create({.url = tsa_.Url(), .ca_file = tsa_.CaFile()});
    ASSERT_TRUE(authority.has_value()) << authority.error().message;
    authority_ = std::move(*authority);
  }

  TestTsa tsa_;
  std::unique_ptr<TimestampAuthority> authority_;
};

TEST_F(PdfTimestampTest, ATimestampedSealIsBltAndEveryToolAgrees) {
  const std::string original = MinimalPdf();
  auto signed_pdf = SignPdf(original, *cert_, {.timestamp_authority = authority_.get()});
  ASSERT_TRUE(signed_pdf.has_value()) << signed_pdf.error().message;
  EXPECT_EQ(signed_pdf->substr(0, original.size()), original);
  const std::string path = Write("stamped.pdf", *signed_pdf);

  const std::string check = Run("qpdf --check " + path);
  EXPECT_NE(check.find("No syntax or stream encoding errors"), std::string::npos) << check;
  const std::string sig = Run("pdfsig " + path);
  EXPECT_EQ(Count(sig, "Signature Validation: Signature is Valid."), 1u) << sig;
  EXPECT_NE(sig.find("Total document signed"), std::string::npos) << sig;

  // Our own check names the timestamp, anchored to the authority's CA.
  auto results = CheckPdfSignatures(*signed_pdf, cert_->CertificatePem(), tsa_.CaPem());
  ASSERT_TRUE(results.has_value()) << results.error().message;
  ASSERT_EQ(results->size(), 1u);
  EXPECT_TRUE((*results)[0].valid) << (*results)[0].error;
  EXPECT_TRUE((*results)[0].covers_whole_document);
  EXPECT_FALSE((*results)[0].timestamp_time.empty());
  EXPECT_EQ((*results)[0].timestamp_authority, "CN=Test Time Stamping Authority,O=Test Trust");

  // openssl cms sees the unsigned attribute; openssl ts verifies the token over the signature.
  const std::string cms_path = Write("seal.p7s", LastCms(*signed_pdf));
  const std::string printed = Run("openssl cms -cmsout -print -inform DER -in " + cms_path);
  EXPECT_NE(printed.find("id-smime-aa-timeStampToken"), std::string::npos) << printed;
  const Stamped stamped = TokenOf(LastCms(*signed_pdf));
  ASSERT_FALSE(stamped.token.empty());
  const std::string token_path = Write("token.der", stamped.token);
  const std::string verified =
      Run("openssl ts -verify -digest " + ToHex(DigestBytes(Sha256(stamped.signature))) +
          " -token_in -in " + token_path + " -CAfile " + tsa_.CaFile());
  EXPECT_NE(verified.find("Verification: OK"), std::string::npos) << verified;

  // The document security store of the same revision holds the service's and the TSA's
  // certificates, each readable as DER by openssl.
  std::smatch dss;
  ASSERT_TRUE(std::regex_search(*signed_pdf, dss, std::regex(R"(/DSS (\d+) 0 R)")));
  const std::string store = Run("qpdf --show-object=" + dss[1].str() + " " + path);
  std::smatch certs;
  ASSERT_TRUE(std::regex_search(store, certs, std::regex(R"(/Certs \[ ?((\d+ 0 R ?)+)\])")))
      << store;
  std::string subjects;
  const std::string refs = certs[1].str();
  const std::regex ref(R"((\d+) 0 R)");
  for (std::sregex_iterator it(refs.begin(), refs.end(), ref), end; it != end; ++it) {
    subjects += Run("qpdf --show-object=" + (*it)[1].str() + " --raw-stream-data " + path +
                    " | openssl x509 -inform DER -noout -subject");
  }
  EXPECT_NE(subjects.find("CN = Contract Signing Service"), std::string::npos) << subjects;
  EXPECT_NE(subjects.find("CN = Test Time Stamping Authority"), std::string::npos) << subjects;
  EXPECT_NE(subjects.find("CN = Test Time Stamping Root"), std::string::npos) << subjects;
}

TEST_F(PdfTimestampTest, AChangedTokenFailsTheSignatureByNameThoughTheCmsStillVerifies) {
  auto signed_pdf = SignPdf(MinimalPdf(), *cert_, {.timestamp_authority = authority_.get()});
  ASSERT_TRUE(signed_pdf.has_value()) << signed_pdf.error().message;
  const Stamped stamped = TokenOf(LastCms(*signed_pdf));
  const std::string token_hex = ToHex(stamped.token);
  std::string upper = token_hex;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const size_t at = signed_pdf->find(upper);
  ASSERT_NE(at, std::string::npos);
  std::string tampered = *signed_pdf;
  char& digit = tampered[at + upper.size() - 8];  // inside the token's own signature value
  digit = digit == '0' ? '1' : '0';

  auto results = CheckPdfSignatures(tampered);
  ASSERT_TRUE(results.has_value()) << results.error().message;
  ASSERT_EQ(results->size(), 1u);
  EXPECT_FALSE((*results)[0].valid);
  EXPECT_NE((*results)[0].error.find("the signature timestamp fails"), std::string::npos)
      << (*results)[0].error;
  EXPECT_TRUE((*results)[0].timestamp_time.empty());

  // Another authority's CA as the anchor fails the timestamp too.
  const TestTsa other;
  auto foreign = CheckPdfSignatures(*signed_pdf, {}, other.CaPem());
  ASSERT_TRUE(foreign.has_value());
  EXPECT_FALSE((*foreign)[0].valid);
}

TEST_F(PdfTimestampTest, SigningAgainKeepsTheStoreAndBothTimestamps) {
  auto first = SignPdf(MinimalPdf(), *cert_, {.timestamp_authority = authority_.get()});
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto second = SignPdf(*first, *cert_, {.timestamp_authority = authority_.get()});
  ASSERT_TRUE(second.has_value()) << second.error().message;
  auto results = CheckPdfSignatures(*second, {}, tsa_.CaPem());
  ASSERT_TRUE(results.has_value());
  ASSERT_EQ(results->size(), 2u);
  for (const auto& result : *results) {
    EXPECT_TRUE(result.valid) << result.error;
    EXPECT_FALSE(result.timestamp_time.empty());
  }
  EXPECT_TRUE(UnmodifiedSinceLastSignature(*results));
  const std::string path = Write("twice.pdf", *second);
  EXPECT_NE(Run("qpdf --check " + path).find("No syntax or stream encoding errors"),
            std::string::npos);
  EXPECT_EQ(Count(Run("pdfsig " + path), "Signature is Valid."), 2u);
}

TEST_F(PdfTimestampTest, WithoutAuthorityTheSealIsBbAsBefore) {
  auto plain = SignPdf(MinimalPdf(), *cert_);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->find("/DSS"), std::string::npos);
  EXPECT_TRUE(TokenOf(LastCms(*plain)).token.empty());
  EXPECT_EQ(tsa_.Served(), 0u);
}

TEST_F(PdfTimestampTest, AnAuthorityDownFailsSignPdfAndTheSealerFallsBackToBb) {
  auto down = TimestampAuthority::Create({.url = RefusingUrl()});
  ASSERT_TRUE(down.has_value());
  auto refused = SignPdf(MinimalPdf(), *cert_, {.timestamp_authority = down->get()});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kUnavailable);

  const Template tmpl = pdf_test::LoadTemplate("services-agreement.json");
  const ContractState state = pdf_test::ServicesState(tmpl, 1);
  for (const char* mode : {"garbage", "reject"}) {
    tsa_.SetMode(mode);
    auto fresh = TimestampAuthority::Create({.url = tsa_.Url()});  // nothing learnt yet
    ASSERT_TRUE(fresh.has_value());
    auto sealed = SealContractPdf(tmpl, tmpl.versions.front(), state, {}, *cert_,
                                  {.timestamp_authority = fresh->get()});
    ASSERT_TRUE(sealed.has_value()) << sealed.error().message;
    EXPECT_EQ(sealed->pdf.find("/DSS"), std::string::npos) << mode;
    auto results = CheckPdfSignatures(sealed->pdf);
    ASSERT_TRUE(results.has_value());
    ASSERT_EQ(results->size(), 1u);
    EXPECT_TRUE((*results)[0].valid) << (*results)[0].error;
    EXPECT_TRUE((*results)[0].timestamp_time.empty()) << mode;
  }
  // An authority that gave its certificates but no token for the seal itself: still B-B.
  tsa_.SetMode("ok");
  ASSERT_TRUE(authority_->Certificates().has_value());
  tsa_.SetMode("garbage");
  auto sealed = SealContractPdf(tmpl, tmpl.versions.front(), state, {}, *cert_,
                                {.timestamp_authority = authority_.get()});
  ASSERT_TRUE(sealed.has_value()) << sealed.error().message;
  EXPECT_EQ(sealed->pdf.find("/DSS"), std::string::npos);
  EXPECT_TRUE(TokenOf(LastCms(sealed->pdf)).token.empty());
}

}  // namespace
}  // namespace esign::documents
