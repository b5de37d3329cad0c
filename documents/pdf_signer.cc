#include "documents/pdf_signer.h"

#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "base/sha256.h"
#include "documents/openssl_handles.h"
#include "documents/pdf_incremental_update.h"
#include "documents/qpdf_reader.h"

namespace esign::documents {
namespace {

// Width of each /ByteRange number in the placeholder; 10 digits cover any PDF below 10 GB.
constexpr size_t kByteRangeDigits = 10;
// A timestamp token adds the authority's certificate chain: a few kilobytes with RSA keys.
constexpr size_t kTimestampedContentsCapacity = 16384;

// What the incremental update needs to know about the original file.
struct Layout {
  std::string root_ref;                // "n g R" of the catalog
  int root_id = 0, root_gen = 0;       // catalog object
  std::string catalog_body;            // catalog dictionary without /AcroForm and /DSS
  std::string dss_value;               // the catalog's /DSS as written ("" when none)
  std::string dss_body;                // that store's entries except /Certs
  std::vector<std::string> dss_certs;  // "n g R" of the certificates it holds
  std::string acroform_body;           // AcroForm entries except /Fields and /SigFlags
  std::vector<std::string> fields;     // "n g R" of the existing fields
  std::set<std::string> field_names;
  int page_id = 0, page_gen = 0;
  std::string page_body;            // page 1 dictionary without /Annots
  std::vector<std::string> annots;  // existing annotations of page 1
  std::string trailer_extra;        // /Info and /ID copied from the original trailer
  int size = 0;                     // trailer /Size: first free object number
  long long prev_xref = 0;          // offset of the last xref section
};

Result<Layout> ReadLayout(std::string_view pdf) {
  std::optional<long long> prev = LastStartXref(pdf);
  if (!prev) return Fail(ErrorCode::kValidationFailed, "the PDF has no startxref");
  QpdfReader reader;
  qpdf_data q = reader.get();
  if (!reader.Read(pdf)) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + reader.ErrorText());
  }
  if (qpdf_is_encrypted(q) != QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "an encrypted PDF cannot be signed");
  }
  Layout layout;
  layout.prev_xref = *prev;
  const qpdf_oh trailer = qpdf_get_trailer(q);
  const qpdf_oh root = qpdf_oh_get_key(q, trailer, "/Root");
  if (qpdf_oh_is_indirect(q, root) == QPDF_FALSE || qpdf_oh_is_dictionary(q, root) == QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "the PDF has no catalog");
  }
  layout.root_id = qpdf_oh_get_object_id(q, root);
  layout.root_gen = qpdf_oh_get_generation(q, root);
  layout.root_ref = reader.RefOf(root);
  layout.catalog_body = reader.DictEntries(root, {"/AcroForm", "/DSS"});
  const qpdf_oh dss = qpdf_oh_get_key(q, root, "/DSS");
  if (qpdf_oh_is_dictionary(q, dss) != QPDF_FALSE) {
    layout.dss_value = reader.Unparse(dss);
    layout.dss_body = reader.DictEntries(dss, {"/Certs"});
    layout.dss_certs = reader.RefsOf(qpdf_oh_get_key(q, dss, "/Certs"));
  }
  const qpdf_oh acroform = qpdf_oh_get_key(q, root, "/AcroForm");
  if (qpdf_oh_is_dictionary(q, acroform) != QPDF_FALSE) {
    layout.acroform_body = reader.DictEntries(acroform, {"/Fields", "/SigFlags"});
    const qpdf_oh fields = qpdf_oh_get_key(q, acroform, "/Fields");
    layout.fields = reader.RefsOf(fields);
    for (const qpdf_oh field : reader.Items(fields)) {
      const qpdf_oh title = qpdf_oh_get_key(q, field, "/T");
      if (qpdf_oh_is_string(q, title) != QPDF_FALSE) {
        layout.field_names.insert(qpdf_oh_get_utf8_value(q, title));
      }
    }
  }
  if (qpdf_get_num_pages(q) < 1) return Fail(ErrorCode::kValidationFailed, "the PDF has no page");
  const qpdf_oh page = qpdf_get_page_n(q, 0);
  if (qpdf_oh_is_indirect(q, page) == QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "the PDF has no page object");
  }
  layout.page_id = qpdf_oh_get_object_id(q, page);
  layout.page_gen = qpdf_oh_get_generation(q, page);
  layout.page_body = reader.DictEntries(page, {"/Annots"});
  layout.annots = reader.RefsOf(qpdf_oh_get_key(q, page, "/Annots"));
  layout.trailer_extra =
      reader.DictEntries(trailer, {"/Root", "/Size", "/Prev", "/XRefStm", "/Type", "/W", "/Index",
                                   "/Filter", "/DecodeParms", "/Length", "/Encrypt"});
  const qpdf_oh size = qpdf_oh_get_key(q, trailer, "/Size");
  layout.size =
      qpdf_oh_is_integer(q, size) != QPDF_FALSE ? qpdf_oh_get_int_value_as_int(q, size) : 0;
  if (reader.Failed()) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + reader.ErrorText());
  }
  if (layout.size < 1) return Fail(ErrorCode::kValidationFailed, "the PDF trailer has no /Size");
  return layout;
}

std::string PdfDate(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "D:%Y%m%d%H%M%SZ", &utc);
  return buffer;
}

std::string Padded(size_t value, size_t width) {
  std::string digits = std::to_string(value);
  return digits + std::string(width > digits.size() ? width - digits.size() : 0, ' ');
}

// DER of the signed attributes as a SET OF, which is what the signature covers (RFC 5652 5.4).
Result<std::string> SignedAttributesDer(CMS_SignerInfo* si) {
  std::vector<std::string> encoded;
  for (int i = 0; i < CMS_signed_get_attr_count(si); ++i) {
    X509_ATTRIBUTE* attr = CMS_signed_get_attr(si, i);
    unsigned char* der = nullptr;
    const int length = i2d_X509_ATTRIBUTE(attr, &der);
    if (length <= 0) return Fail(ErrorCode::kInternal, "cannot encode a signed attribute");
    encoded.emplace_back(reinterpret_cast<char*>(der), static_cast<size_t>(length));
    OPENSSL_free(der);
  }
  // DER orders SET OF members by their encodings.
  std::sort(encoded.begin(), encoded.end());
  std::string body;
  for (const std::string& item : encoded) body += item;
  std::string out(1, '\x31');
  if (body.size() < 0x80) {
    out += static_cast<char>(body.size());
  } else {
    std::string length;
    for (size_t n = body.size(); n != 0; n >>= 8) length.insert(0, 1, static_cast<char>(n & 0xFF));
    out += static_cast<char>(0x80 | length.size());
    out += length;
  }
  return out + body;
}

// CMS SignedData, detached, over `content`: SHA-256, content-type, message-digest and ESS
// signing-certificate-v2 as signed attributes. OpenSSL always adds signing-time when it signs, and
// PAdES B-B forbids it, so the attribute is removed afterwards and the signer info signed again.
Result<CmsPtr> CmsSign(std::string_view content, const ServiceCertificate& cert) {
  auto* pkey = static_cast<EVP_PKEY*>(cert.key());
  auto* x509 = static_cast<X509*>(cert.certificate());
  constexpr unsigned kFlags = CMS_DETACHED | CMS_BINARY | CMS_NOSMIMECAP | CMS_PARTIAL | CMS_CADES;
  CmsPtr cms(CMS_sign(nullptr, nullptr, nullptr, nullptr, kFlags));
  if (cms == nullptr) return Fail(ErrorCode::kInternal, "cannot start a CMS SignedData");
  CMS_SignerInfo* si = CMS_add1_signer(cms.get(), x509, pkey, EVP_sha256(), kFlags);
  if (si == nullptr) return Fail(ErrorCode::kInternal, "cannot add the CMS signer");
  BioPtr data(BIO_new_mem_buf(content.data(), static_cast<int>(content.size())));
  if (data == nullptr || CMS_final(cms.get(), data.get(), nullptr, kFlags) != 1) {
    return Fail(ErrorCode::kInternal, "cannot finish the CMS SignedData");
  }
  const int at = CMS_signed_get_attr_by_NID(si, NID_pkcs9_signingTime, -1);
  if (at >= 0) {
    X509_ATTRIBUTE_free(CMS_signed_delete_attr(si, at));
    Result<std::string> attributes = SignedAttributesDer(si);
    if (!attributes) return Fail(std::move(attributes.error()));
    const MdCtxPtr ctx(EVP_MD_CTX_new());
    size_t length = 0;
    if (ctx == nullptr ||
        EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &length,
                       reinterpret_cast<const unsigned char*>(attributes->data()),
                       attributes->size()) != 1) {
      return Fail(ErrorCode::kInternal, "cannot sign the CMS attributes");
    }
    std::string signature(length, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                       reinterpret_cast<const unsigned char*>(attributes->data()),
                       attributes->size()) != 1 ||
        ASN1_STRING_set(CMS_SignerInfo_get0_signature(si), signature.data(),
                        static_cast<int>(length)) != 1) {
      return Fail(ErrorCode::kInternal, "cannot sign the CMS attributes");
    }
  }
  return cms;
}

// PAdES B-T: the token of an RFC 3161 authority over SHA-256 of the signature value, as the
// unsigned attribute id-aa-signatureTimeStampToken (RFC 5126 6.1.1; its value is the token's DER).
Status AddSignatureTimestamp(CMS_ContentInfo* cms, const TimestampAuthority& authority) {
  CMS_SignerInfo* si = sk_CMS_SignerInfo_value(CMS_get0_SignerInfos(cms), 0);
  const ASN1_OCTET_STRING* value = CMS_SignerInfo_get0_signature(si);
  Result<std::string> token = authority.Timestamp(
      Sha256(std::string_view(reinterpret_cast<const char*>(ASN1_STRING_get0_data(value)),
                              static_cast<size_t>(ASN1_STRING_length(value)))));
  if (!token) return Fail(std::move(token.error()));
  if (CMS_unsigned_add1_attr_by_NID(si, NID_id_smime_aa_timeStampToken, V_ASN1_SEQUENCE,
                                    token->data(), static_cast<int>(token->size())) != 1) {
    return Fail(ErrorCode::kInternal, "cannot add the signature timestamp");
  }
  return {};
}

Result<std::string> CmsDer(CMS_ContentInfo* cms) {
  unsigned char* der = nullptr;
  const int length = i2d_CMS_ContentInfo(cms, &der);
  if (length <= 0) return Fail(ErrorCode::kInternal, "cannot encode the CMS SignedData");
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(length));
  OPENSSL_free(der);
  return out;
}

Result<std::string> CertificateDer(const ServiceCertificate& cert) {
  unsigned char* der = nullptr;
  const int length = i2d_X509(static_cast<X509*>(cert.certificate()), &der);
  if (length <= 0) return Fail(ErrorCode::kInternal, "cannot encode the service certificate");
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(length));
  OPENSSL_free(der);
  return out;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    out += kHex[static_cast<unsigned char>(c) >> 4];
    out += kHex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

}  // namespace

Result<std::string> SignPdf(std::string_view pdf, const ServiceCertificate& cert,
                            const SignOptions& options) {
  Result<Layout> read = ReadLayout(pdf);
  if (!read) return Fail(std::move(read.error()));
  const Layout& layout = *read;

  std::string field_name = options.field_name;
  for (int n = 1; field_name.empty() || layout.field_names.contains(field_name); ++n) {
    field_name = "Signature" + std::to_string(n);
  }
  // B-LT: the certificates a validator needs, in a document security store of this update.
  const TimestampAuthority* authority = options.timestamp_authority;
  std::vector<std::string> store_certificates;
  if (authority != nullptr) {
    Result<std::vector<std::string>> tsa_certificates = authority->Certificates();
    if (!tsa_certificates) return Fail(std::move(tsa_certificates.error()));
    Result<std::string> own = CertificateDer(cert);
    if (!own) return Fail(std::move(own.error()));
    store_certificates.push_back(std::move(*own));
    for (std::string& der : *tsa_certificates) store_certificates.push_back(std::move(der));
  }
  const size_t capacity = authority != nullptr
                              ? std::max(options.contents_capacity, kTimestampedContentsCapacity)
                              : options.contents_capacity;
  const int sig_id = layout.size;
  const int widget_id = layout.size + 1;
  const int acroform_id = layout.size + 2;
  const int dss_id = layout.size + 3;  // then one stream per certificate
  const int new_size = layout.size + 3 +
                       (authority != nullptr ? 1 + static_cast<int>(store_certificates.size()) : 0);

  IncrementalUpdate update(pdf);
  std::string& out = update.out();
  auto begin_object = [&](int id, int gen) { update.BeginObject(id, gen); };

  // Signature dictionary; /ByteRange and /Contents are filled in once the offsets are known.
  begin_object(sig_id, 0);
  out += "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [";
  const size_t byte_range_at = out.size();
  const std::string range_placeholder(kByteRangeDigits, ' ');
  out += "0 " + range_placeholder + " " + range_placeholder + " " + range_placeholder + "]";
  out += " /Contents ";
  const size_t contents_at = out.size();
  out += "<" + std::string(capacity * 2, '0') + ">";
  const size_t contents_end = out.size();
  out += " /M (" + PdfDate(options.signing_time) + ") /Reason " + PdfTextString(options.reason) +
         " /Name " + PdfTextString(options.name) + " >>\nendobj\n";

  // Merged field and widget; invisible (empty /Rect), printed and locked.
  begin_object(widget_id, 0);
  out += "<< /Type /Annot /Subtype /Widget /FT /Sig /T " + PdfTextString(field_name) + " /V " +
         Ref(sig_id, 0) + " /P " + Ref(layout.page_id, layout.page_gen) +
         " /Rect [0 0 0 0] /F 132 >>\nendobj\n";

  begin_object(acroform_id, 0);
  out += "<< " + layout.acroform_body + "/Fields [";
  for (const std::string& field : layout.fields) out += field + " ";
  out += Ref(widget_id, 0) + "] /SigFlags 3 >>\nendobj\n";

  std::string dss_entry = layout.dss_value.empty() ? "" : "/DSS " + layout.dss_value + " ";
  if (authority != nullptr) {
    std::string certs;
    for (const std::string& ref : layout.dss_certs) certs += ref + " ";
    for (size_t i = 0; i < store_certificates.size(); ++i) {
      const int id = dss_id + 1 + static_cast<int>(i);
      begin_object(id, 0);
      out += "<< /Length " + std::to_string(store_certificates[i].size()) + " >>\nstream\n" +
             store_certificates[i] + "\nendstream\nendobj\n";
      certs += Ref(id, 0) + " ";
    }
    begin_object(dss_id, 0);
    out += "<< " + layout.dss_body + "/Certs [" + certs + "] >>\nendobj\n";
    dss_entry = "/DSS " + Ref(dss_id, 0) + " ";
  }

  begin_object(layout.root_id, layout.root_gen);
  out += "<< " + layout.catalog_body + dss_entry + "/AcroForm " + Ref(acroform_id, 0) +
         " >>\nendobj\n";

  begin_object(layout.page_id, layout.page_gen);
  out += "<< " + layout.page_body + "/Annots [";
  for (const std::string& annot : layout.annots) out += annot + " ";
  out += Ref(widget_id, 0) + "] >>\nendobj\n";

  std::string signed_file = std::move(update).Finish(
      new_size, "/Root " + layout.root_ref + " " + layout.trailer_extra, layout.prev_xref);

  const std::string ranges = Padded(contents_at, kByteRangeDigits) + " " +
                             Padded(contents_end, kByteRangeDigits) + " " +
                             Padded(signed_file.size() - contents_end, kByteRangeDigits);
  signed_file.replace(byte_range_at + 2, ranges.size(), ranges);

  std::string signed_bytes = signed_file.substr(0, contents_at);
  signed_bytes.append(signed_file, contents_end, std::string::npos);
  Result<CmsPtr> signed_cms = CmsSign(signed_bytes, cert);
  if (!signed_cms) return Fail(std::move(signed_cms.error()));
  if (authority != nullptr) {
    if (Status stamped = AddSignatureTimestamp(signed_cms->get(), *authority); !stamped) {
      return Fail(std::move(stamped.error()));
    }
  }
  Result<std::string> cms = CmsDer(signed_cms->get());
  if (!cms) return Fail(std::move(cms.error()));
  if (cms->size() > capacity) {
    return Fail(ErrorCode::kInternal, "the CMS signature does not fit the reserved /Contents");
  }
  const std::string hex = Hex(*cms);
  signed_file.replace(contents_at + 1, hex.size(), hex);
  return signed_file;
}

}  // namespace esign::documents
