// Provider callbacks (DESIGN section 10): POST /api/v1/provider-callbacks/{providerId}, a signing
// provider's report that the organization signer of a provider_managed session signed or
// declined.
//
// Authentication is the provider's shared secret, not a bearer token:
//   X-Provider-Timestamp: <seconds since the epoch>
//   X-Provider-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
// A timestamp more than 5 minutes from the service's clock, a wrong signature, and the replay of
// a request already accepted (the same signature again) are refused and change nothing. A new
// callback for a session that is already finished (the provider retrying after a lost answer)
// is acknowledged with `duplicate: true` and records nothing.
//
// Body: {eventId, sessionId, outcome: "completed" | "declined", signerName?, signedAt?,
//        authenticationMethod?, reason?}.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "http/signing_routes.h"

namespace esign::http {

struct ProviderCallbackDeps {
  SigningRoutesDeps signing;  // commands, session index, clock
  // The provider's shared secret; nothing for an unknown provider.
  std::function<std::optional<std::string>(const std::string& provider_id)> provider_secret;
  // What X-Provider-Timestamp is checked against: the system's clock, which providers share
  // (the decisions' clock in `signing` may run ahead: contractd --clock-offset).
  const Clock& timestamp_clock;
};

void AddProviderCallbackRoutes(ApiRoutes& routes, const ProviderCallbackDeps& deps);

// "v1=<hex>" for `body` at `timestamp` (what a provider sends; for tests and tools).
std::string ProviderSignature(std::string_view secret, std::string_view timestamp,
                              std::string_view body);

}  // namespace esign::http
