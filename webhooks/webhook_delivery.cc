#include "webhooks/webhook_delivery.h"

#include "webhooks/delivery_topics.h"

namespace esign::webhooks {
namespace {

// Writes a dispatcher's records for contractd (kExternal).
std::function<Status(const std::vector<delivery::Delivery>&)> RecordOn(TopicWriter& writer) {
  return [&writer](const std::vector<delivery::Delivery>& changed) {
    std::vector<TopicMessage> messages;
    messages.reserve(changed.size());
    for (const delivery::Delivery& d : changed) messages.push_back(DeliveryRecordMessage(d));
    return writer.Write(messages);
  };
}

std::function<Status(std::string_view, std::string_view)> RequestDisableOn(TopicWriter& writer) {
  return [&writer](std::string_view endpoint_id, std::string_view reason) {
    return writer.Write({DisableRequestMessage(endpoint_id, reason)});
  };
}

}  // namespace

Result<std::unique_ptr<WebhookDelivery>> WebhookDelivery::Start(
    WebhookDeliveryDeps deps, const WebhookDeliveryOptions& options) {
  std::unique_ptr<WebhookDelivery> delivery(new WebhookDelivery(std::move(deps)));
  const bool external = options.role == DeliveryRole::kExternal;
  auto writer = TopicWriter::Start(
      {.brokers = options.brokers,
       .auth = options.auth,
       .client_id = external ? "contractd-dispatcher-records" : "contractd-retries",
       .topics = {std::string(external ? kDeliveriesTopic : kRetriesTopic)}});
  if (!writer) return std::unexpected(writer.error());
  delivery->writer_ = std::move(*writer);
  const WebhookDeliveryDeps& d = delivery->deps_;
  if (options.role == DeliveryRole::kFollowExternal) {
    auto follower = DeliveryFollower::Start({d.deliveries, d.disable},
                                            {.brokers = options.brokers, .auth = options.auth});
    if (!follower) return std::unexpected(follower.error());
    delivery->follower_ = std::move(*follower);
    return delivery;
  }
  delivery->sender_ = MakeBeastSender(options.sender);
  DispatcherOptions dispatcher_options;
  dispatcher_options.brokers = options.brokers;
  dispatcher_options.auth = options.auth;
  auto dispatcher = Dispatcher::Start(
      DispatcherDeps{
          .directory = d.directory,
          .secrets = d.secrets,
          .deliveries = d.deliveries,
          .sender = *delivery->sender_,
          .clock = d.clock,
          .disable = external ? RequestDisableOn(*delivery->writer_) : d.disable,
          .wait_for_directory = d.wait_for_directory,
          .recorded = external ? RecordOn(*delivery->writer_)
                               : std::function<Status(const std::vector<delivery::Delivery>&)>()},
      std::move(dispatcher_options));
  if (!dispatcher) return std::unexpected(dispatcher.error());
  delivery->dispatcher_ = std::move(*dispatcher);
  return delivery;
}

WebhookDelivery::~WebhookDelivery() { Stop(); }

void WebhookDelivery::Stop() {
  stopped_.store(true);
  // An attempt's record still being written gets this long; past it the attempt stays unsettled
  // and its message goes to the next owner (a stop is bounded, docs/operations.md).
  if (writer_) writer_->StopWithin(std::chrono::seconds(2));
  if (dispatcher_) dispatcher_->Stop();
  if (follower_) follower_->Stop();
}

void WebhookDelivery::Wake() {
  if (dispatcher_) dispatcher_->Wake();
}

uint64_t WebhookDelivery::offsets_out_of_range() const {
  return dispatcher_ ? dispatcher_->offsets_out_of_range() : 0;
}

Result<delivery::Delivery> WebhookDelivery::RequestRetry(std::string_view delivery_id,
                                                         std::string_view organization_id) {
  auto stored = deps_.deliveries.Get(delivery_id);
  if (!stored) return std::unexpected(stored.error());
  const auto endpoint = *stored ? deps_.directory.Find((*stored)->destination_id) : std::nullopt;
  if (!endpoint || endpoint->organization_id != organization_id) {
    return Fail(ErrorCode::kNotFound, "no delivery " + std::string(delivery_id), "deliveryId",
                std::string(delivery_id));
  }
  if (stopped_.load()) return Fail(ErrorCode::kUnavailable, "webhook delivery is stopped");
  delivery::Delivery retried = RetriedNow(std::move(**stored), deps_.clock.NowMicros());
  if (auto written = writer_->Write({RetryRequestMessage(retried)}); !written) {
    return std::unexpected(written.error());
  }
  return retried;
}

}  // namespace esign::webhooks
