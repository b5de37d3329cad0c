// The service's signing identity: an ECDSA P-256 key and a self-signed X.509 certificate
// (CN "Contract Signing Service", digitalSignature + nonRepudiation, valid ten years).
//
// OpenOrCreate keeps both in one PEM file in the data directory, "service-signing.pem" (mode
// 0600: the private key, then the certificate), created at first use and loaded afterwards. One
// file keeps key and certificate a matching pair: it is written beside its final name and linked
// into place, so it is either absent or complete, and two processes racing agree on one identity.
// Thread safety: a ServiceCertificate is immutable after creation and safe to share.
#pragma once

#include <memory>
#include <string>

#include "domain/result.h"

namespace esign::documents {

inline constexpr char kServiceCertificateFileName[] = "service-signing.pem";

class ServiceCertificate {
 public:
  ~ServiceCertificate();
  ServiceCertificate(const ServiceCertificate&) = delete;  // owns the key and certificate
  ServiceCertificate& operator=(const ServiceCertificate&) = delete;

  static Result<std::unique_ptr<ServiceCertificate>> OpenOrCreate(const std::string& dir);
  // A fresh identity held only in memory (tests).
  static Result<std::unique_ptr<ServiceCertificate>> CreateEphemeral();

  std::string CertificatePem() const;
  // EVP_PKEY* and X509*, kept opaque so callers need no OpenSSL headers.
  void* key() const { return pkey_; }
  void* certificate() const { return x509_; }

 private:
  ServiceCertificate(void* pkey, void* x509) : pkey_(pkey), x509_(x509) {}
  void* pkey_;
  void* x509_;
};

}  // namespace esign::documents
