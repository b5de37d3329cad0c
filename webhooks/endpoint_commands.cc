#include "webhooks/endpoint_commands.h"

namespace esign::webhooks {
namespace {

std::unexpected<Error> NotFound(std::string_view id) {
  return Fail(ErrorCode::kWebhookEndpointNotFound, "no webhook endpoint " + std::string(id), "id",
              std::string(id));
}

}  // namespace

EndpointCommands::EndpointCommands(eventstore::EventStore& store, EndpointSecrets& secrets,
                                   IdGenerator& ids, const Clock& clock, UrlPolicy policy,
                                   std::function<void(std::string_view, uint64_t)> wrote)
    : store_(store),
      secrets_(secrets),
      ids_(ids),
      clock_(clock),
      policy_(policy),
      wrote_(std::move(wrote)) {}

Result<WebhookEndpoint> EndpointCommands::Get(const EndpointCaller& caller,
                                              std::string_view id) const {
  if (!id.starts_with("whe_")) return NotFound(id);
  auto events = store_.ReadStream(EndpointStreamId(id), StreamVersion(1), SIZE_MAX);
  if (!events) return std::unexpected(events.error());
  auto endpoint = ReplayEndpoint(*events);
  if (!endpoint) return std::unexpected(endpoint.error());
  if (!*endpoint || (*endpoint)->deleted ||
      (*endpoint)->organization_id != caller.organization_id) {
    return NotFound(id);
  }
  return std::move(**endpoint);
}

Status EndpointCommands::Append(const EndpointCaller& caller, const WebhookEndpoint& endpoint,
                                std::string_view type, std::string data,
                                WebhookEndpoint* applied_to) {
  std::vector<eventstore::NewEvent> events;
  events.push_back({ids_.Next("evt_"), std::string(type), 1, std::move(data), caller.actor});
  const auto expected = endpoint.version == 0
                            ? eventstore::ExpectedVersion::NoStream()
                            : eventstore::ExpectedVersion::Exactly(StreamVersion(endpoint.version));
  auto appended = store_.Append(EndpointStreamId(endpoint.id), expected, events);
  if (!appended) return std::unexpected(appended.error());
  if (wrote_) wrote_(caller.actor.client_id, appended->first_position.value() + appended->count);
  if (applied_to != nullptr) {
    eventstore::EventRecord record;
    record.position = appended->first_position;
    record.version = appended->version;
    record.type = events.front().type;
    record.data = events.front().data;
    return ApplyEndpointEvent(*applied_to, record);
  }
  return {};
}

Result<EndpointCommands::Created> EndpointCommands::Create(const EndpointCaller& caller,
                                                           const boost::json::object& body) {
  auto fields = ParseCreateEndpoint(body, policy_);
  if (!fields) return std::unexpected(fields.error());
  WebhookEndpoint endpoint;
  endpoint.id = ids_.Next("whe_");
  endpoint.organization_id = caller.organization_id;
  endpoint.url = *fields->url;
  endpoint.event_types = *fields->event_types;
  endpoint.description = fields->description.value_or("");
  endpoint.enabled = fields->enabled.value_or(true);
  endpoint.created_at = eventstore::FormatTimestamp(clock_.NowMicros());
  // The secret first: an endpoint in the log always has one (a failed append leaves a file that
  // no endpoint names, removed below).
  auto secret = secrets_.Create(endpoint.id);
  if (!secret) return std::unexpected(secret.error());
  WebhookEndpoint created;
  if (auto appended =
          Append(caller, endpoint, kEndpointCreated, EndpointCreatedData(endpoint), &created);
      !appended) {
    (void)secrets_.Remove(endpoint.id);
    return std::unexpected(appended.error());
  }
  return Created{std::move(created), std::move(*secret)};
}

Result<WebhookEndpoint> EndpointCommands::Update(const EndpointCaller& caller, std::string_view id,
                                                 const boost::json::object& body) {
  auto endpoint = Get(caller, id);
  if (!endpoint) return endpoint;
  auto fields = ParseUpdateEndpoint(body, policy_);
  if (!fields) return std::unexpected(fields.error());
  auto data =
      EndpointUpdatedData(*endpoint, *fields, eventstore::FormatTimestamp(clock_.NowMicros()));
  if (!data) return endpoint;  // nothing changes: no event
  WebhookEndpoint updated = *endpoint;
  if (auto appended = Append(caller, *endpoint, kEndpointUpdated, std::move(*data), &updated);
      !appended) {
    return std::unexpected(appended.error());
  }
  return updated;
}

Status EndpointCommands::Delete(const EndpointCaller& caller, std::string_view id) {
  auto endpoint = Get(caller, id);
  if (!endpoint) return std::unexpected(endpoint.error());
  const std::string data = boost::json::serialize(
      boost::json::object{{"deletedAt", eventstore::FormatTimestamp(clock_.NowMicros())}});
  if (auto appended = Append(caller, *endpoint, kEndpointDeleted, data, nullptr); !appended) {
    return appended;
  }
  return secrets_.Remove(endpoint->id);
}

Result<EndpointCommands::Rotated> EndpointCommands::RotateSecret(const EndpointCaller& caller,
                                                                 std::string_view id) {
  auto endpoint = Get(caller, id);
  if (!endpoint) return std::unexpected(endpoint.error());
  const int64_t now = clock_.NowMicros();
  // The secret first, so the one returned is always the one in effect.
  auto rotation = secrets_.Rotate(endpoint->id, now, kSecretOverlapMicros);
  if (!rotation) return std::unexpected(rotation.error());
  const std::string expires = eventstore::FormatTimestamp(rotation->previous_expires_at);
  const std::string data = boost::json::serialize(boost::json::object{
      {"rotatedAt", eventstore::FormatTimestamp(now)}, {"previousSecretExpiresAt", expires}});
  WebhookEndpoint rotated = *endpoint;
  if (auto appended = Append(caller, *endpoint, kEndpointSecretRotated, data, &rotated);
      !appended) {
    return std::unexpected(appended.error());
  }
  return Rotated{std::move(rotated), std::move(rotation->secret), expires};
}

}  // namespace esign::webhooks

namespace esign::webhooks {

Status EndpointCommands::Disable(std::string_view id, std::string_view reason) {
  auto events = store_.ReadStream(EndpointStreamId(id), StreamVersion(1), SIZE_MAX);
  if (!events) return std::unexpected(events.error());
  auto endpoint = ReplayEndpoint(*events);
  if (!endpoint) return std::unexpected(endpoint.error());
  if (!*endpoint || (*endpoint)->deleted) return NotFound(id);
  if (!(*endpoint)->enabled) return {};
  const std::string data = boost::json::serialize(
      boost::json::object{{"enabled", false},
                          {"disabledReason", reason},
                          {"updatedAt", eventstore::FormatTimestamp(clock_.NowMicros())}});
  const EndpointCaller system{(*endpoint)->organization_id,
                              eventstore::Actor{.client_id = "contractd-dispatcher"}};
  return Append(system, **endpoint, kEndpointUpdated, data, nullptr);
}

}  // namespace esign::webhooks
