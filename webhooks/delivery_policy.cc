#include "webhooks/delivery_policy.h"

namespace esign::webhooks {

std::vector<delivery::Delivery> RouteEvent(
    const LifecycleEvent& event, const std::vector<WebhookEndpoint>& endpoints_of_its_organization,
    int64_t now_us) {
  std::vector<delivery::Delivery> deliveries;
  std::string body;  // made once, for the first endpoint that wants the event
  for (const WebhookEndpoint& endpoint : endpoints_of_its_organization) {
    if (endpoint.created_position >= event.position || !endpoint.Wants(event.type)) continue;
    if (body.empty()) body = DeliveryBody(event);
    DeliveryIds ids = DeliveryIdsOf(endpoint.id, event.event_id);
    deliveries.push_back(delivery::Delivery{.id = std::move(ids.delivery_id),
                                            .destination_id = endpoint.id,
                                            .webhook_id = std::move(ids.webhook_id),
                                            .event_id = event.event_id,
                                            .event_type = event.type,
                                            .contract_id = event.contract_id,
                                            .position = event.position,
                                            .body = body,
                                            .next_attempt_us = now_us,
                                            .created_us = now_us});
  }
  return deliveries;
}

}  // namespace esign::webhooks
