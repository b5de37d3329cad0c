#include "documents/service_certificate.h"

#include "documents/openssl_handles.h"
#include "eventstore/secret_file.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

namespace esign::documents {
namespace {

constexpr const char* kFileName = kServiceCertificateFileName;
constexpr char kCommonName[] = "Contract Signing Service";
constexpr long kValiditySeconds = 10L * 365 * 24 * 60 * 60 + 3L * 24 * 60 * 60;  // leap days

struct Identity {
  PkeyPtr pkey;
  X509Ptr x509;
};

bool AddExtension(X509* x509, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x509, x509, nullptr, nullptr, 0);
  const ExtPtr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value));
  return ext != nullptr && X509_add_ext(x509, ext.get(), -1) == 1;
}

Result<Identity> Generate() {
  PkeyPtr pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  if (pkey == nullptr) return Fail(ErrorCode::kInternal, "cannot generate a P-256 key");
  X509Ptr x509(X509_new());
  if (x509 == nullptr) return Fail(ErrorCode::kInternal, "cannot allocate a certificate");
  // A random positive 64-bit serial: two identities of the service never share a serial.
  unsigned char serial_bytes[8];
  BIGNUM* serial = BN_new();
  const bool serial_ok = serial != nullptr && RAND_bytes(serial_bytes, sizeof serial_bytes) == 1 &&
                         BN_bin2bn(serial_bytes, sizeof serial_bytes, serial) != nullptr &&
                         BN_set_bit(serial, 0) == 1 &&
                         BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x509.get())) != nullptr;
  BN_free(serial);
  X509_NAME* name = X509_get_subject_name(x509.get());
  const bool ok =
      serial_ok && X509_set_version(x509.get(), X509_VERSION_3) == 1 &&
      X509_gmtime_adj(X509_getm_notBefore(x509.get()), 0) != nullptr &&
      X509_gmtime_adj(X509_getm_notAfter(x509.get()), kValiditySeconds) != nullptr &&
      X509_set_pubkey(x509.get(), pkey.get()) == 1 &&
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(kCommonName), -1, -1,
                                 0) == 1 &&
      X509_set_issuer_name(x509.get(), name) == 1 &&
      AddExtension(x509.get(), NID_basic_constraints, "critical,CA:FALSE") &&
      AddExtension(x509.get(), NID_key_usage, "critical,digitalSignature,nonRepudiation") &&
      AddExtension(x509.get(), NID_subject_key_identifier, "hash") &&
      X509_sign(x509.get(), pkey.get(), EVP_sha256()) > 0;
  if (!ok) return Fail(ErrorCode::kInternal, "cannot create the service certificate");
  return Identity{std::move(pkey), std::move(x509)};
}

Result<std::string> ToPem(const Identity& identity) {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr ||
      PEM_write_bio_PrivateKey(bio.get(), identity.pkey.get(), nullptr, nullptr, 0, nullptr,
                               nullptr) != 1 ||
      PEM_write_bio_X509(bio.get(), identity.x509.get()) != 1) {
    return Fail(ErrorCode::kInternal, "cannot encode the service identity");
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

Result<Identity> FromPem(const std::string& pem, const std::string& path) {
  const BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (bio == nullptr) return Fail(ErrorCode::kInternal, "cannot allocate a BIO");
  PkeyPtr pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  X509Ptr x509(pkey ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (x509 == nullptr || X509_check_private_key(x509.get(), pkey.get()) != 1) {
    return Fail(ErrorCode::kCorruption, "no matching key and certificate in " + path);
  }
  return Identity{std::move(pkey), std::move(x509)};
}

}  // namespace

ServiceCertificate::~ServiceCertificate() {
  EVP_PKEY_free(static_cast<EVP_PKEY*>(pkey_));
  X509_free(static_cast<X509*>(x509_));
}

Result<std::unique_ptr<ServiceCertificate>> ServiceCertificate::OpenOrCreate(
    const std::string& dir) {
  std::error_code fs_error;
  std::filesystem::create_directories(dir, fs_error);
  if (fs_error) {
    return Fail(ErrorCode::kStorage, "cannot create " + dir + ": " + fs_error.message());
  }
  const std::string path = dir + "/" + kFileName;
  // A second round only when another process installed an identity between our look and link.
  for (int attempt = 0; attempt < 2; ++attempt) {
    Result<std::optional<std::string>> existing = eventstore::ReadFileIfPresent(path);
    if (!existing) return Fail(std::move(existing.error()));
    if (existing->has_value()) {
      Result<Identity> identity = FromPem(**existing, path);
      if (!identity) return Fail(std::move(identity.error()));
      return std::unique_ptr<ServiceCertificate>(
          new ServiceCertificate(identity->pkey.release(), identity->x509.release()));
    }
    Result<Identity> identity = Generate();
    if (!identity) return Fail(std::move(identity.error()));
    Result<std::string> pem = ToPem(*identity);
    if (!pem) return Fail(std::move(pem.error()));
    Result<bool> installed = eventstore::PublishSecretFile(dir, kFileName, *pem);
    if (!installed) return Fail(std::move(installed.error()));
    if (*installed) {
      return std::unique_ptr<ServiceCertificate>(
          new ServiceCertificate(identity->pkey.release(), identity->x509.release()));
    }
  }
  return Fail(ErrorCode::kStorage, "cannot settle on a service identity in " + dir);
}

Result<std::unique_ptr<ServiceCertificate>> ServiceCertificate::CreateEphemeral() {
  Result<Identity> identity = Generate();
  if (!identity) return Fail(std::move(identity.error()));
  return std::unique_ptr<ServiceCertificate>(
      new ServiceCertificate(identity->pkey.release(), identity->x509.release()));
}

std::string ServiceCertificate::CertificatePem() const {
  const BioPtr bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || PEM_write_bio_X509(bio.get(), static_cast<X509*>(x509_)) != 1) return {};
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace esign::documents
