// EndpointCommands: the writes of the webhook endpoint operations. Each loads the endpoint from
// its stream, applies the rules of webhooks/endpoint.h and appends with the stream's version
// expected, so concurrent changes conflict instead of overwriting each other. An endpoint of
// another organization, or a deleted one, is kWebhookEndpointNotFound, like a missing one. Secrets
// go to EndpointSecrets (webhooks/endpoint_secrets.h), never into the events. Create and
// RotateSecret take an Idempotency-Key (eventstore/idempotency_keys.h): the same key and request
// again replays the first answer without a second effect. A replay's secret comes from the
// endpoint's secret file, and only while it is still the one the first answer returned (no rotation
// since, endpoint not deleted); otherwise the replay carries no secret. An organization has at most
// kMaxEndpointsPerOrganization live endpoints: one more is kValidationFailed. Creations are carried
// out one at a time, each counting after the one before it was written, so concurrent requests
// cannot pass the limit together. Thread safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "commands/record_write.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "eventstore/event_store.h"
#include "eventstore/idempotency_keys.h"
#include "webhooks/endpoint.h"
#include "webhooks/endpoint_secrets.h"

namespace esign::commands {

// The organization's live endpoints, counting every endpoint written before the call (contractd:
// the endpoint directory, once the projection has applied the whole log).
using LiveEndpointCounter = std::function<Result<size_t>(std::string_view organization_id)>;

struct EndpointCaller {
  std::string organization_id;
  eventstore::Actor actor;
};

class EndpointCommands {
 public:
  // `live_endpoints` counts for the limit; `record_write` is told of every append
  // (read-your-writes). Everything given by reference must outlive the handler.
  EndpointCommands(eventstore::EventStore& store, webhooks::EndpointSecrets& secrets,
                   webhooks::UrlPolicy policy, LiveEndpointCounter live_endpoints,
                   RecordWrite record_write, IdGenerator& ids, const Clock& clock);

  struct Created {
    webhooks::WebhookEndpoint endpoint;
    std::optional<std::string> secret;  // nullopt only in a replay (see above)
    bool replayed = false;
  };
  // `idempotency`: the request's Idempotency-Key, when it has one.
  Result<Created> Create(const EndpointCaller& caller, const boost::json::object& body,
                         const std::optional<eventstore::IdempotentRequest>& idempotency = {});
  Result<webhooks::WebhookEndpoint> Get(const EndpointCaller& caller, std::string_view id) const;
  Result<webhooks::WebhookEndpoint> Update(const EndpointCaller& caller, std::string_view id,
                                           const boost::json::object& body);
  Status Delete(const EndpointCaller& caller, std::string_view id);
  struct Rotated {
    webhooks::WebhookEndpoint endpoint;
    std::optional<std::string> secret;       // nullopt only in a replay (see above)
    std::string previous_secret_expires_at;  // RFC 3339
    bool replayed = false;
  };
  Result<Rotated> RotateSecret(
      const EndpointCaller& caller, std::string_view id,
      const std::optional<eventstore::IdempotentRequest>& idempotency = {});
  // The dispatcher's: disables an endpoint (410 Gone, or the retry schedule exhausted); its
  // undelivered events wait until an update enables it again. `reason` goes into the event.
  Status Disable(std::string_view id, std::string_view reason);

 private:
  // `event_id` empty: a fresh one.
  Status Append(const EndpointCaller& caller, const webhooks::WebhookEndpoint& endpoint,
                std::string_view type, std::string data, webhooks::WebhookEndpoint* applied_to,
                std::string event_id = "");
  Result<Created> CreateOnce(const EndpointCaller& caller, const webhooks::EndpointFields& fields,
                             std::string id, std::string event_id);
  Result<Rotated> RotateOnce(const EndpointCaller& caller,
                             const webhooks::WebhookEndpoint& endpoint, std::string event_id);
  // The answers of a completed request, rebuilt from the stream at `version` and the secret file.
  Result<Created> ReplayCreated(const EndpointCaller& caller, std::string_view id,
                                uint64_t version) const;
  Result<Rotated> ReplayRotated(const EndpointCaller& caller, std::string_view id,
                                uint64_t version) const;

  eventstore::EventStore& store_;
  webhooks::EndpointSecrets& secrets_;
  const webhooks::UrlPolicy policy_;
  const LiveEndpointCounter live_endpoints_;
  const RecordWrite record_write_;
  IdGenerator& ids_;
  const Clock& clock_;
  // One write with an Idempotency-Key at a time: two requests with one key must not both carry
  // out the operation (each would make a secret, and only one answer could hold the kept one).
  std::mutex idempotent_;
  // One creation at a time, from counting to appending (taken after idempotent_).
  std::mutex creating_;
};

}  // namespace esign::commands
