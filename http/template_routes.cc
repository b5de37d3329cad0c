#include "http/template_routes.h"

#include "domain/template_json.h"
#include "http/contract_routes.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

// The list entry: identity and versions, without the schema and body.
boost::json::object TemplateSummary(const Template& tmpl) {
  boost::json::array versions;
  for (const auto& v : tmpl.versions) {
    versions.push_back(boost::json::object{{"templateVersionId", v.template_version_id},
                                           {"published", v.published}});
  }
  const TemplateVersion* published = tmpl.PublishedVersion();
  return boost::json::object{
      {"id", tmpl.template_id},
      {"name", tmpl.name},
      {"description", tmpl.description},
      {"source", tmpl.organization_id ? "organization" : "platform"},
      {"organizationId",
       tmpl.organization_id ? boost::json::value(*tmpl.organization_id) : boost::json::value()},
      {"status", tmpl.archived ? "archived" : "active"},
      {"publishedVersionId",
       published ? boost::json::value(published->template_version_id) : boost::json::value()},
      {"versions", std::move(versions)},
  };
}

// The template with every version in full (GET /templates/{id}).
boost::json::object TemplateDetails(const Template& tmpl) {
  boost::json::object body = TemplateSummary(tmpl);
  boost::json::array versions;
  for (const auto& v : tmpl.versions) versions.push_back(TemplateVersionToJson(v));
  body["versions"] = std::move(versions);
  return body;
}

// The caller of a write, once it holds templates:write.
Result<commands::TemplateCaller> Writer(const ApiRequest& request) {
  if (auto allowed = RequirePermission(request, "templates:write"); !allowed) {
    return std::unexpected(allowed.error());
  }
  return commands::TemplateCaller{request.Caller().organization_id, EventActor(request)};
}

// Publish and archive take no members: the body may be omitted or {}.
Status NoMembers(const ApiRequest& request) {
  if (request.http.body().empty()) return {};
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  if (!body->empty()) {
    return Fail(ErrorCode::kValidationFailed, "the body takes no members", body->begin()->key(),
                "unknown field");
  }
  return {};
}

using TemplateWrite = std::function<Result<commands::OrganizationTemplates::Outcome>(
    const commands::TemplateCaller& caller,
    const std::optional<eventstore::IdempotentRequest>& idempotency)>;

// The checks every write shares, then `write`.
Result<commands::OrganizationTemplates::Outcome> Write(const ApiRequest& request,
                                                       const TemplateWrite& write) {
  auto caller = Writer(request);
  if (!caller) return std::unexpected(caller.error());
  auto idempotency = IdempotentRequestOf(request);
  if (!idempotency) return std::unexpected(idempotency.error());
  return write(*caller, *idempotency);
}

ApiResult TemplateAnswer(unsigned status,
                         const Result<commands::OrganizationTemplates::Outcome>& done) {
  if (!done) return std::unexpected(done.error());
  return ApiResponse::Json(status, TemplateDetails(done->tmpl))
      .WithHeader("Location", "/api/v1/templates/" + done->tmpl.template_id);
}

Result<projections::TemplateCatalog::TemplatePtr> FindTemplate(
    const projections::TemplateCatalog& catalog, const ApiRequest& request) {
  if (auto allowed = RequirePermission(request, "templates:read"); !allowed) {
    return std::unexpected(allowed.error());
  }
  const std::string id(request.params.Get("id"));
  auto tmpl = catalog.Find(id);
  if (tmpl && !tmpl->VisibleTo(request.Caller().organization_id)) tmpl = nullptr;
  if (!tmpl) return Fail(ErrorCode::kTemplateNotFound, "no template " + id, "id", id);
  return tmpl;
}

}  // namespace

void AddTemplateRoutes(ApiRoutes& routes, const projections::TemplateCatalog& catalog,
                       commands::OrganizationTemplates& templates) {
  routes.Add(verb::get, "/api/v1/templates",
             {"listTemplates", Auth::kBearer,
              [&catalog](const ApiRequest& request) -> ApiResult {
                if (auto allowed = RequirePermission(request, "templates:read"); !allowed) {
                  return std::unexpected(allowed.error());
                }
                boost::json::array items;
                for (const auto& tmpl : catalog.ListVisibleTo(request.Caller().organization_id))
                  items.push_back(TemplateSummary(*tmpl));
                return ApiResponse::Json(
                    200, boost::json::object{{"items", std::move(items)}, {"nextCursor", nullptr}});
              },
              Execution::kInline});
  routes.Add(verb::get, "/api/v1/templates/{id}",
             {"getTemplate", Auth::kBearer,
              [&catalog](const ApiRequest& request) -> ApiResult {
                auto tmpl = FindTemplate(catalog, request);
                if (!tmpl) return std::unexpected(tmpl.error());
                return ApiResponse::Json(200, TemplateDetails(**tmpl));
              },
              Execution::kInline});
  routes.Add(verb::get, "/api/v1/templates/{id}/published-version",
             {"getPublishedTemplateVersion", Auth::kBearer,
              [&catalog](const ApiRequest& request) -> ApiResult {
                auto tmpl = FindTemplate(catalog, request);
                if (!tmpl) return std::unexpected(tmpl.error());
                const TemplateVersion* published = (*tmpl)->PublishedVersion();
                if (!published) {
                  return Fail(ErrorCode::kTemplateVersionNotFound,
                              "template " + (*tmpl)->template_id + " has no published version",
                              "id", (*tmpl)->template_id);
                }
                boost::json::object body = TemplateVersionToJson(*published);
                body["templateId"] = (*tmpl)->template_id;
                return ApiResponse::Json(200, body);
              },
              Execution::kInline});
  routes.Add(
      verb::post, "/api/v1/templates",
      {"createTemplate", Auth::kBearer, [&templates](const ApiRequest& request) -> ApiResult {
         auto body = ParseJsonObjectBody(request);
         if (!body) return std::unexpected(body.error());
         return TemplateAnswer(201,
                               Write(request, [&](const auto& caller, const auto& idempotency) {
                                 return templates.Create(caller, *body, idempotency);
                               }));
       }});
  routes.Add(
      verb::post, "/api/v1/templates/{id}/versions",
      {"addTemplateVersion", Auth::kBearer, [&templates](const ApiRequest& request) -> ApiResult {
         auto body = ParseJsonObjectBody(request);
         if (!body) return std::unexpected(body.error());
         const std::string id(request.params.Get("id"));
         auto added = Write(request, [&](const auto& caller, const auto& idempotency) {
           return templates.AddVersion(caller, id, *body, idempotency);
         });
         if (!added) return std::unexpected(added.error());
         const TemplateVersion* version = added->tmpl.FindVersion(added->template_version_id);
         if (version == nullptr) return Fail(ErrorCode::kInternal, "the version added is missing");
         boost::json::object answer = TemplateVersionToJson(*version);
         answer["templateId"] = id;
         return ApiResponse::Json(201, answer).WithHeader("Location", "/api/v1/templates/" + id);
       }});
  routes.Add(verb::post, "/api/v1/templates/{id}/versions/{versionId}/publish",
             {"publishTemplateVersion", Auth::kBearer,
              [&templates](const ApiRequest& request) -> ApiResult {
                if (Status empty = NoMembers(request); !empty) {
                  return std::unexpected(empty.error());
                }
                return TemplateAnswer(
                    200, Write(request, [&](const auto& caller, const auto& idempotency) {
                      return templates.Publish(caller, request.params.Get("id"),
                                               request.params.Get("versionId"), idempotency);
                    }));
              }});
  routes.Add(
      verb::post, "/api/v1/templates/{id}/archive",
      {"archiveTemplate", Auth::kBearer, [&templates](const ApiRequest& request) -> ApiResult {
         if (Status empty = NoMembers(request); !empty) {
           return std::unexpected(empty.error());
         }
         return TemplateAnswer(
             200, Write(request, [&](const auto& caller, const auto& idempotency) {
               return templates.Archive(caller, request.params.Get("id"), idempotency);
             }));
       }});
}

}  // namespace esign::http
