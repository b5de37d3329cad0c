// WebhookDelivery: webhook delivery as one piece, started the same way by contractd, by a
// `contractd dispatcher` process and by benchmarks/webhook_bench (docs/webhooks.md). It owns
// what it starts, by role:
//   kInProcess       contractd delivers: a Dispatcher (dispatcher.h) with a sender; an endpoint
//                    is disabled through deps.disable; the delivery store is the whole record.
//   kFollowExternal  `contractd dispatcher` processes deliver: a DeliveryFollower
//                    (delivery_follower.h) applies what they record and the disables they ask
//                    for (deps.disable); no dispatcher runs here.
//   kExternal        a `contractd dispatcher` process: a Dispatcher whose every recorded delivery
//                    and every disable request goes to the topic webhook-deliveries, for
//                    contractd's follower (delivery_topics.h).
// Every role has a writer to Kafka: for kExternal it carries the records, for the others the
// retry requests of RequestRetry (the retry operation), which the dispatcher owning the
// contract's partition carries out.
//
// Thread safety: Wake and RequestRetry may be called from any thread, also while Stop runs; Stop
// from one thread at a time. The deps must outlive the object.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "delivery/delivery_store.h"
#include "domain/clock.h"
#include "domain/result.h"
#include "webhooks/delivery_follower.h"
#include "webhooks/dispatcher.h"
#include "webhooks/endpoint_directory.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/message_auth.h"
#include "webhooks/topic_writer.h"
#include "webhooks/webhook_sender.h"

namespace esign::webhooks {

enum class DeliveryRole { kInProcess, kFollowExternal, kExternal };

struct WebhookDeliveryDeps {
  const EndpointDirectory& directory;
  EndpointSecrets& secrets;
  delivery::DeliveryStore& deliveries;
  const Clock& clock;
  // kInProcess, kFollowExternal: disables an endpoint in the log, giving the reason.
  std::function<Status(std::string_view endpoint_id, std::string_view reason)> disable;
  // kInProcess, kExternal: DispatcherDeps::wait_for_directory.
  std::function<bool(uint64_t position)> wait_for_directory;
};

struct WebhookDeliveryOptions {
  DeliveryRole role = DeliveryRole::kInProcess;
  std::string brokers;  // required
  // Signs what is written, checks what is read (message_auth.h). Required.
  MessageAuth auth;
  // The sender of kInProcess and kExternal. Default: Beast's defaults, no loopback.
  BeastSenderOptions sender;
};

class WebhookDelivery {
 public:
  // Starts the role's parts; nothing runs when one fails.
  static Result<std::unique_ptr<WebhookDelivery>> Start(WebhookDeliveryDeps deps,
                                                        const WebhookDeliveryOptions& options);
  ~WebhookDelivery();  // Stop
  WebhookDelivery(const WebhookDelivery&) = delete;
  WebhookDelivery& operator=(const WebhookDelivery&) = delete;

  // Stops the dispatcher (its attempts in flight are recorded first) or the follower. Idempotent.
  void Stop();
  // An endpoint changed (enabled, disabled, deleted, secret rotated): its lane looks again.
  void Wake();
  // Dispatcher::offsets_out_of_range; 0 for a follower.
  uint64_t offsets_out_of_range() const;

  // The retry operation: the delivery, if its endpoint belongs to `organization_id`, made due
  // again in a new round of the schedule and written as a retry request; the delivery as
  // requested. kNotFound for a delivery of another organization or none, kUnavailable when
  // stopped or when Kafka does not take the request.
  Result<delivery::Delivery> RequestRetry(std::string_view delivery_id,
                                          std::string_view organization_id);

 private:
  explicit WebhookDelivery(WebhookDeliveryDeps deps) : deps_(std::move(deps)) {}

  const WebhookDeliveryDeps deps_;
  std::atomic<bool> stopped_{false};
  // Declared before what writes with it or sends with it, so destroyed after them.
  std::unique_ptr<TopicWriter> writer_;
  std::unique_ptr<WebhookSender> sender_;
  std::unique_ptr<Dispatcher> dispatcher_;
  std::unique_ptr<DeliveryFollower> follower_;
};

}  // namespace esign::webhooks
