// The service's request handler: assigns the request id, dispatches by path and answers with the
// one error body. It grows with the API; operational routes (/healthz, /readyz) live here.
// Thread safety: Handle may be called concurrently from every I/O thread.
#pragma once

#include <atomic>

#include "http/request_handler.h"

namespace esign::http {

class ApiHandler final : public RequestHandler {
 public:
  void Handle(Request request, const RequestContext& context, Respond respond) override;

  // /readyz answers 200 only once the service has finished starting.
  void SetReady(bool ready) { ready_ = ready; }

 private:
  std::atomic<bool> ready_{false};
};

}  // namespace esign::http
