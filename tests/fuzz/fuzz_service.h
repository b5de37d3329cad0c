// The service's routes and API handler over the in-memory event and view stores, for the fuzz
// targets that send whole requests (fuzz_http_request, fuzz_provider_callback). It is assembled
// once per process as app/service.cc assembles contractd, without sockets, Kafka, e-mail or
// webhook delivery: a request goes to ApiHandler::Handle and its answer is waited for. The
// templates of examples/templates are imported, one client with every permission exists and its
// access token is at hand, and provider "prv_fuzz" has a known callback secret and an open
// session, of a services agreement whose other signer has signed.
// Thread safety: one caller at a time (libFuzzer's thread). The handler runs routes on one
// worker thread and the projector has its own; the caller waits for both after every request,
// so a request sees everything the ones before it wrote.
#pragma once

#include <memory>
#include <string>

#include "http/request_handler.h"

namespace esign::fuzz {

class FuzzService {
 public:
  // The one instance of the process, assembled at the first call; traps when it cannot be.
  static FuzzService& Instance();
  ~FuzzService();

  // Handles `request` as contractd would and returns the answer.
  http::Response Handle(http::Request request);

  const std::string& access_token() const;
  // The provider_managed session of prv_fuzz that a callback can complete or decline.
  const std::string& provider_session_id() const;
  static constexpr const char* kProviderId = "prv_fuzz";
  static constexpr const char* kProviderSecret = "fuzz-provider-secret";
  // The seconds since the epoch of every clock of the service (it stands still).
  static constexpr int64_t kNowSeconds = 1795000000;

 private:
  struct Parts;
  FuzzService();
  std::unique_ptr<Parts> parts_;
};

}  // namespace esign::fuzz
