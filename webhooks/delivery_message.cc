#include "webhooks/delivery_message.h"

#include "base/base64.h"
#include "base/hmac.h"
#include "base/json_pick.h"
#include "base/json_read.h"
#include "base/sha256.h"
#include "webhooks/endpoint.h"

namespace esign::webhooks {
namespace {

constexpr std::string_view kBulkSendCompletedType = "bulk_send.completed";

std::string HashDigits(std::string_view endpoint_id, std::string_view event_id) {
  const std::string input = std::string(endpoint_id) + "/" + std::string(event_id);
  return Sha256Hex(input).substr(0, 32);
}

}  // namespace

bool IsWebhookEventType(std::string_view type) {
  return std::find(kWebhookEventTypes.begin(), kWebhookEventTypes.end(), type) !=
         kWebhookEventTypes.end();
}

std::string_view StatusAfter(std::string_view type) {
  if (type == "contract.created") return "draft";
  if (type == "contract.sent") return "sent";
  if (type == "signer.completed" || type == "contract.signing_in_progress") return "signing";
  if (type == "contract.completed") return "completed";
  if (type == "signer.declined" || type == "contract.declined") return "declined";
  if (type == "contract.voided") return "voided";
  if (type == "contract.expired") return "expired";
  return {};
}

std::optional<LifecycleEvent> ParseLifecycleEvent(std::string_view message_value) {
  // What follows reads only these: the intake does not build the whole message, whose data runs to
  // kilobytes.
  static const JsonPick kRead{.members = {"type", "contractId", "eventId", "time", "position",
                                          "streamVersion", "contractOrganizationId"},
                              .nested = "data",
                              .nested_members = {"participantId", "organizationId", "bulkSendId",
                                                 "state", "rowCount", "sent", "failed", "notSent"}};
  const std::optional<boost::json::object> picked = PickJsonMembers(message_value, kRead);
  if (!picked) return std::nullopt;
  const auto& o = *picked;
  LifecycleEvent event;
  event.type = StringMemberOrEmpty(o, "type");
  event.contract_id = StringMemberOrEmpty(o, "contractId");
  event.event_id = StringMemberOrEmpty(o, "eventId");
  const bool bulk = event.type == kBulkSendCompletedType;
  if (!IsWebhookEventType(event.type) || event.event_id.empty() ||
      event.contract_id.empty() != bulk) {
    return std::nullopt;
  }
  event.time = StringMemberOrEmpty(o, "time");
  const auto number = [&o](std::string_view key) -> uint64_t {
    const auto* v = o.if_contains(key);
    if (v == nullptr) return 0;
    boost::system::error_code number_ec;
    const auto n = v->to_number<uint64_t>(number_ec);
    return number_ec ? 0 : n;
  };
  event.position = number("position");
  event.stream_version = number("streamVersion");
  event.organization_id = StringMemberOrEmpty(o, "contractOrganizationId");
  if (const auto* data = o.if_contains("data"); data != nullptr && data->is_object()) {
    event.participant_id = StringMemberOrEmpty(data->as_object(), "participantId");
    // Messages published before contractOrganizationId existed: contract.created names it; a
    // bulk send's events name their organization.
    if (event.organization_id.empty() && (event.type == "contract.created" || bulk)) {
      event.organization_id = StringMemberOrEmpty(data->as_object(), "organizationId");
    }
    if (bulk) {
      for (const std::string_view key :
           {"bulkSendId", "state", "rowCount", "sent", "failed", "notSent"}) {
        if (const auto* value = data->as_object().if_contains(key)) event.bulk_send[key] = *value;
      }
    }
  }
  if (bulk && !event.bulk_send.contains("bulkSendId")) return std::nullopt;
  return event;
}

std::string DeliveryBody(const LifecycleEvent& event) {
  boost::json::object data = event.contract_id.empty()
                                 ? event.bulk_send
                                 : boost::json::object{{"contractId", event.contract_id}};
  if (const std::string_view status = StatusAfter(event.type); !status.empty()) {
    data["status"] = status;
  }
  data["eventId"] = event.event_id;
  data["position"] = event.position;
  data["streamVersion"] = event.stream_version;
  if (!event.participant_id.empty()) data["participantId"] = event.participant_id;
  return boost::json::serialize(
      boost::json::object{{"type", event.type}, {"timestamp", event.time}, {"data", data}});
}

std::string WebhookMessageId(std::string_view endpoint_id, std::string_view event_id) {
  return "msg_" + HashDigits(endpoint_id, event_id);
}

std::string DeliveryId(std::string_view endpoint_id, std::string_view event_id) {
  return "dlv_" + HashDigits(endpoint_id, event_id);
}

DeliveryIds DeliveryIdsOf(std::string_view endpoint_id, std::string_view event_id) {
  const std::string digits = HashDigits(endpoint_id, event_id);
  return {.delivery_id = "dlv_" + digits, .webhook_id = "msg_" + digits};
}

std::string SignatureHeader(const std::vector<std::string>& secrets, std::string_view message_id,
                            int64_t timestamp_seconds, std::string_view body) {
  std::vector<SigningKey> keys;
  for (const std::string& secret : secrets) {
    if (SigningKey key = MakeSigningKey(secret)) keys.push_back(std::move(key));
  }
  return SignatureHeader(keys, message_id, timestamp_seconds, body);
}

std::string SignatureHeader(const std::vector<SigningKey>& keys, std::string_view message_id,
                            int64_t timestamp_seconds, std::string_view body) {
  std::string signed_content;
  signed_content.reserve(message_id.size() + body.size() + 24);
  signed_content.append(message_id)
      .append(".")
      .append(std::to_string(timestamp_seconds))
      .append(".")
      .append(body);
  std::string header;
  for (const SigningKey& key : keys) {
    if (!header.empty()) header += ' ';
    header += "v1," + Base64Encode(DigestBytes(key->Sign(signed_content)));
  }
  return header;
}

}  // namespace esign::webhooks
