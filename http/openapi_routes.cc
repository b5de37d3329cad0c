#include "http/openapi_routes.h"

#include <boost/beast/http/verb.hpp>
#include <cctype>
#include <map>
#include <utility>

#include "domain/event_catalog.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

// The HTTP methods an OpenAPI path item may describe.
constexpr std::string_view kMethods[] = {"get",     "put",  "post",  "delete",
                                         "options", "head", "patch", "trace"};

struct DocumentedOperation {
  std::string operation_id;
  bool bearer = true;
  bool routed = false;
};

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// A security requirement list that is present and empty turns authentication off.
bool RequiresBearer(const boost::json::value* security, bool inherited) {
  if (security == nullptr || !security->is_array()) return inherited;
  return !security->get_array().empty();
}

// "GET /api/v1/contracts/{id}" -> what the document says about it.
std::map<std::string, DocumentedOperation> DocumentedOperations(const boost::json::value& doc) {
  std::map<std::string, DocumentedOperation> out;
  if (!doc.is_object()) return out;
  const bool global_bearer = RequiresBearer(doc.get_object().if_contains("security"), false);
  const auto* paths = doc.get_object().if_contains("paths");
  if (paths == nullptr || !paths->is_object()) return out;
  for (const auto& [path, item] : paths->get_object()) {
    if (!item.is_object()) continue;
    for (const std::string_view method : kMethods) {
      const auto* operation = item.get_object().if_contains(method);
      if (operation == nullptr || !operation->is_object()) continue;
      DocumentedOperation documented;
      if (const auto* id = operation->get_object().if_contains("operationId");
          id != nullptr && id->is_string()) {
        documented.operation_id = std::string(id->get_string());
      }
      documented.bearer =
          RequiresBearer(operation->get_object().if_contains("security"), global_bearer);
      out[Upper(method) + " " + std::string(path)] = std::move(documented);
    }
  }
  return out;
}

}  // namespace

void AddOpenApiRoutes(ApiRoutes& routes) {
  routes.Add(
      verb::get, "/api/v1/openapi.json",
      RouteSpec{
          "getOpenApiDocument", Auth::kNone, [](const ApiRequest&) -> ApiResult {
            return ApiResponse{200, std::string(OpenApiDocumentText()), "application/json", {}};
          }});
  routes.Add(verb::get, "/api/v1/events/schemas",
             RouteSpec{"getEventSchemas", Auth::kNone, [](const ApiRequest&) -> ApiResult {
                         return ApiResponse{200, EventSchemasText(), "application/schema+json", {}};
                       }});
}

std::vector<std::string> CompareRoutesWithDocument(const ApiRoutes& routes,
                                                   const boost::json::value& doc) {
  std::vector<std::string> problems;
  auto documented = DocumentedOperations(doc);
  for (const RouteInfo& route : routes.router().Routes()) {
    const std::string key =
        std::string(boost::beast::http::to_string(route.method)) + " " + route.pattern;
    auto it = documented.find(key);
    if (it == documented.end()) {
      problems.push_back(key + ": routed but not in the OpenAPI document");
      continue;
    }
    DocumentedOperation& operation = it->second;
    operation.routed = true;
    // The pattern is itself a path this route matches ("{id}" is a non-empty segment); the first
    // match is what the server would call, so a different target means this route is shadowed.
    auto match = routes.router().Find(route.method, route.pattern);
    if (match.target == nullptr || match.target->operation_id != operation.operation_id) {
      problems.push_back(key + ": routed as operation '" +
                         (match.target ? match.target->operation_id : std::string()) +
                         "', documented as '" + operation.operation_id + "'");
      continue;
    }
    const bool bearer = match.target->auth == Auth::kBearer;
    if (bearer != operation.bearer) {
      problems.push_back(key + ": routed " +
                         (bearer ? "with bearer authentication" : "without authentication") +
                         ", documented " + (operation.bearer ? "with" : "without") + " it");
    }
  }
  for (const auto& [key, operation] : documented) {
    if (!operation.routed) {
      problems.push_back(key + " (" + operation.operation_id + "): documented but not routed");
    }
  }
  return problems;
}

}  // namespace esign::http
