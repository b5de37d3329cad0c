#include "http/webhook_routes.h"

#include <charconv>

#include "base/time_text.h"
#include "http/contract_routes.h"
#include "projections/list_query.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;
constexpr std::string_view kPermission = "webhooks:manage";

Result<commands::EndpointCaller> Caller(const ApiRequest& request) {
  if (auto allowed = RequirePermission(request, kPermission); !allowed) {
    return std::unexpected(allowed.error());
  }
  return commands::EndpointCaller{request.Caller().organization_id, EventActor(request)};
}

// A replay's secret is null once it is no longer the one in effect (commands/endpoint_commands.h).
boost::json::value SecretJson(const std::optional<std::string>& secret) {
  return secret ? boost::json::value(*secret) : boost::json::value();
}

// The list's parameters: limit (1..200, default 50) and cursor; anything else is refused.
struct ListParams {
  size_t limit = projections::kDefaultListLimit;
  std::string after;
};

Result<ListParams> ParseList(const ApiRequest& request, const projections::CursorCodec& cursors,
                             const std::string& fingerprint) {
  ListParams params;
  Details details;
  for (const auto& [name, value] : request.query) {
    if (name == "limit") {
      if (const auto limit = projections::ParseListLimit(value, details)) params.limit = *limit;
    } else if (name != "cursor") {
      AddDetail(details, name, "unknown parameter");
    }
  }
  if (!details.empty()) {
    return std::unexpected(
        Error{ErrorCode::kValidationFailed, "invalid list parameters", std::move(details)});
  }
  if (auto cursor = request.Query("cursor"); cursor && !cursor->empty()) {
    auto after = cursors.Decode(*cursor, fingerprint);
    if (!after) return std::unexpected(after.error());
    params.after = std::move(*after);
  }
  return params;
}

ApiResult List(const WebhookRoutesDeps& deps, const ApiRequest& request) {
  if (auto caller = Caller(request); !caller) return std::unexpected(caller.error());
  if (auto own = deps.read_your_writes.AwaitOwnWrites(request.Caller().client_id,
                                                      request.Caller().organization_id);
      !own) {
    return std::unexpected(own.error());
  }
  auto params =
      ParseList(request, deps.cursors, "webhook-endpoints|" + request.Caller().organization_id);
  if (!params) return std::unexpected(params.error());
  const std::string& org = request.Caller().organization_id;
  // One more than asked, to know whether a next page exists.
  auto endpoints = deps.directory.List(org, params->after, params->limit + 1);
  boost::json::value next_cursor;
  if (endpoints.size() > params->limit) {
    endpoints.resize(params->limit);
    next_cursor = deps.cursors.Encode(endpoints.back().id, "webhook-endpoints|" + org);
  }
  boost::json::array items;
  for (const auto& e : endpoints) items.push_back(webhooks::EndpointToJson(e));
  return ApiResponse::Json(
      200, boost::json::object{{"items", std::move(items)}, {"nextCursor", next_cursor}});
}

boost::json::value TimeOrNull(int64_t micros) {
  return micros == 0 ? boost::json::value() : boost::json::value(FormatTimestamp(micros));
}

boost::json::object DeliveryJson(const delivery::Delivery& d) {
  boost::json::array attempts;
  for (const auto& a : d.attempts) {
    attempts.push_back(boost::json::object{
        {"attemptedAt", FormatTimestamp(a.at_us)},
        {"statusCode", a.code == 0 ? boost::json::value() : boost::json::value(a.code)},
        {"latencyMs", a.latency_ms},
        {"error", a.error.empty() ? boost::json::value() : boost::json::value(a.error)}});
  }
  const bool pending = d.state == delivery::DeliveryState::kPending;
  return boost::json::object{
      {"id", d.id},
      {"webhookId", d.webhook_id},
      {"endpointId", d.destination_id},
      {"eventId", d.event_id},
      {"eventType", d.event_type},
      {"contractId",
       d.contract_id.empty() ? boost::json::value(nullptr) : boost::json::value(d.contract_id)},
      {"status", delivery::DeliveryStateName(d.state)},
      {"createdAt", FormatTimestamp(d.created_us)},
      {"nextAttemptAt", pending ? TimeOrNull(d.next_attempt_us) : boost::json::value()},
      {"attempts", std::move(attempts)},
  };
}

ApiResult ListDeliveries(const WebhookRoutesDeps& deps, const ApiRequest& request) {
  auto caller = Caller(request);
  if (!caller) return std::unexpected(caller.error());
  auto endpoint = deps.commands.Get(*caller, request.params.Get("id"));
  if (!endpoint) return std::unexpected(endpoint.error());
  const std::string fingerprint =
      "webhook-deliveries|" + caller->organization_id + "|" + endpoint->id;
  // The same parameters as the endpoint list; the cursor holds a log position here.
  auto parsed = ParseList(request, deps.cursors, fingerprint);
  if (!parsed) return std::unexpected(parsed.error());
  uint64_t before = 0;
  if (!parsed->after.empty()) {
    std::from_chars(parsed->after.data(), parsed->after.data() + parsed->after.size(), before);
  }
  auto items = deps.deliveries.List(endpoint->id, before, parsed->limit + 1);
  if (!items) return std::unexpected(items.error());
  boost::json::value next_cursor;
  if (items->size() > parsed->limit) {
    items->resize(parsed->limit);
    next_cursor = deps.cursors.Encode(std::to_string(items->back().position), fingerprint);
  }
  boost::json::array json;
  for (const auto& d : *items) json.push_back(DeliveryJson(d));
  return ApiResponse::Json(
      200, boost::json::object{{"items", std::move(json)}, {"nextCursor", next_cursor}});
}

}  // namespace

void AddWebhookRoutes(ApiRoutes& routes, const WebhookRoutesDeps& deps) {
  const std::string base = "/api/v1/webhooks/endpoints";
  routes.Add(
      verb::post, base,
      {"createWebhookEndpoint", Auth::kBearer, [&deps, base](const ApiRequest& r) -> ApiResult {
         auto caller = Caller(r);
         if (!caller) return std::unexpected(caller.error());
         auto body = ParseJsonObjectBody(r);
         if (!body) return std::unexpected(body.error());
         auto idempotency = IdempotentRequestOf(r);
         if (!idempotency) return std::unexpected(idempotency.error());
         auto created = deps.commands.Create(*caller, *body, *idempotency);
         if (!created) return std::unexpected(created.error());
         boost::json::object json = webhooks::EndpointToJson(created->endpoint);
         json["secret"] = SecretJson(created->secret);  // shown here only
         return ApiResponse::Json(201, json).WithHeader("Location",
                                                        base + "/" + created->endpoint.id);
       }});
  routes.Add(verb::get, base, {"listWebhookEndpoints", Auth::kBearer, [&deps](const ApiRequest& r) {
                                 return List(deps, r);
                               }});
  routes.Add(verb::get, base + "/{id}",
             {"getWebhookEndpoint", Auth::kBearer, [&deps](const ApiRequest& r) -> ApiResult {
                auto caller = Caller(r);
                if (!caller) return std::unexpected(caller.error());
                auto endpoint = deps.commands.Get(*caller, r.params.Get("id"));
                if (!endpoint) return std::unexpected(endpoint.error());
                return ApiResponse::Json(200, webhooks::EndpointToJson(*endpoint));
              }});
  routes.Add(verb::patch, base + "/{id}",
             {"updateWebhookEndpoint", Auth::kBearer, [&deps](const ApiRequest& r) -> ApiResult {
                auto caller = Caller(r);
                if (!caller) return std::unexpected(caller.error());
                auto body = ParseJsonObjectBody(r);
                if (!body) return std::unexpected(body.error());
                auto endpoint = deps.commands.Update(*caller, r.params.Get("id"), *body);
                if (!endpoint) return std::unexpected(endpoint.error());
                return ApiResponse::Json(200, webhooks::EndpointToJson(*endpoint));
              }});
  routes.Add(verb::delete_, base + "/{id}",
             {"deleteWebhookEndpoint", Auth::kBearer, [&deps](const ApiRequest& r) -> ApiResult {
                auto caller = Caller(r);
                if (!caller) return std::unexpected(caller.error());
                if (auto deleted = deps.commands.Delete(*caller, r.params.Get("id")); !deleted) {
                  return std::unexpected(deleted.error());
                }
                return ApiResponse{204, "", "application/json", {}};
              }});
  routes.Add(
      verb::post, base + "/{id}/rotate-secret",
      {"rotateWebhookEndpointSecret", Auth::kBearer, [&deps](const ApiRequest& r) -> ApiResult {
         auto caller = Caller(r);
         if (!caller) return std::unexpected(caller.error());
         auto idempotency = IdempotentRequestOf(r);
         if (!idempotency) return std::unexpected(idempotency.error());
         auto rotated = deps.commands.RotateSecret(*caller, r.params.Get("id"), *idempotency);
         if (!rotated) return std::unexpected(rotated.error());
         boost::json::object json = webhooks::EndpointToJson(rotated->endpoint);
         json["secret"] = SecretJson(rotated->secret);
         json["previousSecretExpiresAt"] = rotated->previous_secret_expires_at;
         return ApiResponse::Json(200, json);
       }});
  routes.Add(verb::get, base + "/{id}/deliveries",
             {"listWebhookDeliveries", Auth::kBearer,
              [&deps](const ApiRequest& r) { return ListDeliveries(deps, r); }});
  routes.Add(verb::post, "/api/v1/webhooks/deliveries/{deliveryId}/retry",
             {"retryWebhookDelivery", Auth::kBearer, [&deps](const ApiRequest& r) -> ApiResult {
                auto caller = Caller(r);
                if (!caller) return std::unexpected(caller.error());
                const std::string id(r.params.Get("deliveryId"));
                auto retried = deps.retry(id, caller->organization_id);
                if (!retried) {
                  if (retried.error().code == ErrorCode::kNotFound) {
                    return Fail(ErrorCode::kWebhookDeliveryNotFound, "no delivery " + id,
                                "deliveryId", id);
                  }
                  return std::unexpected(retried.error());
                }
                return ApiResponse::Json(202, DeliveryJson(*retried));
              }});
}

}  // namespace esign::http
