#include "http/contract_routes.h"

#include <boost/json.hpp>
#include <charconv>

#include "base/sha256.h"
#include "http/contract_requests.h"
#include "projections/contract_queries.h"
#include "projections/read_your_writes.h"

namespace esign::http {
namespace {

namespace beast_http = boost::beast::http;
using beast_http::verb;

constexpr size_t kMaxIdempotencyKeyLength = 255;

std::string ContractId(const ApiRequest& request) { return std::string(request.params.Get("id")); }

}  // namespace

// If-Match: "<version>" (or W/"<version>", or *). Anything else matches no version: 412.
Result<std::optional<uint64_t>> ParseIfMatch(const ApiRequest& request) {
  std::string_view value = request.Header("If-Match");
  if (value.empty() || value == "*") return std::nullopt;
  if (value.starts_with("W/")) value.remove_prefix(2);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  uint64_t version = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), version);
  if (ec != std::errc() || ptr != value.data() + value.size()) {
    return Fail(ErrorCode::kPreconditionFailed, "If-Match names no version", "If-Match",
                std::string(request.Header("If-Match")));
  }
  return version;
}

namespace {

Result<commands::CommandMeta> MetaOf(const ApiRequest& request, bool idempotent) {
  commands::CommandMeta meta;
  meta.actor = EventActor(request);
  auto if_match = ParseIfMatch(request);
  if (!if_match) return std::unexpected(if_match.error());
  meta.if_match = *if_match;
  if (idempotent) {
    auto key = IdempotencyKeyOf(request);
    if (!key) return std::unexpected(key.error());
    if (*key) {
      meta.idempotency_key = std::move((*key)->key);
      meta.request_sha256 = std::move((*key)->request_sha256);
    }
  }
  return meta;
}

ApiResponse ContractResponse(unsigned status, const ContractState& state) {
  return ApiResponse::Json(status, ContractToJson(state))
      .WithHeader("ETag", VersionETag(state.version));
}

// Whether a request without a body counts as {} (every member optional) or is refused.
enum class EmptyBody { kRefused, kAsEmptyObject };
// Whether the operation honours Idempotency-Key.
enum class Idempotency { kNone, kHonoured };

Result<boost::json::object> BodyObject(const ApiRequest& request, EmptyBody empty) {
  if (empty == EmptyBody::kAsEmptyObject && request.http.body().empty()) {
    return boost::json::object{};
  }
  return ParseJsonObjectBody(request);
}

// A write on an existing contract: the body as the command `Request`, then the handler.
template <class Request>
RouteFunction CommandRoute(const ContractRoutesDeps& deps, EmptyBody empty,
                           Idempotency idempotency) {
  return [deps, empty, idempotency](const ApiRequest& request) -> ApiResult {
    auto body = BodyObject(request, empty);
    if (!body) return std::unexpected(body.error());
    auto meta = MetaOf(request, idempotency == Idempotency::kHonoured);
    if (!meta) return std::unexpected(meta.error());
    auto outcome = deps.commands.Execute(DomainActor(request.Caller()), ContractId(request),
                                         CommandFromRequest<Request>(*body), *meta);
    if (!outcome) return std::unexpected(outcome.error());
    return ContractResponse(200, outcome->state);
  };
}

ApiResponse CreatedResponse(const ContractState& state) {
  return ContractResponse(201, state).WithHeader("Location", "/api/v1/contracts/" + state.id);
}

// Answered from the event store's syncer once the append is durable (ContractCommandHandler::
// CreateAsync); the answer's body is built before the append, on the calling thread.
void CreateContractRoute(const ContractRoutesDeps& deps, const ApiRequest& request,
                         const std::function<void(ApiResult)>& done) {
  auto body = ParseJsonObjectBody(request);
  if (!body) return done(std::unexpected(body.error()));
  auto meta = MetaOf(request, /*idempotent=*/true);
  if (!meta) return done(std::unexpected(meta.error()));
  auto prepared = std::make_shared<std::optional<ApiResponse>>();
  deps.commands.CreateAsync(
      DomainActor(request.Caller()), CommandFromRequest<CreateContract>(*body), *meta,
      [prepared](const ContractState& created) { *prepared = CreatedResponse(created); },
      [prepared, done](Result<commands::CommandOutcome> outcome) {
        if (!outcome) return done(std::unexpected(outcome.error()));
        if (*prepared && !outcome->replayed) return done(std::move(**prepared));
        done(CreatedResponse(outcome->state));
      });
}

// Deciding a create is short and waits for nothing, so it runs on the I/O thread and the request
// crosses no worker; an Idempotency-Key (appends of its own) or a send at once (renders the PDF)
// goes to the workers. The body check is deliberately coarse: a false match only costs a hop, and a
// backslash sends the body to a worker because JSON escapes could spell "sendNow" otherwise.
bool CreateRunsInline(const ApiRequest& request) {
  return request.Header("Idempotency-Key").empty() &&
         request.http.body().find("sendNow") == std::string::npos &&
         request.http.body().find('\\') == std::string::npos;
}

}  // namespace

esign::Actor DomainActor(const Principal& principal) {
  esign::Actor actor;
  actor.client_id = principal.client_id;
  actor.organization_id = principal.organization_id;
  actor.permissions.insert(principal.permissions.begin(), principal.permissions.end());
  return actor;
}

eventstore::Actor EventActor(const ApiRequest& request) {
  eventstore::Actor actor;
  if (request.principal) {
    actor.client_id = request.principal->client_id;
    actor.organization_id = request.principal->organization_id;
  }
  actor.request_id = request.request_id;
  actor.ip = request.remote_ip;
  actor.user_agent = std::string(request.UserAgent().substr(0, 512));
  return actor;
}

Result<std::optional<IdempotencyHeader>> IdempotencyKeyOf(const ApiRequest& request) {
  const std::string_view key = request.Header("Idempotency-Key");
  if (key.empty()) return std::nullopt;
  if (key.size() > kMaxIdempotencyKeyLength) {
    return Fail(ErrorCode::kValidationFailed, "Idempotency-Key is too long", "Idempotency-Key",
                "at most 255 characters");
  }
  // The key is bound to the operation and its body: same key elsewhere is a reuse.
  const std::string_view target = request.http.target();
  return IdempotencyHeader{
      std::string(key),
      Sha256Hex(std::string(request.http.method_string()) + " " +
                std::string(target.substr(0, target.find('?'))) + "\n" + request.http.body())};
}

Result<std::optional<eventstore::IdempotentRequest>> IdempotentRequestOf(
    const ApiRequest& request) {
  auto header = IdempotencyKeyOf(request);
  if (!header) return std::unexpected(header.error());
  if (!*header) return std::nullopt;
  return eventstore::IdempotentRequest{request.Caller().client_id, std::move((*header)->key),
                                       std::move((*header)->request_sha256), EventActor(request)};
}

std::string VersionETag(uint64_t version) { return "\"" + std::to_string(version) + "\""; }

projections::QueryActor ReaderOf(const ApiRequest& request) {
  return projections::QueryActor{request.Caller().client_id, request.Caller().organization_id};
}

Status BeginRead(const ContractRoutesDeps& deps, const ApiRequest& request,
                 std::string_view permission) {
  if (auto allowed = RequirePermission(request, permission); !allowed) return allowed;
  return deps.read_your_writes.AwaitOwnWrites(request.Caller().client_id,
                                              request.Caller().organization_id);
}

void AddContractRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps) {
  const std::string base = "/api/v1/contracts";
  RouteSpec create{"createContract", Auth::kBearer};
  create.execution = Execution::kInline;
  create.inline_when = CreateRunsInline;
  create.async_handler = [deps](const ApiRequest& r, const std::function<void(ApiResult)>& done) {
    CreateContractRoute(deps, r, done);
  };
  routes.Add(verb::post, base, std::move(create));
  // The edits need a body; sending may have none (every member is optional).
  routes.Add(verb::put, base + "/{id}/data",
             {"updateContractData", Auth::kBearer,
              CommandRoute<UpdateData>(deps, EmptyBody::kRefused, Idempotency::kNone)});
  routes.Add(verb::put, base + "/{id}/table-data",
             {"updateTableData", Auth::kBearer,
              CommandRoute<UpdateTableData>(deps, EmptyBody::kRefused, Idempotency::kNone)});
  routes.Add(verb::put, base + "/{id}/participants",
             {"replaceParticipants", Auth::kBearer,
              CommandRoute<ReplaceParticipants>(deps, EmptyBody::kRefused, Idempotency::kNone)});
  routes.Add(verb::put, base + "/{id}/role-bindings",
             {"updateRoleBindings", Auth::kBearer,
              CommandRoute<UpdateRoleBindings>(deps, EmptyBody::kRefused, Idempotency::kNone)});
  routes.Add(verb::post, base + "/{id}/send",
             {"sendContract", Auth::kBearer,
              CommandRoute<SendContract>(deps, EmptyBody::kAsEmptyObject, Idempotency::kHonoured)});
  // No body is {}: voiding then names its missing reason; a reminder may name nobody (every
  // signer whose turn it is).
  routes.Add(verb::post, base + "/{id}/void",
             {"voidContract", Auth::kBearer,
              CommandRoute<VoidContract>(deps, EmptyBody::kAsEmptyObject, Idempotency::kHonoured)});
  routes.Add(
      verb::post, base + "/{id}/remind",
      {"remindParticipants", Auth::kBearer,
       CommandRoute<RemindParticipants>(deps, EmptyBody::kAsEmptyObject, Idempotency::kHonoured)});
  AddContractReadRoutes(routes, deps);
  AddDocumentRoutes(routes, deps);
  if (deps.mail_records != nullptr) AddNotificationRoutes(routes, deps);
}

}  // namespace esign::http
