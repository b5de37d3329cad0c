#include "commands/endpoint_commands.h"

#include "base/time_text.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/stream_kinds.h"

namespace esign::commands {

using webhooks::ApplyEndpointEvent;
using webhooks::EndpointCreatedData;
using webhooks::EndpointFields;
using webhooks::EndpointSecrets;
using webhooks::EndpointUpdatedData;
using webhooks::kEndpointCreated;
using webhooks::kEndpointDeleted;
using webhooks::kEndpointSecretRotated;
using webhooks::kEndpointUpdated;
using webhooks::kMaxEndpointsPerOrganization;
using webhooks::kSecretOverlapMicros;
using webhooks::ParseCreateEndpoint;
using webhooks::ParseUpdateEndpoint;
using webhooks::ReplayEndpoint;
using webhooks::WebhookEndpoint;

namespace {

std::unexpected<Error> NotFound(std::string_view id) {
  return Fail(ErrorCode::kWebhookEndpointNotFound, "no webhook endpoint " + std::string(id), "id",
              std::string(id));
}

// The endpoint as `version` of its stream left it, with that version's event.
struct EndpointAt {
  WebhookEndpoint endpoint;
  eventstore::EventRecord last;
};
Result<EndpointAt> LoadAt(const eventstore::EventStore& store, const EndpointCaller& caller,
                          std::string_view id, uint64_t version) {
  auto events = store.ReadStream(EndpointStreamId(id), StreamVersion(1), version);
  if (!events) return std::unexpected(events.error());
  auto endpoint = ReplayEndpoint(*events);
  if (!endpoint) return std::unexpected(endpoint.error());
  if (!*endpoint || (*endpoint)->organization_id != caller.organization_id) return NotFound(id);
  return EndpointAt{std::move(**endpoint), std::move(events->back())};
}

// The secret in effect; nullopt once the endpoint is deleted (its file removed).
Result<std::optional<EndpointSecrets::Current>> CurrentSecret(const EndpointSecrets& secrets,
                                                              std::string_view id) {
  auto current = secrets.CurrentOf(id);
  if (current) return std::move(*current);
  if (current.error().code == ErrorCode::kNotFound) return std::nullopt;
  return std::unexpected(current.error());
}

// The version a reserved request left the endpoint at: completed, or appended before a crash
// (recorded as completed now); nullopt when it has not been carried out.
Result<std::optional<uint64_t>> DoneVersion(eventstore::EventStore& store,
                                            const EndpointCaller& caller,
                                            const eventstore::IdempotencyReservation& reservation) {
  if (reservation.completed_version) return reservation.completed_version;
  auto seeded =
      eventstore::FindSeededVersion(store, EndpointStreamId(reservation.resource_id), reservation);
  if (!seeded || !*seeded) return seeded;
  if (auto completed =
          eventstore::CompleteIdempotencyKey(store, reservation, **seeded, caller.actor);
      !completed) {
    return std::unexpected(completed.error());
  }
  return seeded;
}

// An operation with an Idempotency-Key: reserves the key for `endpoint_id`; answers
// `replay(id, version)` when the request was carried out already, else `once(id, event id)` with
// the event id the key seeds, and records its outcome.
template <class Outcome, class Once, class Replay>
Result<Outcome> WithKey(eventstore::EventStore& store, const EndpointCaller& caller,
                        const eventstore::IdempotentRequest& request, std::string endpoint_id,
                        const Once& once, const Replay& replay) {
  auto reservation =
      eventstore::ReserveIdempotencyKey(store, request, "endpointId", std::move(endpoint_id));
  if (!reservation) return std::unexpected(reservation.error());
  auto done = DoneVersion(store, caller, *reservation);
  if (!done) return std::unexpected(done.error());
  if (*done) return replay(reservation->resource_id, **done);
  Result<Outcome> outcome =
      once(reservation->resource_id, eventstore::SeededEventId(*reservation, 0));
  if (!outcome) return outcome;
  if (auto completed = eventstore::CompleteIdempotencyKey(store, *reservation,
                                                          outcome->endpoint.version, caller.actor);
      !completed) {
    return std::unexpected(completed.error());
  }
  return outcome;
}

}  // namespace

EndpointCommands::EndpointCommands(eventstore::EventStore& store, EndpointSecrets& secrets,
                                   webhooks::UrlPolicy policy, LiveEndpointCounter live_endpoints,
                                   RecordWrite record_write, IdGenerator& ids, const Clock& clock)
    : store_(store),
      secrets_(secrets),
      policy_(policy),
      live_endpoints_(std::move(live_endpoints)),
      record_write_(std::move(record_write)),
      ids_(ids),
      clock_(clock) {}

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
                                WebhookEndpoint* applied_to, std::string event_id) {
  std::vector<eventstore::NewEvent> events;
  if (event_id.empty()) event_id = ids_.Next("evt_");
  events.push_back({std::move(event_id), std::string(type), 1, std::move(data), caller.actor});
  const auto expected = endpoint.version == 0
                            ? eventstore::ExpectedVersion::NoStream()
                            : eventstore::ExpectedVersion::Exactly(StreamVersion(endpoint.version));
  auto appended = store_.Append(EndpointStreamId(endpoint.id), expected, events);
  if (!appended) return std::unexpected(appended.error());
  if (record_write_) {
    record_write_(caller.actor.client_id, caller.organization_id,
                  appended->first_position.value() + appended->count);
  }
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

Result<EndpointCommands::Created> EndpointCommands::Create(
    const EndpointCaller& caller, const boost::json::object& body,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  auto fields = ParseCreateEndpoint(body, policy_);
  if (!fields) return std::unexpected(fields.error());
  if (!idempotency) return CreateOnce(caller, *fields, ids_.Next("whe_"), "");
  std::lock_guard lock(idempotent_);
  return WithKey<Created>(
      store_, caller, *idempotency, ids_.Next("whe_"),
      [&](const std::string& id, std::string event_id) {
        return CreateOnce(caller, *fields, id, std::move(event_id));
      },
      [&](const std::string& id, uint64_t version) { return ReplayCreated(caller, id, version); });
}

Result<EndpointCommands::Created> EndpointCommands::CreateOnce(const EndpointCaller& caller,
                                                               const EndpointFields& fields,
                                                               std::string id,
                                                               std::string event_id) {
  WebhookEndpoint endpoint;
  endpoint.id = std::move(id);
  endpoint.organization_id = caller.organization_id;
  endpoint.url = *fields.url;
  endpoint.event_types = *fields.event_types;
  endpoint.description = fields.description.value_or("");
  endpoint.enabled = fields.enabled.value_or(true);
  endpoint.created_at = FormatTimestamp(clock_.NowMicros());
  std::lock_guard lock(creating_);
  auto live = live_endpoints_(caller.organization_id);
  if (!live) return std::unexpected(live.error());
  if (*live >= kMaxEndpointsPerOrganization) {
    const std::string limit = std::to_string(kMaxEndpointsPerOrganization);
    return Fail(ErrorCode::kValidationFailed,
                "the organization has " + limit + " webhook endpoints, the most it may have",
                "body", "at most " + limit + " endpoints per organization; delete one first");
  }
  // The secret first: an endpoint in the log always has one (a failed append leaves a file that
  // no endpoint names, removed below).
  auto secret = secrets_.Create(endpoint.id);
  if (!secret) return std::unexpected(secret.error());
  WebhookEndpoint created;
  if (auto appended = Append(caller, endpoint, kEndpointCreated, EndpointCreatedData(endpoint),
                             &created, std::move(event_id));
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
  auto data = EndpointUpdatedData(*endpoint, *fields, FormatTimestamp(clock_.NowMicros()));
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
      boost::json::object{{"deletedAt", FormatTimestamp(clock_.NowMicros())}});
  if (auto appended = Append(caller, *endpoint, kEndpointDeleted, data, nullptr); !appended) {
    return appended;
  }
  return secrets_.Remove(endpoint->id);
}

Result<EndpointCommands::Rotated> EndpointCommands::RotateSecret(
    const EndpointCaller& caller, std::string_view id,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  if (!idempotency) {
    auto endpoint = Get(caller, id);
    if (!endpoint) return std::unexpected(endpoint.error());
    return RotateOnce(caller, *endpoint, "");
  }
  std::lock_guard lock(idempotent_);
  // Looked up first, so a request for a missing (or deleted) endpoint reserves nothing.
  auto endpoint = Get(caller, id);
  if (!endpoint) return std::unexpected(endpoint.error());
  return WithKey<Rotated>(
      store_, caller, *idempotency, endpoint->id,
      [&](const std::string&, std::string event_id) {
        return RotateOnce(caller, *endpoint, std::move(event_id));
      },
      [&](const std::string& id, uint64_t version) { return ReplayRotated(caller, id, version); });
}

Result<EndpointCommands::Rotated> EndpointCommands::RotateOnce(const EndpointCaller& caller,
                                                               const WebhookEndpoint& endpoint,
                                                               std::string event_id) {
  const int64_t now = clock_.NowMicros();
  // The secret first, so the one returned is always the one in effect.
  auto rotation = secrets_.Rotate(endpoint.id, now, kSecretOverlapMicros);
  if (!rotation) return std::unexpected(rotation.error());
  const std::string expires = FormatTimestamp(rotation->previous_expires_at);
  const std::string data = boost::json::serialize(boost::json::object{
      {"rotatedAt", FormatTimestamp(now)}, {"previousSecretExpiresAt", expires}});
  WebhookEndpoint rotated = endpoint;
  if (auto appended =
          Append(caller, endpoint, kEndpointSecretRotated, data, &rotated, std::move(event_id));
      !appended) {
    return std::unexpected(appended.error());
  }
  return Rotated{std::move(rotated), std::move(rotation->secret), expires};
}

Result<EndpointCommands::Created> EndpointCommands::ReplayCreated(const EndpointCaller& caller,
                                                                  std::string_view id,
                                                                  uint64_t version) const {
  auto at = LoadAt(store_, caller, id, version);
  if (!at) return std::unexpected(at.error());
  auto current = CurrentSecret(secrets_, id);
  if (!current) return std::unexpected(current.error());
  Created created{std::move(at->endpoint), std::nullopt, /*replayed=*/true};
  // The first secret, as long as the file still holds it as the one in effect.
  if (*current && (*current)->rotation_expires_at == 0) created.secret = (*current)->secret;
  return created;
}

Result<EndpointCommands::Rotated> EndpointCommands::ReplayRotated(const EndpointCaller& caller,
                                                                  std::string_view id,
                                                                  uint64_t version) const {
  auto at = LoadAt(store_, caller, id, version);
  if (!at) return std::unexpected(at.error());
  const auto rotation =
      event_codec::AsText<WebhookEndpointSecretRotatedData>(at->last.type, at->last.data);
  if (!rotation || rotation->previous_secret_expires_at.empty()) {
    return Fail(ErrorCode::kCorruption, "the Idempotency-Key of a rotation names no rotation");
  }
  auto current = CurrentSecret(secrets_, id);
  if (!current) return std::unexpected(current.error());
  Rotated rotated{std::move(at->endpoint), std::nullopt, rotation->previous_secret_expires_at,
                  /*replayed=*/true};
  // This rotation's secret, as long as no later rotation replaced it (each rotation leaves its
  // own expiry as the latest in the file).
  if (*current &&
      FormatTimestamp((*current)->rotation_expires_at) == rotated.previous_secret_expires_at) {
    rotated.secret = (*current)->secret;
  }
  return rotated;
}

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
                          {"updatedAt", FormatTimestamp(clock_.NowMicros())}});
  const EndpointCaller system{(*endpoint)->organization_id,
                              eventstore::Actor{.client_id = "contractd-dispatcher"}};
  return Append(system, **endpoint, kEndpointUpdated, data, nullptr);
}

}  // namespace esign::commands
