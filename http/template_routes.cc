#include "http/template_routes.h"

#include "domain/template_json.h"

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
      {"publishedVersionId",
       published ? boost::json::value(published->template_version_id) : boost::json::value()},
      {"versions", std::move(versions)},
  };
}

Result<projections::TemplateCatalog::TemplatePtr> FindTemplate(
    const projections::TemplateCatalog& catalog, const ApiRequest& request) {
  if (auto allowed = RequirePermission(request, "templates:read"); !allowed) {
    return std::unexpected(allowed.error());
  }
  const std::string id(request.params.Get("id"));
  auto tmpl = catalog.Find(id);
  if (!tmpl) return Fail(ErrorCode::kTemplateNotFound, "no template " + id, "id", id);
  return tmpl;
}

}  // namespace

void AddTemplateRoutes(ApiRoutes& routes, const projections::TemplateCatalog& catalog) {
  routes.Add(verb::get, "/api/v1/templates",
             {"listTemplates", Auth::kBearer,
              [&catalog](const ApiRequest& request) -> ApiResult {
                if (auto allowed = RequirePermission(request, "templates:read"); !allowed) {
                  return std::unexpected(allowed.error());
                }
                boost::json::array items;
                for (const auto& tmpl : catalog.List()) items.push_back(TemplateSummary(*tmpl));
                return ApiResponse::Json(
                    200, boost::json::object{{"items", std::move(items)}, {"nextCursor", nullptr}});
              },
              Execution::kInline});
  routes.Add(verb::get, "/api/v1/templates/{id}",
             {"getTemplate", Auth::kBearer,
              [&catalog](const ApiRequest& request) -> ApiResult {
                auto tmpl = FindTemplate(catalog, request);
                if (!tmpl) return std::unexpected(tmpl.error());
                boost::json::object body = TemplateSummary(**tmpl);
                boost::json::array versions;
                for (const auto& v : (*tmpl)->versions)
                  versions.push_back(TemplateVersionToJson(v));
                body["versions"] = std::move(versions);
                return ApiResponse::Json(200, body);
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
}

}  // namespace esign::http
