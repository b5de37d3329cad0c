// The webhooks family (DESIGN 11): create, list, get, update (PATCH), delete an endpoint and rotate
// its secret. Every operation needs webhooks:manage; an endpoint of another organization answers
// 404 WEBHOOK_ENDPOINT_NOT_FOUND like a missing one.
#pragma once

#include "http/api.h"
#include "projections/cursor.h"
#include "projections/read_your_writes.h"
#include "webhooks/endpoint_commands.h"
#include "webhooks/endpoint_directory.h"

namespace esign::http {

struct WebhookRoutesDeps {
  webhooks::EndpointCommands& commands;
  const webhooks::EndpointDirectory& directory;  // the list
  const projections::ReadYourWrites& read_your_writes;
  projections::CursorCodec cursors;
};

void AddWebhookRoutes(ApiRoutes& routes, const WebhookRoutesDeps& deps);

}  // namespace esign::http
