#include "http/auth_module.h"

#include "http/auth_routes.h"
#include "http/auth_token_key.h"

namespace esign::http {

Result<std::unique_ptr<AuthModule>> AuthModule::Create(
    eventstore::EventStore& store, const std::filesystem::path& data_dir,
    commands::ClientCommandHandler::WaitApplied wait_applied, AuthServiceOptions options) {
  auto key = LoadOrCreateTokenKey(data_dir / kTokenKeyFileName);
  if (!key) return Fail(key.error());
  auto codec = TokenCodec::Create(*key);
  if (!codec) return Fail(codec.error());
  std::unique_ptr<AuthModule> module(new AuthModule());
  module->codec_ = std::move(*codec);
  module->authenticator_ =
      std::make_unique<TokenAuthenticator>(*module->codec_, module->directory_);
  module->clients_ = std::make_unique<commands::ClientCommandHandler>(
      store, std::move(wait_applied), RandomIdGenerator::Instance(), SystemClock::Instance());
  module->service_ = std::make_unique<AuthService>(
      *module->clients_, module->directory_, *module->codec_, *module->authenticator_, options);
  return module;
}

void AuthModule::AddRoutes(ApiRoutes& routes) { AddAuthRoutes(routes, *service_); }

}  // namespace esign::http
