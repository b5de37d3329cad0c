// Dispatcher: the webhook dispatcher, a member of the Kafka consumer group "webhook-dispatcher"
// on the topic contract-events.
//
// Intake (one thread): for each lifecycle event read (delivery_message.h) it finds the endpoints
// of the organization that controls the contract, enabled or not, created before the event, that
// want its type, and records one pending delivery per endpoint (DeliveryStore, synced). Only then
// does it store the message's offset, which the consumer commits: a crash before that reads the
// message again, and the delivery ids (derived from endpoint and event) keep it from being
// recorded or delivered twice.
//
// Lanes (one thread per endpoint with deliveries): each sends its endpoint's pending deliveries
// one at a time, in log order (so per contract in order), retrying the head with the schedule of
// retry_schedule.h; a slow or failing endpoint holds back only its own lane. 2xx is success. 410
// disables the endpoint, as does exhausting the schedule; a disabled endpoint keeps its pending
// deliveries and its lane resumes when an update enables it (the directory wakes the lanes).
// Every attempt is recorded on the delivery.
//
// Thread safety: Stop, Retry and Wake may be called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "domain/clock.h"
#include "webhooks/delivery_store.h"
#include "webhooks/endpoint_commands.h"
#include "webhooks/endpoint_directory.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/kafka_config.h"
#include "webhooks/webhook_sender.h"

namespace esign::webhooks {

struct DispatcherOptions {
  std::string brokers;  // required
  // Default: contract-events.
  std::string topic = "contract-events";
  // Default: webhook-dispatcher.
  std::string group = "webhook-dispatcher";
  // Messages recorded together in one synced write. Default: 512.
  size_t intake_batch = 512;
  // More librdkafka consumer settings (tests). Default: none.
  KafkaSettings settings;
};

struct DispatcherDeps {
  const EndpointDirectory& directory;
  EndpointSecrets& secrets;
  DeliveryStore& deliveries;
  EndpointCommands& commands;  // disables endpoints
  WebhookSender& sender;
  const Clock& clock;
  // The organization that controls a contract; nothing when unknown.
  std::function<std::optional<std::string>(std::string_view contract_id)> controller_of;
  // Blocks until the endpoint directory has applied the log up to `size` events.
  std::function<bool(uint64_t size)> wait_for_directory;
};

class Dispatcher {
 public:
  static Result<std::unique_ptr<Dispatcher>> Start(DispatcherDeps deps, DispatcherOptions options);
  ~Dispatcher();  // Stop
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  void Stop();
  // Re-examines every lane's endpoint (it changed).
  void Wake();
  // Schedules a delivery of `organization_id`'s endpoint now, in a new round of the schedule,
  // whatever its state; kNotFound when it is not that organization's.
  Result<Delivery> Retry(std::string_view delivery_id, std::string_view organization_id);

 private:
  class Lane;
  Dispatcher(DispatcherDeps deps, DispatcherOptions options);
  void RunIntake(const std::stop_token& stop);
  Status Record(const std::vector<std::string>& values);
  // The endpoint's lane, created with `pending` when it has none yet.
  Lane& LaneOf(const std::string& endpoint_id, std::vector<Delivery> pending = {});

  DispatcherDeps deps_;
  const DispatcherOptions options_;
  KafkaHandle consumer_;
  std::mutex lanes_mutex_;
  std::map<std::string, std::unique_ptr<Lane>> lanes_;  // guarded by lanes_mutex_
  std::jthread intake_;
};

}  // namespace esign::webhooks
