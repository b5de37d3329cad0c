// DeliveryFollower: contractd's side of dispatchers that run outside it (`contractd dispatcher`).
// It reads the topic webhook-deliveries (delivery_topics.h) in a consumer group of its own and
// applies each record: a delivery goes into contractd's DeliveryStore, which the deliveries list
// reads; a disable request disables the endpoint in the log. An offset is committed only once its
// record is applied, so a restart applies again at most what was in flight (both are idempotent).
// A message without a valid contractd-mac (message_auth.h) changes nothing: only a dispatcher
// holding the message key can record a delivery or disable an endpoint.
//
// Two members may record the same delivery around a rebalance (the old owner's attempt in flight,
// the new owner's first one): the record with more attempts wins, and of two with as many, the
// later one.
// Thread safety: Stop may be called from any thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "delivery/delivery_store.h"
#include "webhooks/kafka_config.h"
#include "webhooks/message_auth.h"

namespace esign::webhooks {

struct DeliveryFollowerOptions {
  std::string brokers;  // required
  MessageAuth auth;     // checks every message; required
  // Default: webhook-deliveries.
  std::string topic = "webhook-deliveries";
  // Default: contractd-deliveries.
  std::string group = "contractd-deliveries";
  KafkaSettings settings;  // more consumer settings, applied last (tests)
};

struct DeliveryFollowerDeps {
  delivery::DeliveryStore& deliveries;
  std::function<Status(std::string_view endpoint_id, std::string_view reason)> disable;
};

class DeliveryFollower {
 public:
  static Result<std::unique_ptr<DeliveryFollower>> Start(DeliveryFollowerDeps deps,
                                                         const DeliveryFollowerOptions& options);
  ~DeliveryFollower();  // Stop
  DeliveryFollower(const DeliveryFollower&) = delete;
  DeliveryFollower& operator=(const DeliveryFollower&) = delete;
  void Stop();

 private:
  DeliveryFollower(DeliveryFollowerDeps deps, MessageAuth auth)
      : deps_(std::move(deps)), gate_(std::move(auth), "contractd: webhook deliveries") {}
  void Run(const std::stop_token& stop);
  Status Apply(std::string_view value);

  DeliveryFollowerDeps deps_;
  MessageGate gate_;  // the thread's
  KafkaHandle consumer_;
  std::jthread thread_;
};

}  // namespace esign::webhooks
