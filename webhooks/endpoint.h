// Webhook endpoints: the rules, pure (no I/O). An endpoint belongs to one organization and
// receives the events of the contracts that organization controls, filtered by its event types.
// Its state is rebuilt from the events of its stream "webhook-<endpointId>":
//   webhook_endpoint.created         {endpointId, organizationId, url, eventTypes, description,
//                                     enabled, createdAt}
//   webhook_endpoint.updated         {the changed fields of url, eventTypes, description, enabled;
//                                     updatedAt}
//   webhook_endpoint.secret_rotated  {rotatedAt, previousSecretExpiresAt}
//   webhook_endpoint.deleted         {deletedAt}
// Signing secrets are never in these events (endpoint_secrets.h keeps them).
// Thread safety: pure functions.
#pragma once

#include <array>
#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/json_util.h"
#include "domain/result.h"
#include "eventstore/event_record.h"

namespace esign::webhooks {

// The event kinds an endpoint may subscribe to: the seven of the specification, the end of a
// contract that will not be signed and its reminders (DESIGN section 14), and a hosted signing
// link locked after too many wrong codes (DESIGN section 15), and the end of a bulk send (DESIGN
// section 23), the one kind that is about no single contract.
inline constexpr std::array<std::string_view, 12> kWebhookEventTypes = {
    "contract.created",
    "contract.sent",
    "signer.completed",
    "contract.signing_in_progress",
    "contract.completed",
    "signer.declined",
    "contract.declined",
    "contract.voided",
    "contract.expired",
    "participant.reminded",
    "signer.authentication_failed",
    "bulk_send.completed"};

inline constexpr std::string_view kEndpointCreated = "webhook_endpoint.created";
inline constexpr std::string_view kEndpointUpdated = "webhook_endpoint.updated";
inline constexpr std::string_view kEndpointSecretRotated = "webhook_endpoint.secret_rotated";
inline constexpr std::string_view kEndpointDeleted = "webhook_endpoint.deleted";

// How long a rotated-out secret keeps signing.
inline constexpr int64_t kSecretOverlapMicros = int64_t{24} * 3600 * 1'000'000;

// Live (not deleted) endpoints an organization may have.
inline constexpr size_t kMaxEndpointsPerOrganization = 20;

// Longest accepted URL and description.
inline constexpr size_t kMaxUrlLength = 2048;
inline constexpr size_t kMaxDescriptionLength = 500;

struct UrlPolicy {
  // --webhook-allow-loopback: http (and https) to 127.0.0.0/8, ::1 and localhost are accepted.
  // Default: false (https only; loopback refused like every private address).
  bool allow_loopback = false;
};

// Adds a detail for "url" when `url` is not an absolute https URL (or http to loopback when the
// policy allows), has credentials or a fragment, names a host with control characters or spaces,
// or names a host by an address that is private, loopback (unless allowed), link-local,
// unspecified, multicast or otherwise not public (IsNonPublicAddress). The detail never repeats
// the address.
// Host names are checked again against their resolved addresses when a delivery connects.
void CheckWebhookUrl(std::string_view url, const UrlPolicy& policy, Details& details);

// True for an IP address (v4 or v6 literal, without brackets) that is loopback.
bool IsLoopbackAddress(std::string_view address);
// True for an address that is not a public unicast address: private, loopback, link-local,
// shared, multicast, documentation, reserved; IPv4 ones also when mapped or embedded in IPv6
// (::ffff:0:0/96, 64:ff9b::/96); in IPv6 also ::/96 (IPv4-compatible), the local-use NAT64
// prefix 64:ff9b:1::/48, the 6to4 and Teredo relays (2002::/16, 2001::/32, which reach IPv4
// addresses the check cannot see) and site-local fec0::/10. Also true for what is no address.
bool IsNonPublicAddress(std::string_view address);

struct WebhookEndpoint {
  std::string id;
  std::string organization_id;
  std::string url;
  std::vector<std::string> event_types;
  std::string description;
  bool enabled = true;
  std::string created_at;
  std::string updated_at;
  uint64_t created_position = 0;  // the log position of its creation: it receives later events
  uint64_t version = 0;           // of its stream
  bool deleted = false;

  bool Wants(std::string_view event_type) const;
};

// The fields of a create or PATCH body; absent members stay nullopt.
struct EndpointFields {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> event_types;
  std::optional<std::string> description;
  std::optional<bool> enabled;
};

// POST body {url, eventTypes, description?, enabled?}: url and eventTypes required.
Result<EndpointFields> ParseCreateEndpoint(const boost::json::object& body,
                                           const UrlPolicy& policy);
// PATCH body: any of the four, at least one.
Result<EndpointFields> ParseUpdateEndpoint(const boost::json::object& body,
                                           const UrlPolicy& policy);

// The data of the events.
std::string EndpointCreatedData(const WebhookEndpoint& endpoint);
// Only the fields that change; nothing when the PATCH changes nothing.
std::optional<std::string> EndpointUpdatedData(const WebhookEndpoint& current,
                                               const EndpointFields& fields,
                                               std::string_view updated_at);

// Applies one event of the endpoint's stream; kCorruption for data the service cannot have written.
Status ApplyEndpointEvent(WebhookEndpoint& endpoint, const eventstore::EventRecord& event);
// The endpoint from its stream's events; nothing for an empty stream.
Result<std::optional<WebhookEndpoint>> ReplayEndpoint(
    const std::vector<eventstore::EventRecord>& events);

// The API representation {id, url, eventTypes, description, enabled, createdAt, updatedAt}.
boost::json::object EndpointToJson(const WebhookEndpoint& endpoint);

}  // namespace esign::webhooks
