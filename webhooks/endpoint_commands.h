// EndpointCommands: the writes of the webhook endpoint operations. Each loads the endpoint from
// its stream, applies the rules of endpoint.h and appends with the stream's version expected, so
// concurrent changes conflict instead of overwriting each other. An endpoint of another
// organization, or a deleted one, is kWebhookEndpointNotFound, like a missing one.
// Secrets go to EndpointSecrets, never into the events.
// Thread safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "domain/clock.h"
#include "domain/id_generator.h"
#include "eventstore/event_store.h"
#include "webhooks/endpoint.h"
#include "webhooks/endpoint_secrets.h"

namespace esign::webhooks {

// How long a rotated-out secret keeps signing.
inline constexpr int64_t kSecretOverlapMicros = int64_t{24} * 3600 * 1'000'000;

struct EndpointCaller {
  std::string organization_id;
  eventstore::Actor actor;
};

class EndpointCommands {
 public:
  // `wrote(client id, log size)` is told of every append (read-your-writes).
  EndpointCommands(eventstore::EventStore& store, EndpointSecrets& secrets, IdGenerator& ids,
                   const Clock& clock, UrlPolicy policy,
                   std::function<void(std::string_view, uint64_t)> wrote);

  struct Created {
    WebhookEndpoint endpoint;
    std::string secret;
  };
  Result<Created> Create(const EndpointCaller& caller, const boost::json::object& body);
  Result<WebhookEndpoint> Get(const EndpointCaller& caller, std::string_view id) const;
  Result<WebhookEndpoint> Update(const EndpointCaller& caller, std::string_view id,
                                 const boost::json::object& body);
  Status Delete(const EndpointCaller& caller, std::string_view id);
  struct Rotated {
    WebhookEndpoint endpoint;
    std::string secret;
    std::string previous_secret_expires_at;  // RFC 3339
  };
  Result<Rotated> RotateSecret(const EndpointCaller& caller, std::string_view id);
  // The dispatcher's: disables an endpoint (410 Gone, or the retry schedule exhausted); its
  // undelivered events wait until an update enables it again. `reason` goes into the event.
  Status Disable(std::string_view id, std::string_view reason);

 private:
  Status Append(const EndpointCaller& caller, const WebhookEndpoint& endpoint,
                std::string_view type, std::string data, WebhookEndpoint* applied_to);

  eventstore::EventStore& store_;
  EndpointSecrets& secrets_;
  IdGenerator& ids_;
  const Clock& clock_;
  const UrlPolicy policy_;
  const std::function<void(std::string_view, uint64_t)> wrote_;
};

}  // namespace esign::webhooks
