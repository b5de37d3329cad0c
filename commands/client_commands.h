// The writes of machine clients: provisioning a client as `client.created`, and revoking one of
// its tokens as `token.revoked`, both on the stream "client-<clientId>"
// (projections/client_directory.h).
// A client acts for exactly one organization and holds a fixed set of permissions; its secret is
// shown once, at creation, and only its slow hash (client_secrets.h) is stored.
// Used by the command line and the admin socket (app/), at first start for the demo client, and
// by the revocation operation (http/auth_service.h), which decides which token may be revoked.
// Thread safety: every method may be called from any thread.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "commands/client_secrets.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

// Every permission the API knows (DESIGN section 6).
inline constexpr std::array<std::string_view, 10> kPermissions = {
    "contracts:read",  "contracts:create",    "contracts:update", "contracts:send",
    "templates:read",  "templates:write",     "signing:manage",   "evidence:write",
    "webhooks:manage", "organization:manage",
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

// A token to revoke, as its verified claims name it.
struct TokenRevocationRequest {
  std::string token_id;
  std::string client_id;
  int64_t expires_at = 0;  // seconds since the epoch
};

struct ClientCommandOptions {
  // PBKDF2 cost of the stored hash. Default: kDefaultPbkdf2Iterations (about 30 ms).
  int pbkdf2_iterations = kDefaultPbkdf2Iterations;
  // How long a revocation waits for the client directory to apply its event before answering
  // kUnavailable. Default: 5 s.
  std::chrono::milliseconds revocation_wait{5000};
};

class ClientCommandHandler {
 public:
  // True once the read side has applied every event before log position `log_size`; null when
  // no read side runs (the command line's own store).
  using WaitApplied = std::function<bool(uint64_t log_size, std::chrono::milliseconds timeout)>;

  // Everything given by reference must outlive the handler.
  ClientCommandHandler(eventstore::EventStore& store, WaitApplied wait_applied, IdGenerator& ids,
                       const Clock& clock, ClientCommandOptions options = {});

  // Validates `request` (kValidationFailed naming the field: organizationId, name, permissions),
  // draws a client id ("cli_...") and a secret, and appends `client.created`. Nothing is written
  // when validation fails. Returns without waiting for the directory: the command line waits
  // for it before answering (app/cli_commands.h).
  Result<CreatedClient> Create(const NewClient& request, const eventstore::Actor& actor);

  // Appends `token.revoked` and returns once the directory applied it, so that the token fails
  // from the next request on; kUnavailable when it is recorded but not yet applied.
  Status RevokeToken(const TokenRevocationRequest& token, const eventstore::Actor& actor);

 private:
  eventstore::EventStore& store_;
  const WaitApplied wait_applied_;
  IdGenerator& ids_;
  const Clock& clock_;
  const ClientCommandOptions options_;
};

// {"clientId","clientSecret","organizationId","permissions"}: what the command line prints.
boost::json::object CreatedClientJson(const CreatedClient& client);

}  // namespace esign::commands
