#include "http/auth_failure_throttle.h"

namespace esign::http {
namespace {

RateLimitOptions PerMinute(double failures, size_t max_keys) {
  return {.requests_per_second = failures / 60, .burst = failures, .max_keys = max_keys};
}

}  // namespace

AuthFailureThrottle::AuthFailureThrottle(AuthFailureThrottleOptions options)
    : clients_(PerMinute(options.failures_per_client_per_minute, options.max_keys)),
      addresses_(PerMinute(options.failures_per_address_per_minute, options.max_keys)) {}

Admission AuthFailureThrottle::Admit(std::string_view client_id, std::string_view remote_ip,
                                     std::chrono::steady_clock::time_point now) {
  const std::string address = AddressKey(remote_ip);
  Admission by_address = addresses_.Admit(address, now);
  if (!by_address.admitted) return by_address;
  Admission by_client = clients_.Admit(client_id, now);
  if (!by_client.admitted) {
    // Refused before any check: nothing failed, so the address keeps its attempt.
    if (by_address.limited) addresses_.Refund(address);
    return by_client;
  }
  return by_client.limited ? by_client : by_address;
}

void AuthFailureThrottle::Forgive(std::string_view client_id, std::string_view remote_ip) {
  clients_.Refund(client_id);
  addresses_.Refund(AddressKey(remote_ip));
}

}  // namespace esign::http
