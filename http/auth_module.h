// AuthModule: the authentication family assembled for the service: the client directory (a
// projection the service registers with its projector), the token key of the data directory, the
// token codec, the authenticator the API handler checks bearer tokens with, the client command
// handler (client creation and token revocation) and the three routes.
// Thread safety: after Create, every accessor may be called from any thread; the module must
// outlive the projector it is registered with, the API handler and the routes.
#pragma once

#include <filesystem>
#include <memory>

#include "commands/client_commands.h"
#include "eventstore/event_store.h"
#include "http/api.h"
#include "http/auth_authenticator.h"
#include "http/auth_service.h"
#include "http/auth_tokens.h"
#include "projections/client_directory.h"

namespace esign::http {

class AuthModule {
 public:
  // Loads or creates <data_dir>/token-key. `wait_applied` tells when the directory has applied
  // the log up to a size (the projector's WaitFor). `store` must outlive the module.
  static Result<std::unique_ptr<AuthModule>> Create(
      eventstore::EventStore& store, const std::filesystem::path& data_dir,
      commands::ClientCommandHandler::WaitApplied wait_applied, AuthServiceOptions options = {});

  projections::ClientDirectory& directory() { return directory_; }
  const TokenAuthenticator& authenticator() const { return *authenticator_; }
  AuthService& service() { return *service_; }
  commands::ClientCommandHandler& clients() { return *clients_; }
  // Adds createMachineToken, introspectToken and revokeToken.
  void AddRoutes(ApiRoutes& routes);

 private:
  AuthModule() = default;

  projections::ClientDirectory directory_;
  std::unique_ptr<TokenCodec> codec_;
  std::unique_ptr<TokenAuthenticator> authenticator_;
  std::unique_ptr<commands::ClientCommandHandler> clients_;
  std::unique_ptr<AuthService> service_;
};

}  // namespace esign::http
