#include "documents/timestamp_authority.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ts.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <utility>

#include "documents/http_fetch.h"
#include "documents/openssl_handles.h"
#include "eventstore/tree_head_timestamp.h"

namespace esign::documents {
namespace {

using TsReqPtr = std::unique_ptr<TS_REQ, OpenSslFree<TS_REQ, TS_REQ_free>>;
using TsRespPtr = std::unique_ptr<TS_RESP, OpenSslFree<TS_RESP, TS_RESP_free>>;
using ImprintPtr =
    std::unique_ptr<TS_MSG_IMPRINT, OpenSslFree<TS_MSG_IMPRINT, TS_MSG_IMPRINT_free>>;
using AlgorPtr = std::unique_ptr<X509_ALGOR, OpenSslFree<X509_ALGOR, X509_ALGOR_free>>;
using IntegerPtr = std::unique_ptr<ASN1_INTEGER, OpenSslFree<ASN1_INTEGER, ASN1_INTEGER_free>>;

// The digest every probe for the authority's certificates is over: SHA-256 of the empty string.
const Sha256Digest& ProbeDigest() {
  static const Sha256Digest digest = Sha256("");
  return digest;
}

Result<std::string> Post(const TimestampAuthorityOptions& options, const std::string& query) {
  return FetchHttp({.url = options.url,
                    .headers = {"Content-Type: application/timestamp-query",
                                "Accept: application/timestamp-reply"},
                    .post_body = query,
                    .timeout = options.timeout,
                    .max_response_bytes = options.max_response_bytes,
                    .what = "the timestamp authority"});
}

// A TimeStampReq over `digest` with `nonce`, DER.
Result<std::string> RequestDer(const Sha256Digest& digest, const ASN1_INTEGER* nonce) {
  TsReqPtr request(TS_REQ_new());
  ImprintPtr imprint(TS_MSG_IMPRINT_new());
  AlgorPtr algorithm(X509_ALGOR_new());
  if (request == nullptr || imprint == nullptr || algorithm == nullptr ||
      X509_ALGOR_set0(algorithm.get(), OBJ_nid2obj(NID_sha256), V_ASN1_NULL, nullptr) != 1 ||
      TS_MSG_IMPRINT_set_algo(imprint.get(), algorithm.get()) != 1 ||
      TS_MSG_IMPRINT_set_msg(imprint.get(), const_cast<unsigned char*>(digest.data()),
                             static_cast<int>(digest.size())) != 1 ||
      TS_REQ_set_version(request.get(), 1) != 1 ||
      TS_REQ_set_msg_imprint(request.get(), imprint.get()) != 1 ||
      TS_REQ_set_nonce(request.get(), nonce) != 1 || TS_REQ_set_cert_req(request.get(), 1) != 1) {
    ERR_clear_error();
    return Fail(ErrorCode::kInternal, "cannot build a time-stamp request");
  }
  unsigned char* der = nullptr;
  const int length = i2d_TS_REQ(request.get(), &der);
  if (length <= 0) return Fail(ErrorCode::kInternal, "cannot encode a time-stamp request");
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(length));
  OPENSSL_free(der);
  return out;
}

Result<IntegerPtr> FreshNonce() {
  unsigned char bytes[8];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    return Fail(ErrorCode::kInternal, "no random bytes for a nonce");
  }
  bytes[0] &= 0x7F;  // positive, and a DER INTEGER the authority copies as it is
  BIGNUM* number = BN_bin2bn(bytes, sizeof bytes, nullptr);
  IntegerPtr nonce(number != nullptr ? BN_to_ASN1_INTEGER(number, nullptr) : nullptr);
  BN_free(number);
  if (nonce == nullptr) return Fail(ErrorCode::kInternal, "cannot make a nonce");
  return nonce;
}

std::vector<std::string> PemCertificatesDer(std::string_view pem) {
  std::vector<std::string> out;
  const BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  while (bio != nullptr) {
    X509Ptr certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (certificate == nullptr) break;
    unsigned char* der = nullptr;
    const int length = i2d_X509(certificate.get(), &der);
    if (length > 0) out.emplace_back(reinterpret_cast<char*>(der), static_cast<size_t>(length));
    OPENSSL_free(der);
  }
  ERR_clear_error();
  return out;
}

}  // namespace

TimestampAuthority::TimestampAuthority(TimestampAuthorityOptions options,
                                       std::string trusted_ca_pem)
    : options_(std::move(options)), trusted_ca_pem_(std::move(trusted_ca_pem)) {}

Result<std::unique_ptr<TimestampAuthority>> TimestampAuthority::Create(
    TimestampAuthorityOptions options) {
  if (!options.url.starts_with("http://") && !options.url.starts_with("https://")) {
    return Fail(ErrorCode::kValidationFailed,
                "the timestamp authority URL must be http:// or https://: " + options.url);
  }
  std::string ca_pem;
  if (!options.ca_file.empty()) {
    std::ifstream file(options.ca_file, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    ca_pem = text.str();
    if (!file || PemCertificatesDer(ca_pem).empty()) {
      return Fail(ErrorCode::kValidationFailed,
                  "the timestamp authority's CA file holds no PEM certificate: " + options.ca_file);
    }
  }
  return std::unique_ptr<TimestampAuthority>(
      new TimestampAuthority(std::move(options), std::move(ca_pem)));
}

Result<std::string> TimestampAuthority::Timestamp(const Sha256Digest& digest) const {
  Result<IntegerPtr> nonce = FreshNonce();
  if (!nonce) return Fail(std::move(nonce.error()));
  Result<std::string> query = RequestDer(digest, nonce->get());
  if (!query) return Fail(std::move(query.error()));
  Result<std::string> answer = Post(options_, *query);
  if (!answer) return Fail(std::move(answer.error()));

  const auto* der = reinterpret_cast<const unsigned char*>(answer->data());
  const unsigned char* end = der;
  TsRespPtr response(d2i_TS_RESP(nullptr, &end, static_cast<long>(answer->size())));
  if (response == nullptr || end != der + answer->size()) {
    ERR_clear_error();
    return Fail(ErrorCode::kUnavailable, "the timestamp authority's answer is not a TimeStampResp");
  }
  const long status =
      ASN1_INTEGER_get(TS_STATUS_INFO_get0_status(TS_RESP_get_status_info(response.get())));
  if (status != TS_STATUS_GRANTED && status != TS_STATUS_GRANTED_WITH_MODS) {
    return Fail(ErrorCode::kUnavailable, "the timestamp authority refused the request (status " +
                                             std::to_string(status) + ")");
  }
  PKCS7* token = TS_RESP_get_token(response.get());
  TS_TST_INFO* info = TS_RESP_get_tst_info(response.get());
  if (token == nullptr || info == nullptr) {
    return Fail(ErrorCode::kUnavailable, "the timestamp authority granted but sent no token");
  }
  const ASN1_INTEGER* echoed = TS_TST_INFO_get_nonce(info);
  if (echoed == nullptr || ASN1_INTEGER_cmp(echoed, nonce->get()) != 0) {
    return Fail(ErrorCode::kUnavailable, "the timestamp token does not carry the nonce sent");
  }
  unsigned char* token_der = nullptr;
  const int length = i2d_PKCS7(token, &token_der);
  if (length <= 0) return Fail(ErrorCode::kInternal, "cannot encode the timestamp token");
  std::string out(reinterpret_cast<char*>(token_der), static_cast<size_t>(length));
  OPENSSL_free(token_der);
  if (Result<TimestampTokenInfo> checked = Verify(out, digest); !checked) {
    return Fail(ErrorCode::kUnavailable,
                "the timestamp authority's token fails: " + checked.error().message);
  }
  return out;
}

Result<TimestampTokenInfo> TimestampAuthority::Verify(std::string_view token,
                                                      const Sha256Digest& digest) const {
  auto info = VerifyTimestampToken(token, digest, trusted_ca_pem_);
  if (!info) return Fail(ErrorCode::kValidationFailed, "timestamp token: " + info.error());
  return std::move(*info);
}

Result<std::vector<std::string>> TimestampAuthority::Certificates() const {
  {
    std::lock_guard lock(mutex_);
    if (certificates_) return *certificates_;
  }
  // Outside the lock: a slow authority must not hold up the callers that only read.
  Result<std::string> probe = Timestamp(ProbeDigest());
  if (!probe) return Fail(std::move(probe.error()));
  Result<TimestampTokenInfo> info = Verify(*probe, ProbeDigest());
  if (!info) return Fail(ErrorCode::kUnavailable, info.error().message);
  std::vector<std::string> certificates = std::move(info->certificates_der);
  for (std::string& ca : PemCertificatesDer(trusted_ca_pem_)) {
    if (std::find(certificates.begin(), certificates.end(), ca) == certificates.end()) {
      certificates.push_back(std::move(ca));
    }
  }
  std::lock_guard lock(mutex_);
  certificates_ = certificates;
  return certificates;
}

eventstore::TreeHeadTimestamper TreeHeadTimestamperOn(
    const TimestampAuthority& authority, const Clock& clock,
    eventstore::TimestampBreaker::Options breaker_options) {
  auto breaker = std::make_shared<eventstore::TimestampBreaker>(clock, breaker_options);
  return [&authority, breaker](const eventstore::SignedTreeHead& head) {
    if (!breaker->Allow()) return std::string();
    Result<std::string> token = authority.Timestamp(eventstore::TreeHeadTimestampDigest(head));
    const bool opened = breaker->Record(token.has_value());
    if (token) return std::move(*token);
    std::cerr << "contractd: tree head of size " << head.size
              << " kept without a timestamp: " << token.error().message << std::endl;
    if (opened) {
      std::cerr << "contractd: the timestamp authority failed "
                << breaker->options().failures_to_open << " times in a row: tree heads are "
                << "signed without a timestamp for the next " << breaker->options().pause.count()
                << " s" << std::endl;
    }
    return std::string();
  };
}

}  // namespace esign::documents
