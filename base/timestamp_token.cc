#include "base/timestamp_token.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/ts.h>
#include <openssl/x509.h>

#include <cstring>
#include <ctime>
#include <memory>
#include <optional>

#include "base/hex.h"
#include "base/openssl_text.h"

namespace esign {
namespace {

template <typename T, void (*Free)(T*)>
struct Freer {
  void operator()(T* object) const { Free(object); }
};
void FreeBioAll(BIO* bio) { BIO_free_all(bio); }
void FreeCertStack(STACK_OF(X509) * stack) { sk_X509_free(stack); }
using Pkcs7Ptr = std::unique_ptr<PKCS7, Freer<PKCS7, PKCS7_free>>;
using TstInfoPtr = std::unique_ptr<TS_TST_INFO, Freer<TS_TST_INFO, TS_TST_INFO_free>>;
using VerifyCtxPtr = std::unique_ptr<TS_VERIFY_CTX, Freer<TS_VERIFY_CTX, TS_VERIFY_CTX_free>>;
using StorePtr = std::unique_ptr<X509_STORE, Freer<X509_STORE, X509_STORE_free>>;
using BioPtr = std::unique_ptr<BIO, Freer<BIO, FreeBioAll>>;
using SignersPtr = std::unique_ptr<STACK_OF(X509), Freer<STACK_OF(X509), FreeCertStack>>;

// genTime "YYYYMMDDHHMMSS[.fraction]Z" (RFC 3161 2.4.2) as microseconds since the epoch.
std::optional<int64_t> GenTimeMicros(const ASN1_GENERALIZEDTIME* time) {
  std::tm tm{};
  if (time == nullptr || ASN1_TIME_to_tm(time, &tm) != 1) return std::nullopt;
  int64_t micros = static_cast<int64_t>(timegm(&tm)) * 1'000'000;
  const std::string_view text(reinterpret_cast<const char*>(ASN1_STRING_get0_data(time)),
                              static_cast<size_t>(ASN1_STRING_length(time)));
  if (const size_t dot = text.find('.'); dot != std::string_view::npos) {
    int64_t scale = 100'000;
    for (size_t i = dot + 1; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      micros += (text[i] - '0') * scale;
      scale /= 10;
    }
  }
  return micros;
}

// The trust store: the CA given, or else the token's own certificates. Certificates are checked as
// of the token's genTime, so a token stays verifiable after its authority's certificate expires.
std::expected<StorePtr, std::string> TrustStore(std::string_view trusted_ca_pem,
                                                STACK_OF(X509) * carried, time_t at) {
  StorePtr store(X509_STORE_new());
  if (store == nullptr) return std::unexpected("cannot allocate a certificate store");
  if (!trusted_ca_pem.empty()) {
    const BioPtr bio(
        BIO_new_mem_buf(trusted_ca_pem.data(), static_cast<int>(trusted_ca_pem.size())));
    int added = 0;
    while (bio != nullptr) {
      X509* ca = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
      if (ca == nullptr) break;
      X509_STORE_add_cert(store.get(), ca);
      X509_free(ca);
      ++added;
    }
    ERR_clear_error();
    if (added == 0) return std::unexpected("the trusted CA is not a PEM certificate");
  } else {
    // The roots the token carries are the anchors; each one's own signature is checked too, so
    // no byte of a carried certificate can change unnoticed. A token carrying only its signer's
    // certificate has that certificate as its anchor.
    int roots = 0;
    for (int i = 0; i < sk_X509_num(carried); ++i) {
      X509* certificate = sk_X509_value(carried, i);
      if (X509_NAME_cmp(X509_get_subject_name(certificate), X509_get_issuer_name(certificate)) ==
          0) {
        X509_STORE_add_cert(store.get(), certificate);
        ++roots;
      }
    }
    if (roots == 0) {
      if (sk_X509_num(carried) != 1) {
        return std::unexpected("the token's certificates lead to no root");
      }
      X509_STORE_add_cert(store.get(), sk_X509_value(carried, 0));
      X509_STORE_set_flags(store.get(), X509_V_FLAG_PARTIAL_CHAIN);
    }
  }
  X509_STORE_set_flags(store.get(), X509_V_FLAG_CHECK_SS_SIGNATURE);
  X509_VERIFY_PARAM_set_time(X509_STORE_get0_param(store.get()), at);
  return store;
}

}  // namespace

std::expected<TimestampTokenInfo, std::string> VerifyTimestampToken(
    std::string_view token_der, const Sha256Digest& digest, std::string_view trusted_ca_pem) {
  const auto* der = reinterpret_cast<const unsigned char*>(token_der.data());
  const unsigned char* end = der;
  Pkcs7Ptr token(d2i_PKCS7(nullptr, &end, static_cast<long>(token_der.size())));
  if (token == nullptr || end != der + token_der.size() || PKCS7_type_is_signed(token.get()) == 0) {
    ERR_clear_error();
    return std::unexpected("not a DER time-stamp token (CMS SignedData)");
  }
  TstInfoPtr info(PKCS7_to_TS_TST_INFO(token.get()));
  if (info == nullptr) {
    ERR_clear_error();
    return std::unexpected("the token does not hold a TSTInfo");
  }
  const X509_ALGOR* algorithm = TS_MSG_IMPRINT_get_algo(TS_TST_INFO_get_msg_imprint(info.get()));
  if (OBJ_obj2nid(algorithm->algorithm) != NID_sha256) {
    return std::unexpected("the message imprint is not a SHA-256 digest");
  }
  const std::optional<int64_t> gen_time = GenTimeMicros(TS_TST_INFO_get_time(info.get()));
  if (!gen_time) return std::unexpected("the token's genTime is not a time");

  STACK_OF(X509)* carried = token->d.sign->cert;
  auto store = TrustStore(trusted_ca_pem, carried, static_cast<time_t>(*gen_time / 1'000'000));
  if (!store) return std::unexpected(store.error());
  VerifyCtxPtr ctx(TS_VERIFY_CTX_new());
  auto* imprint = static_cast<unsigned char*>(OPENSSL_malloc(digest.size()));
  if (ctx == nullptr || imprint == nullptr) {
    OPENSSL_free(imprint);
    return std::unexpected("cannot allocate a verification context");
  }
  std::memcpy(imprint, digest.data(), digest.size());
  TS_VERIFY_CTX_set_imprint(ctx.get(), imprint, static_cast<long>(digest.size()));  // owns it
  TS_VERIFY_CTX_set_store(ctx.get(), store->release());                             // owns it
  if (carried != nullptr) TS_VERIFY_CTX_set_certs(ctx.get(), X509_chain_up_ref(carried));
  TS_VERIFY_CTX_set_flags(ctx.get(), TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_IMPRINT);
  if (TS_RESP_verify_token(ctx.get(), token.get()) != 1) {
    const unsigned long code = ERR_peek_last_error();
    if (ERR_GET_REASON(code) == TS_R_MESSAGE_IMPRINT_MISMATCH) {
      ERR_clear_error();
      return std::unexpected("the message imprint is not the expected digest");
    }
    return std::unexpected("the token does not verify (" + TakeOpenSslError() + ")");
  }

  TimestampTokenInfo result;
  result.gen_time_micros = *gen_time;
  result.anchored = !trusted_ca_pem.empty();
  const ASN1_INTEGER* serial = TS_TST_INFO_get_serial(info.get());
  result.serial_hex =
      ToHex(std::string_view(reinterpret_cast<const char*>(ASN1_STRING_get0_data(serial)),
                             static_cast<size_t>(ASN1_STRING_length(serial))));
  const SignersPtr signers(PKCS7_get0_signers(token.get(), nullptr, 0));
  if (signers != nullptr && sk_X509_num(signers.get()) == 1) {
    result.tsa_subject = SubjectRfc2253(sk_X509_value(signers.get(), 0));
  }
  for (int i = 0; i < sk_X509_num(carried); ++i) {
    unsigned char* cert_der = nullptr;
    const int length = i2d_X509(sk_X509_value(carried, i), &cert_der);
    if (length <= 0) continue;
    result.certificates_der.emplace_back(reinterpret_cast<char*>(cert_der),
                                         static_cast<size_t>(length));
    OPENSSL_free(cert_der);
  }
  ERR_clear_error();
  return result;
}

}  // namespace esign
