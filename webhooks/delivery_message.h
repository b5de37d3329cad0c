// What a webhook delivery sends, pure: the Standard Webhooks payload of a lifecycle event, its
// stable ids and its signature.
//   body       {"type":"contract.sent","timestamp":"<the event's time>","data":{contractId, status,
//              eventId, position, streamVersion[, participantId]}}; participant.reminded and
//              signer.authentication_failed have no status (below) and, like the signer events,
//              a participantId
//   webhook-id the same for every attempt, every re-read of the topic and every restart: derived
//              from the endpoint and the event (SHA-256), so receivers can deduplicate by it.
//   webhook-signature  "v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + body)>" for each
//              signing secret (two during a rotation's overlap), separated by spaces; the key is
//              the base64-decoded part of "whsec_<base64>".
// Thread safety: pure functions.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webhooks/signing_keys.h"

namespace esign::webhooks {

// True for the lifecycle event kinds endpoints can receive (kWebhookEventTypes).
bool IsWebhookEventType(std::string_view type);
// The contract's status once the event happened (specification, section 3): draft, sent,
// signing, completed, declined, voided or expired. Empty for participant.reminded and
// signer.authentication_failed: a reminder (or a locked link) leaves the status as it was (sent or
// signing), which the topic's message does not say, so its payload carries no status rather than a
// guessed one.
std::string_view StatusAfter(std::string_view type);

// The lifecycle event read from the topic (docs/events.md), as the dispatcher needs it.
struct LifecycleEvent {
  std::string event_id;
  std::string type;
  uint64_t position = 0;
  uint64_t stream_version = 0;
  std::string contract_id;
  std::string time;             // RFC 3339
  std::string organization_id;  // the controller: contractOrganizationId, else of
                                // contract.created's data, else empty
  std::string participant_id;   // of signer events and participant.reminded, else empty
  // bulk_send.completed, which has no contract (contract_id empty): the job and how it ended,
  // {bulkSendId, state, rowCount, sent, failed, notSent}.
  boost::json::object bulk_send;
};
// nullopt for a message that is not a lifecycle event of a contract or the end of a bulk send.
std::optional<LifecycleEvent> ParseLifecycleEvent(std::string_view message_value);

std::string DeliveryBody(const LifecycleEvent& event);
// "msg_" + 32 hex digits, from the endpoint and the event.
std::string WebhookMessageId(std::string_view endpoint_id, std::string_view event_id);
// "dlv_" + the same digits.
std::string DeliveryId(std::string_view endpoint_id, std::string_view event_id);
struct DeliveryIds {
  std::string delivery_id;  // DeliveryId
  std::string webhook_id;   // WebhookMessageId
};
// Both ids from one hash.
DeliveryIds DeliveryIdsOf(std::string_view endpoint_id, std::string_view event_id);
// The webhook-signature header value; secrets that are not "whsec_<base64>" are skipped.
std::string SignatureHeader(const std::vector<std::string>& secrets, std::string_view message_id,
                            int64_t timestamp_seconds, std::string_view body);
// The same with the secrets' keys (signing_keys.h), as the dispatcher signs.
std::string SignatureHeader(const std::vector<SigningKey>& keys, std::string_view message_id,
                            int64_t timestamp_seconds, std::string_view body);

}  // namespace esign::webhooks
