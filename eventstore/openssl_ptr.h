// Owning pointers for the OpenSSL objects the ledger's key code holds (tree_head.cc,
// ledger_key.cc).
// Thread safety: as the objects they own.
#pragma once

#include <openssl/bio.h>
#include <openssl/evp.h>

#include <memory>

namespace esign::eventstore {

struct PkeyDeleter {
  void operator()(EVP_PKEY* pkey) const { EVP_PKEY_free(pkey); }
};
struct BioDeleter {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyDeleter>;
using BioPtr = std::unique_ptr<BIO, BioDeleter>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

}  // namespace esign::eventstore
