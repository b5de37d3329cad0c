#include "documents/pdf_signature_check.h"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "base/openssl_text.h"
#include "base/time_text.h"
#include "base/timestamp_token.h"
#include "documents/openssl_handles.h"
#include "documents/qpdf_reader.h"

namespace esign::documents {
namespace {

// Field trees deeper than this are refused rather than followed (a loop in /Kids ends here too).
constexpr int kMaxFieldDepth = 32;

struct FoundSignature {
  std::string field_name;
  qpdf_oh dictionary = 0;  // the signature dictionary (the field's /V)
};

// The AcroForm's signature fields, depth first, with their full names ("parent.child").
class SignatureFields {
 public:
  explicit SignatureFields(const QpdfReader& reader) : reader_(reader), q_(reader.get()) {}

  std::vector<FoundSignature> Find() {
    const qpdf_oh root = qpdf_oh_get_key(q_, qpdf_get_trailer(q_), "/Root");
    const qpdf_oh acroform = qpdf_oh_get_key(q_, root, "/AcroForm");
    for (const qpdf_oh field : reader_.Items(qpdf_oh_get_key(q_, acroform, "/Fields"))) {
      Visit(field, "", false, 0);
    }
    return std::move(found_);
  }

 private:
  void Visit(qpdf_oh field, const std::string& parent_name, bool parent_is_sig, int depth) {
    if (depth > kMaxFieldDepth || qpdf_oh_is_dictionary(q_, field) == QPDF_FALSE) return;
    if (qpdf_oh_is_indirect(q_, field) != QPDF_FALSE &&
        !visited_.insert(qpdf_oh_get_object_id(q_, field)).second) {
      return;
    }
    std::string name = parent_name;
    const qpdf_oh title = qpdf_oh_get_key(q_, field, "/T");
    if (qpdf_oh_is_string(q_, title) != QPDF_FALSE) {
      name += (name.empty() ? "" : ".") + std::string(qpdf_oh_get_utf8_value(q_, title));
    }
    // /FT is inheritable: a kid without one has its parent's type.
    const qpdf_oh type = qpdf_oh_get_key(q_, field, "/FT");
    const bool is_sig = qpdf_oh_is_name(q_, type) != QPDF_FALSE
                            ? qpdf_oh_is_name_and_equals(q_, type, "/Sig") != QPDF_FALSE
                            : parent_is_sig;
    const qpdf_oh value = qpdf_oh_get_key(q_, field, "/V");
    if (is_sig && qpdf_oh_is_dictionary(q_, value) != QPDF_FALSE) {
      found_.push_back({name, value});
      return;  // the kids of a signed field are its widgets
    }
    for (const qpdf_oh kid : reader_.Items(qpdf_oh_get_key(q_, field, "/Kids"))) {
      Visit(kid, name, is_sig, depth + 1);
    }
  }

  const QpdfReader& reader_;
  qpdf_data q_;
  std::set<int> visited_;
  std::vector<FoundSignature> found_;
};

bool IsPdfWhitespace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The bytes of a PDF hex string "<...>" (whitespace ignored, an odd last digit padded with 0);
// nullopt when `text` is not exactly one hex string.
std::optional<std::string> DecodeHexString(std::string_view text) {
  if (text.size() < 2 || text.front() != '<' || text.back() != '>') return std::nullopt;
  std::string out;
  int high = -1;
  for (const char c : text.substr(1, text.size() - 2)) {
    if (IsPdfWhitespace(c)) continue;
    const int value = HexValue(c);
    if (value < 0) return std::nullopt;
    if (high < 0) {
      high = value;
    } else {
      out.push_back(static_cast<char>((high << 4) | value));
      high = -1;
    }
  }
  if (high >= 0) out.push_back(static_cast<char>(high << 4));
  return out;
}

Result<X509Ptr> ParseCertificate(std::string_view pem) {
  const BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  X509Ptr certificate(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (certificate == nullptr) {
    ERR_clear_error();
    return Fail(ErrorCode::kValidationFailed, "the trusted certificate is not a PEM certificate");
  }
  return certificate;
}

// The signature timestamp of a signer info, if it has one: the token must be over the signature
// value. Fills the timestamp fields of `result`; the failure, if any.
std::optional<std::string> CheckSignatureTimestamp(CMS_SignerInfo* si, std::string_view tsa_ca_pem,
                                                   PdfSignatureResult& result) {
  const int at = CMS_unsigned_get_attr_by_NID(si, NID_id_smime_aa_timeStampToken, -1);
  if (at < 0) return std::nullopt;
  X509_ATTRIBUTE* attribute = CMS_unsigned_get_attr(si, at);
  const ASN1_TYPE* value = X509_ATTRIBUTE_get0_type(attribute, 0);
  if (X509_ATTRIBUTE_count(attribute) != 1 || value == nullptr || value->type != V_ASN1_SEQUENCE) {
    return "the signature timestamp attribute does not hold one token";
  }
  const ASN1_OCTET_STRING* signature = CMS_SignerInfo_get0_signature(si);
  const auto token = VerifyTimestampToken(
      std::string_view(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value->value.sequence)),
                       static_cast<size_t>(ASN1_STRING_length(value->value.sequence))),
      Sha256(std::string_view(reinterpret_cast<const char*>(ASN1_STRING_get0_data(signature)),
                              static_cast<size_t>(ASN1_STRING_length(signature)))),
      tsa_ca_pem);
  if (!token) return "the signature timestamp fails: " + token.error();
  result.timestamp_time = FormatTimestamp(token->gen_time_micros);
  result.timestamp_authority = token->tsa_subject;
  return std::nullopt;
}

// The checks of one signature dictionary; fills `result` and returns the first failure, if any.
std::optional<std::string> CheckSignature(const QpdfReader& reader, qpdf_oh signature,
                                          std::string_view pdf, X509* trusted,
                                          std::string_view tsa_ca_pem, PdfSignatureResult& result) {
  qpdf_data q = reader.get();
  const qpdf_oh time = qpdf_oh_get_key(q, signature, "/M");
  if (qpdf_oh_is_string(q, time) != QPDF_FALSE)
    result.signing_time = qpdf_oh_get_utf8_value(q, time);

  const std::vector<qpdf_oh> range = reader.Items(qpdf_oh_get_key(q, signature, "/ByteRange"));
  if (range.size() != 4 || !std::all_of(range.begin(), range.end(), [&](qpdf_oh item) {
        return qpdf_oh_is_integer(q, item) != QPDF_FALSE;
      })) {
    return "/ByteRange is not four integers";
  }
  for (size_t i = 0; i < 4; ++i) result.byte_range[i] = qpdf_oh_get_int_value(q, range[i]);
  const auto [start, first_length, second_start, second_length] = result.byte_range;
  const auto size = static_cast<int64_t>(pdf.size());
  if (start != 0 || first_length <= 0 || second_start <= first_length || second_length < 0 ||
      second_start > size || second_length > size - second_start) {
    return "/ByteRange does not describe two ranges of the file starting at its first byte";
  }
  result.covers_whole_document = second_start + second_length == size;

  const qpdf_oh contents_handle = qpdf_oh_get_key(q, signature, "/Contents");
  if (qpdf_oh_is_string(q, contents_handle) == QPDF_FALSE) return "/Contents is not a string";
  size_t contents_length = 0;
  const char* contents_bytes =
      qpdf_oh_get_binary_string_value(q, contents_handle, &contents_length);
  const std::string contents(contents_bytes, contents_length);
  const std::optional<std::string> gap = DecodeHexString(pdf.substr(
      static_cast<size_t>(first_length), static_cast<size_t>(second_start - first_length)));
  if (!gap || *gap != contents) {
    return "the bytes /ByteRange leaves out are not exactly this signature's /Contents";
  }

  const qpdf_oh sub_filter = qpdf_oh_get_key(q, signature, "/SubFilter");
  if (qpdf_oh_is_name_and_equals(q, sub_filter, "/ETSI.CAdES.detached") == QPDF_FALSE &&
      qpdf_oh_is_name_and_equals(q, sub_filter, "/adbe.pkcs7.detached") == QPDF_FALSE) {
    return "unsupported /SubFilter " + reader.Unparse(sub_filter);
  }
  const auto* der = reinterpret_cast<const unsigned char*>(contents.data());
  const unsigned char* end = der;
  CmsPtr cms(d2i_CMS_ContentInfo(nullptr, &end, static_cast<long>(contents.size())));
  if (cms == nullptr) {
    ERR_clear_error();
    return "/Contents is not a DER CMS SignedData";
  }
  // Nothing but the zero padding of the reserved space may follow the CMS: any other byte there
  // would be a change no signature covers.
  const std::string_view padding(reinterpret_cast<const char*>(end),
                                 contents.size() - static_cast<size_t>(end - der));
  if (padding.find_first_not_of('\0') != std::string_view::npos) {
    return "/Contents holds bytes after the CMS SignedData";
  }
  STACK_OF(CMS_SignerInfo)* signers = CMS_get0_SignerInfos(cms.get());
  if (signers == nullptr || sk_CMS_SignerInfo_num(signers) != 1) {
    return "the CMS SignedData does not have exactly one signer";
  }
  X509* signer = nullptr;
  CMS_set1_signers_certs(cms.get(), nullptr, 0);
  CMS_SignerInfo_get0_algs(sk_CMS_SignerInfo_value(signers, 0), nullptr, &signer, nullptr, nullptr);
  ERR_clear_error();
  if (signer == nullptr) return "the CMS SignedData does not carry its signer's certificate";
  result.signer_subject = SubjectRfc2253(signer);

  std::string signed_bytes(pdf.substr(0, static_cast<size_t>(first_length)));
  signed_bytes.append(
      pdf.substr(static_cast<size_t>(second_start), static_cast<size_t>(second_length)));
  const BioPtr data(BIO_new_mem_buf(signed_bytes.data(), static_cast<int>(signed_bytes.size())));
  constexpr unsigned kFlags = CMS_DETACHED | CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY;
  if (data == nullptr ||
      CMS_verify(cms.get(), nullptr, nullptr, data.get(), nullptr, kFlags) != 1) {
    return "the CMS signature does not verify over the signed bytes (" + TakeOpenSslError() + ")";
  }
  if (trusted != nullptr && X509_cmp(signer, trusted) != 0) {
    return "signed with a certificate other than the trusted one (" + result.signer_subject + ")";
  }
  return CheckSignatureTimestamp(sk_CMS_SignerInfo_value(signers, 0), tsa_ca_pem, result);
}

}  // namespace

Result<std::vector<PdfSignatureResult>> CheckPdfSignatures(std::string_view pdf,
                                                           std::string_view trusted_certificate_pem,
                                                           std::string_view trusted_tsa_ca_pem) {
  X509Ptr trusted;
  if (!trusted_certificate_pem.empty()) {
    Result<X509Ptr> parsed = ParseCertificate(trusted_certificate_pem);
    if (!parsed) return Fail(std::move(parsed.error()));
    trusted = std::move(*parsed);
  }
  QpdfReader reader;
  if (!reader.Read(pdf)) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + reader.ErrorText());
  }
  std::vector<PdfSignatureResult> results;
  for (FoundSignature& found : SignatureFields(reader).Find()) {
    PdfSignatureResult result;
    result.field_name = std::move(found.field_name);
    std::optional<std::string> failure =
        CheckSignature(reader, found.dictionary, pdf, trusted.get(), trusted_tsa_ca_pem, result);
    result.valid = !failure.has_value();
    if (failure) result.error = std::move(*failure);
    results.push_back(std::move(result));
  }
  if (reader.Failed()) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + reader.ErrorText());
  }
  std::stable_sort(results.begin(), results.end(),
                   [](const PdfSignatureResult& a, const PdfSignatureResult& b) {
                     return a.byte_range[2] + a.byte_range[3] < b.byte_range[2] + b.byte_range[3];
                   });
  return results;
}

bool UnmodifiedSinceLastSignature(const std::vector<PdfSignatureResult>& signatures) {
  return !signatures.empty() && signatures.back().covers_whole_document &&
         std::all_of(signatures.begin(), signatures.end(),
                     [](const PdfSignatureResult& s) { return s.valid; });
}

}  // namespace esign::documents
