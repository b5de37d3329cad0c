// AuthService: the three operations of the authentication family, without HTTP (auth_routes.h
// maps them to routes).
//   IssueToken   client credentials -> an access token (OAuth 2 client credentials grant)
//   IssueTokenAsync  the same for anonymous callers: throttled per client id and address
//                (auth_failure_throttle.h) and checked on a few threads of its own behind a
//                bounded queue (base/work_queue.h), so a flood of guesses costs neither the
//                request workers nor unbounded memory
//   Introspect   RFC 7662: an active token of the caller's organization -> its claims
//   Revoke       RFC 7009: decides whether the token may be revoked; the write is the client
//                command handler's (commands/client_commands.h), which returns once the
//                directory applied it, so the token fails from the next request on
//
// Wrong credentials cost the same whether the client exists or not: an unknown client id is
// checked against a dummy hash of the same cost, and both answer the same kInvalidClient.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "base/work_queue.h"
#include "commands/client_commands.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "http/api.h"
#include "http/auth_authenticator.h"
#include "http/auth_failure_throttle.h"
#include "http/auth_tokens.h"
#include "projections/client_directory.h"

namespace esign::http {

struct AuthServiceOptions {
  // Lifetime of an access token, in seconds. Default: 3600.
  int64_t token_lifetime_seconds = 3600;
  // PBKDF2 cost of the dummy hash that unknown client ids are checked against; the same as the
  // clients' hashes, so that both answers take as long. Default: kDefaultPbkdf2Iterations.
  int pbkdf2_iterations = commands::kDefaultPbkdf2Iterations;
  // Failed authentications accepted per client id and per address (IssueTokenAsync).
  AuthFailureThrottleOptions throttle;
  // Threads that check client secrets for IssueTokenAsync, apart from the request workers.
  // Default: 2.
  size_t check_threads = 2;
  // Token requests waiting for a check thread; more are refused with kUnavailable. Default: 64.
  size_t check_queue = 64;
};

struct IssuedToken {
  std::string access_token;
  int64_t expires_in = 0;  // seconds
  std::string scope;       // space-separated permissions
};

// A token request of an anonymous caller, for IssueTokenAsync.
struct TokenRequest {
  std::string client_id;
  std::string client_secret;
  std::optional<std::vector<std::string>> scope;
  std::string remote_ip;
};

// What IssueTokenAsync answers: IssueToken's result, or kRateLimited (too many failures of the
// client id or the address) or kUnavailable (the check queue is full) with the whole seconds
// after which a retry may be checked.
struct TokenAnswer {
  Result<IssuedToken> issued;
  int64_t retry_after_seconds = 0;
};

class AuthService {
 public:
  // Everything given must outlive the service. Computes the dummy hash (one PBKDF2 run).
  AuthService(commands::ClientCommandHandler& clients,
              const projections::ClientDirectory& directory, const TokenCodec& codec,
              const TokenAuthenticator& authenticator, AuthServiceOptions options = {},
              const Clock& clock = SystemClock::Instance(),
              IdGenerator& ids = RandomIdGenerator::Instance());

  // kInvalidClient for an unknown client or a wrong secret, alike. With `scope`, the token
  // carries only those permissions: kPermissionDenied (after the credentials are checked) when
  // the client does not hold each of them. Without, every permission of the client.
  Result<IssuedToken> IssueToken(std::string_view client_id, std::string_view client_secret,
                                 const std::vector<std::string>* scope = nullptr) const;
  // IssueToken for an anonymous caller, answered through `done` exactly once: at once when
  // refused, else from a check thread. Only kInvalidClient counts as a failure.
  void IssueTokenAsync(TokenRequest request, std::function<void(TokenAnswer)> done);
  // {"active":true, clientId, organizationId, scope, exp, iat, tokenType} for an active token of
  // the caller's organization; {"active":false} for anything else.
  boost::json::object Introspect(const Principal& caller, std::string_view token) const;
  // Revokes an active token of the caller's organization. Anything else (malformed, forged,
  // expired, already revoked, another organization's) succeeds without writing (RFC 7009).
  Status Revoke(const Principal& caller, std::string_view token, const eventstore::Actor& actor);

 private:
  commands::ClientCommandHandler& clients_;
  const projections::ClientDirectory& directory_;
  const TokenCodec& codec_;
  const TokenAuthenticator& authenticator_;
  const AuthServiceOptions options_;
  const Clock& clock_;
  IdGenerator& ids_;
  std::string dummy_hash_;
  AuthFailureThrottle throttle_;
  // Last: destroyed first, so the checks still queued run while everything else is alive.
  std::unique_ptr<WorkQueue> checks_;
};

}  // namespace esign::http
