// OpenSSL's objects and errors as text, for reports and error messages.
// Thread safety: every function may be called from any thread (OpenSSL's error queue is
// per thread).
#pragma once

#include <openssl/types.h>

#include <string>

namespace esign {

// The certificate's subject as RFC 2253 text, e.g. "CN=Contract Signing Service"; "" on failure.
std::string SubjectRfc2253(const X509* certificate);

// The reason of the newest error on this thread's OpenSSL error queue ("unknown reason" when
// there is none); the queue is cleared.
std::string TakeOpenSslError();

}  // namespace esign
