// The webhooks family (DESIGN 11, 8 operations): create, list, get, update (PATCH), delete an
// endpoint, rotate its secret, list its deliveries with every attempt, retry a delivery. Every
// operation needs webhooks:manage; an endpoint of another organization answers 404
// WEBHOOK_ENDPOINT_NOT_FOUND like a missing one.
#pragma once

#include "commands/endpoint_commands.h"
#include "delivery/delivery_store.h"
#include "http/api.h"
#include "projections/cursor.h"
#include "projections/read_your_writes.h"
#include "webhooks/endpoint_directory.h"

namespace esign::http {

struct WebhookRoutesDeps {
  commands::EndpointCommands& commands;
  const webhooks::EndpointDirectory& directory;  // the list
  const projections::ReadYourWrites& read_your_writes;
  projections::CursorCodec cursors;
  const delivery::DeliveryStore& deliveries;
  // Schedules a manual retry of a delivery of the organization (WebhookDelivery::RequestRetry,
  // webhooks/webhook_delivery.h: a request on webhook-retries for the dispatcher that owns the
  // contract's partition).
  std::function<Result<delivery::Delivery>(std::string_view delivery_id,
                                           std::string_view organization_id)>
      retry;
};

void AddWebhookRoutes(ApiRoutes& routes, const WebhookRoutesDeps& deps);

}  // namespace esign::http
