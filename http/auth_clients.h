// Machine clients: their permissions, and their provisioning as `client.created` events.
// A client acts for exactly one organization and holds a fixed set of permissions; its secret is
// shown once, at creation, and only its slow hash (auth_secrets.h) is stored.
// Used by the command line and the admin socket (app/), and at first start for the demo client.
// Thread safety: as the EventStore's.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "domain/clock.h"
#include "domain/id_generator.h"
#include "domain/result.h"
#include "eventstore/event_store.h"
#include "http/auth_secrets.h"

namespace esign::http {

// Every permission the API knows (DESIGN section 6).
inline constexpr std::array<std::string_view, 8> kPermissions = {
    "contracts:read", "contracts:create", "contracts:update", "contracts:send",
    "templates:read", "signing:manage",   "evidence:write",   "webhooks:manage",
};

bool IsKnownPermission(std::string_view permission);
// ^[A-Za-z0-9_.:-]{1,64}$
bool IsValidOrganizationId(std::string_view organization_id);

struct NewClient {
  std::string organization_id;
  std::string name;                      // 1..200 bytes of UTF-8 without control characters
  std::vector<std::string> permissions;  // known ones, at least one; repeats are dropped
};

struct CreatedClient {
  std::string client_id;
  std::string client_secret;  // shown once, never stored
  std::string organization_id;
  std::string name;
  std::vector<std::string> permissions;
};

struct ClientCreationOptions {
  // PBKDF2 cost of the stored hash. Default: kDefaultPbkdf2Iterations (about 30 ms).
  int pbkdf2_iterations = kDefaultPbkdf2Iterations;
  IdGenerator* ids = &RandomIdGenerator::Instance();  // must outlive the call
  const Clock* clock = &SystemClock::Instance();      // must outlive the call
};

// Validates `request` (kValidationFailed naming the field: organizationId, name, permissions),
// draws a client id ("cli_...") and a secret, and appends `client.created` on
// "client-<clientId>". Nothing is written when validation fails.
Result<CreatedClient> CreateClient(eventstore::EventStore& store, const NewClient& request,
                                   const eventstore::Actor& actor,
                                   const ClientCreationOptions& options = {});

// {"clientId","clientSecret","organizationId","permissions"}: what the command line prints.
boost::json::object CreatedClientJson(const CreatedClient& client);

}  // namespace esign::http
