#include "app/dispatcher_process.h"

#include <atomic>
#include <filesystem>

#include "app/private_data_directory.h"
#include "delivery/delivery_store.h"
#include "domain/clock.h"
#include "webhooks/endpoint_feed.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/message_auth.h"
#include "webhooks/webhook_delivery.h"

namespace esign::app {
namespace {

// How long a batch of events waits for the endpoint topic before it is read again.
constexpr auto kDirectoryWait = std::chrono::seconds(10);

}  // namespace

int RunDispatcher(const DispatcherConfig& config, const sigset_t& stop_signals, std::ostream& err) {
  auto fail = [&err](const Error& error) {
    err << "contractd dispatcher: " << error.message << std::endl;
    return 1;
  };
  if (Status private_dir = RequirePrivateDataDirectory(config.data_dir); !private_dir) {
    return fail(private_dir.error());
  }
  auto secrets = webhooks::EndpointSecrets::OpenReader(config.secrets_dir);
  if (!secrets) return fail(secrets.error());
  // Without contractd's message key no message read could be trusted, nor any written be read.
  auto auth = webhooks::MessageAuth::Load(config.secrets_dir);
  if (!auth) return fail(auth.error());
  auto deliveries = delivery::DeliveryStore::Open(config.data_dir);
  if (!deliveries) return fail(deliveries.error());
  auto feed = webhooks::EndpointFeed::Start({.brokers = config.kafka_brokers, .auth = *auth});
  if (!feed) return fail(feed.error());

  std::atomic<webhooks::WebhookDelivery*> running{nullptr};
  // A changed endpoint may have a rotated secret, or be enabled again.
  (*feed)->directory().SetOnChange([&running, &secrets] {
    (*secrets)->Forget();
    if (auto* delivery = running.load()) delivery->Wake();
  });
  auto delivery = webhooks::WebhookDelivery::Start(
      webhooks::WebhookDeliveryDeps{
          .directory = (*feed)->directory(),
          .secrets = **secrets,
          .deliveries = **deliveries,
          .clock = SystemClock::Instance(),
          .disable = {},  // a request on webhook-deliveries, carried out by contractd
          .wait_for_directory =
              [&feed](uint64_t /*position*/) { return (*feed)->CatchUp(kDirectoryWait); }},
      {.role = webhooks::DeliveryRole::kExternal,
       .brokers = config.kafka_brokers,
       .auth = *auth,
       .sender = {.allow_loopback = config.webhook_allow_loopback}});
  if (!delivery) return fail(delivery.error());
  running.store(delivery->get());
  err << "contractd dispatcher: started (group webhook-dispatcher on " << config.kafka_brokers
      << ", records in " << config.data_dir << ")" << std::endl;

  int signal = 0;
  sigwait(&stop_signals, &signal);
  err << "contractd dispatcher: " << (signal == SIGINT ? "SIGINT" : "SIGTERM")
      << " received, stopping" << std::endl;
  running.store(nullptr);
  // The feed first: an intake waiting for it to catch up (up to kDirectoryWait) gives up at once.
  // Each part stops within a bounded time whatever the cluster does (docs/operations.md).
  (*feed)->Stop();
  (*delivery)->Stop();
  err << "contractd dispatcher: stopped" << std::endl;
  return 0;
}

}  // namespace esign::app
