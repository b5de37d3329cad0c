// AuthService: the three operations of the authentication family, without HTTP (auth_routes.h
// maps them to routes).
//   IssueToken   client credentials -> an access token (OAuth 2 client credentials grant)
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
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "commands/client_commands.h"
#include "domain/clock.h"
#include "domain/id_generator.h"
#include "http/api.h"
#include "http/auth_authenticator.h"
#include "http/auth_tokens.h"
#include "projections/client_directory.h"

namespace esign::http {

struct AuthServiceOptions {
  // Lifetime of an access token, in seconds. Default: 3600.
  int64_t token_lifetime_seconds = 3600;
  // PBKDF2 cost of the dummy hash that unknown client ids are checked against; the same as the
  // clients' hashes, so that both answers take as long. Default: kDefaultPbkdf2Iterations.
  int pbkdf2_iterations = commands::kDefaultPbkdf2Iterations;
};

struct IssuedToken {
  std::string access_token;
  int64_t expires_in = 0;  // seconds
  std::string scope;       // space-separated permissions
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
};

}  // namespace esign::http
