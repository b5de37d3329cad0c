// The signing family's wiring: the routes, completion's signed PDF, and signing providers.
#include "app/service.h"
#include "http/provider_callback_routes.h"
#include "http/signing_routes.h"

namespace esign::app {
namespace {

// How long a hosted link waits for the read side to index a session created a moment ago.
constexpr auto kSessionIndexWait = std::chrono::seconds(5);

}  // namespace

Status Service::AddSigning(const ServeConfig& config) {
  providers_ = std::make_unique<ProviderRegistry>(config.data_dir);
  if (auto opened = OpenProviderNotices(config); !opened) return opened;
  // The participant's providerConfigRef names its provider; without one, the only provider.
  auto resolve_provider = [this](const Participant& signer) -> std::string {
    if (signer.provider_config_ref) {
      return providers_->Find(*signer.provider_config_ref) ? *signer.provider_config_ref : "";
    }
    auto ids = providers_->Ids();
    return ids.size() == 1 ? ids.front() : "";
  };
  if (!config.tsa_url.empty()) {
    auto authority = documents::TimestampAuthority::Create(
        {.url = config.tsa_url,
         .ca_file = config.tsa_ca_file,
         .timeout = std::chrono::milliseconds(config.tsa_timeout_ms)});
    if (!authority) return std::unexpected(authority.error());
    timestamp_authority_ = std::move(*authority);
    documents_->SetTimestampAuthority(timestamp_authority_.get());
    evidence_commands_->SetTrustedTimestampCa(timestamp_authority_->trusted_ca_pem());
    store_->ledger().SetTimestamper(
        documents::TreeHeadTimestamperOn(*timestamp_authority_, clock_));
  }
  contract_commands_->SetSealDocument(
      [this](const ContractState& state, const documents::Completion& completion) {
        return documents_->Seal(state, completion);
      });
  // The providers hear of their sessions from the log (provider_notices.h).
  contract_commands_->SetProviders(resolve_provider, {});
  page_images_ = std::make_unique<documents::PageImages>(store_->blobs());
  http::SigningRoutesDeps deps{
      .commands = *contract_commands_,
      .sessions = *session_index_,
      .catch_up = [this] { projector_->WaitFor(store_->Size(), kSessionIndexWait); },
      .blobs = store_->blobs(),
      .templates = [this](std::string_view id) { return template_catalog_.Find(id); },
      .ids = RandomIdGenerator::Instance(),
      .clock = clock_,
      .resolve_provider = resolve_provider,
      .public_origin = [this, config] { return PublicOrigin(config); },
      .signer_secrets = signer_secrets_.get(),
      .page_images = page_images_.get(),
      .organization =
          [this](std::string_view organization_id) {
            return commands::ReadOrganization(*store_, organization_id);
          }};
  http::AddSigningRoutes(routes_, deps);
  http::AddProviderCallbackRoutes(routes_,
                                  {deps,
                                   [this](const std::string& id) -> std::optional<std::string> {
                                     auto provider = providers_->Find(id);
                                     if (!provider) return std::nullopt;
                                     return provider->secret;
                                   },
                                   SystemClock::Instance()});
  return {};
}

Status Service::OpenProviderNotices(const ServeConfig& config) {
  auto records = delivery::DeliveryStore::Open(config.data_dir, "provider-notices",
                                               /*outbox=*/true, storage_memory_);
  if (!records) return std::unexpected(records.error());
  provider_notice_records_ = std::move(*records);
  // The first start with recorded notices: sessions of earlier runs were told then, in memory.
  auto checkpoint = provider_notice_records_->Checkpoint();
  if (!checkpoint) return Fail(checkpoint.error());
  if (!*checkpoint) return provider_notice_records_->SetCheckpoint(store_->Size());
  return {};
}

Status Service::StartProviderNotices(const ServeConfig& config) {
  provider_sender_ = webhooks::MakeBeastSender({.allow_loopback = true});
  auto notices = ProviderNotices::Start(
      {.store = *store_,
       .records = *provider_notice_records_,
       .providers = *providers_,
       .sender = *provider_sender_,
       .callback_base = [this, config] { return PublicOrigin(config); },
       .clock =
           SystemClock::Instance()});  // the signature's timestamp is checked against real time
  if (!notices) return Fail(notices.error());
  provider_notices_ = std::move(*notices);
  running_provider_notices_.store(provider_notices_.get());
  return {};
}

std::string Service::PublicOrigin(const ServeConfig& config) const {
  if (!config.public_base_url.empty()) return config.public_base_url;
  const std::string& host = config.server.host;
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port());
}

}  // namespace esign::app
