#include "app/dispatcher_process.h"

#include <atomic>
#include <filesystem>

#include "domain/clock.h"
#include "webhooks/delivery_store.h"
#include "webhooks/delivery_topics.h"
#include "webhooks/dispatcher.h"
#include "webhooks/endpoint_feed.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/message_auth.h"
#include "webhooks/topic_writer.h"
#include "webhooks/webhook_sender.h"

namespace esign::app {
namespace {

// How long a batch of events waits for the endpoint topic before it is routed anyway.
constexpr auto kDirectoryWait = std::chrono::seconds(10);

}  // namespace

int RunDispatcher(const DispatcherConfig& config, const sigset_t& stop_signals, std::ostream& err) {
  auto fail = [&err](const Error& error) {
    err << "contractd dispatcher: " << error.message << std::endl;
    return 1;
  };
  std::error_code ec;
  std::filesystem::create_directories(config.data_dir, ec);
  if (ec) return fail(Error{ErrorCode::kStorage, "cannot create " + config.data_dir});
  auto secrets = webhooks::EndpointSecrets::OpenReader(config.secrets_dir);
  if (!secrets) return fail(secrets.error());
  // Without contractd's message key no message read could be trusted, nor any written be read.
  auto auth = webhooks::MessageAuth::Load(config.secrets_dir);
  if (!auth) return fail(auth.error());
  auto deliveries = webhooks::DeliveryStore::Open(config.data_dir);
  if (!deliveries) return fail(deliveries.error());
  auto writer = webhooks::TopicWriter::Start({.brokers = config.kafka_brokers,
                                              .auth = *auth,
                                              .client_id = "contractd-dispatcher-records"});
  if (!writer) return fail(writer.error());
  auto feed = webhooks::EndpointFeed::Start({.brokers = config.kafka_brokers, .auth = *auth});
  if (!feed) return fail(feed.error());
  const auto sender = webhooks::MakeBeastSender({.allow_loopback = config.webhook_allow_loopback});

  std::atomic<webhooks::Dispatcher*> running{nullptr};
  // A changed endpoint may have a rotated secret, or be enabled again.
  (*feed)->directory().SetOnChange([&running, &secrets] {
    (*secrets)->Forget();
    if (auto* dispatcher = running.load()) dispatcher->Wake();
  });
  webhooks::TopicWriter& records = **writer;
  auto dispatcher = webhooks::Dispatcher::Start(
      webhooks::DispatcherDeps{
          .directory = (*feed)->directory(),
          .secrets = **secrets,
          .deliveries = **deliveries,
          .sender = *sender,
          .clock = SystemClock::Instance(),
          .disable =
              [&records](std::string_view endpoint_id, std::string_view reason) {
                return records.Write({webhooks::DisableRequestMessage(endpoint_id, reason)});
              },
          .wait_for_directory =
              [&feed](uint64_t /*position*/) { return (*feed)->CatchUp(kDirectoryWait); },
          .recorded =
              [&records](const std::vector<webhooks::Delivery>& changed) {
                std::vector<webhooks::TopicMessage> messages;
                messages.reserve(changed.size());
                for (const auto& d : changed)
                  messages.push_back(webhooks::DeliveryRecordMessage(d));
                return records.Write(messages);
              }},
      {.brokers = config.kafka_brokers, .auth = *auth});
  if (!dispatcher) return fail(dispatcher.error());
  running.store(dispatcher->get());
  err << "contractd dispatcher: started (group webhook-dispatcher on " << config.kafka_brokers
      << ", records in " << config.data_dir << ")" << std::endl;

  int signal = 0;
  sigwait(&stop_signals, &signal);
  err << "contractd dispatcher: " << (signal == SIGINT ? "SIGINT" : "SIGTERM")
      << " received, stopping" << std::endl;
  running.store(nullptr);
  (*dispatcher)->Stop();
  (*feed)->Stop();
  err << "contractd dispatcher: stopped" << std::endl;
  return 0;
}

}  // namespace esign::app
