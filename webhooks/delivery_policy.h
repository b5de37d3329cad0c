// What the dispatcher decides about deliveries, pure: which endpoints a lifecycle event goes to.
// The dispatcher (dispatcher.h) does the I/O around it (reads the directory, signs, sends,
// disables, stores, records); what an attempt's outcome means is the delivery core's
// (delivery/attempt_verdict.h), what an HTTP answer means the webhook channel's
// (webhook_outcome.h: 2xx, 410, 429/503 with Retry-After), so both are tested without Kafka, a
// clock or a receiver.
//   routing  an endpoint of the organization that controls the contract, enabled or not, created
//            before the event (at a lower log position), that wants the event's type, gets one
//            pending delivery, due now; ids derived from endpoint and event (delivery_message.h).
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "delivery/attempt_verdict.h"
#include "delivery/delivery_store.h"
#include "webhooks/delivery_message.h"
#include "webhooks/endpoint.h"

namespace esign::webhooks {

// The deliveries the event causes among `endpoints_of_its_organization` (the endpoints of the
// organization that controls its contract), pending and due at `now_us`, in endpoint order; the
// body is made once and shared by all of them.
std::vector<delivery::Delivery> RouteEvent(
    const LifecycleEvent& event, const std::vector<WebhookEndpoint>& endpoints_of_its_organization,
    int64_t now_us);

}  // namespace esign::webhooks
