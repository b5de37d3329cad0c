#include "http/organization_routes.h"

#include <algorithm>

#include "commands/organization_commands.h"
#include "documents/logo_image.h"
#include "http/contract_routes.h"
#include "http/signing_request.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

constexpr std::string_view kOrganizationPermission = "organization:manage";
constexpr std::string_view kLogoPath = "/api/v1/organization/logo";

boost::json::object OrganizationJson(std::string_view organization_id,
                                     const commands::OrganizationProfile& profile) {
  boost::json::value logo = nullptr;
  if (!profile.settings.logo_sha256.empty()) {
    logo = boost::json::object{
        {"sha256", profile.settings.logo_sha256}, {"mediaType", "image/png"}, {"url", kLogoPath}};
  }
  return {
      {"organizationId", organization_id},
      {"name", TextOrNull(profile.contact.name)},
      {"frameOrigins", boost::json::value_from(profile.settings.frame_origins)},
      {"branding",
       {{"accentColor", TextOrNull(profile.settings.accent_color)}, {"logo", std::move(logo)}}}};
}

Result<commands::OrganizationProfile> ReadOwn(const OrganizationRoutesDeps& deps,
                                              const ApiRequest& request) {
  if (auto ok = RequirePermission(request, kOrganizationPermission); !ok) {
    return std::unexpected(ok.error());
  }
  return commands::ReadOrganization(deps.store, request.Caller().organization_id);
}

// The organization's settings as the response, with the version of its stream as ETag.
ApiResponse OrganizationResponse(const ApiRequest& request,
                                 const commands::OrganizationProfile& profile) {
  return ApiResponse::Json(200, OrganizationJson(request.Caller().organization_id, profile))
      .WithHeader("ETag", VersionETag(profile.version.value()));
}

// Appends the changed settings onto the profile as read, then answers the organization as it is.
ApiResult Change(const OrganizationRoutesDeps& deps, const ApiRequest& request,
                 const commands::OrganizationProfile& read, const OrganizationSettings& settings) {
  auto if_match = ParseIfMatch(request);
  if (!if_match) return std::unexpected(if_match.error());
  if (*if_match && **if_match != read.version.value()) {
    return Fail(ErrorCode::kPreconditionFailed,
                "the organization's settings changed since the version If-Match names", "If-Match",
                std::string(request.Header("If-Match")));
  }
  if (auto set = commands::SetOrganizationSettings(deps.store, request.Caller().organization_id,
                                                   read, settings, EventActor(request));
      !set) {
    return std::unexpected(set.error());
  }
  commands::OrganizationProfile now = read;
  if (settings != read.settings) now.version = StreamVersion(read.version.value() + 1);
  now.settings = settings;
  return OrganizationResponse(request, now);
}

ApiResult GetOrganization(const OrganizationRoutesDeps& deps, const ApiRequest& request) {
  auto profile = ReadOwn(deps, request);
  if (!profile) return std::unexpected(profile.error());
  return OrganizationResponse(request, *profile);
}

// frameOrigins: an array of at most kMaxFrameOrigins origins (an empty one: no embedding);
// accentColor: a colour, or null for the default.
ApiResult PatchOrganization(const OrganizationRoutesDeps& deps, const ApiRequest& request) {
  auto profile = ReadOwn(deps, request);
  if (!profile) return std::unexpected(profile.error());
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  BodyReader reader(*body, {"frameOrigins", "accentColor"});
  OrganizationSettings settings = profile->settings;
  if (const auto* origins = body->if_contains("frameOrigins")) {
    std::vector<std::string> texts;
    const bool strings = origins->is_array() &&
                         std::all_of(origins->get_array().begin(), origins->get_array().end(),
                                     [](const boost::json::value& v) { return v.is_string(); });
    if (!strings)
      return Fail(ErrorCode::kValidationFailed, "invalid organization settings", "frameOrigins",
                  "an array of origins (strings)");
    for (const auto& origin : origins->get_array()) texts.emplace_back(origin.get_string());
    auto normalized = NormalizedFrameOrigins(texts);
    if (!normalized) return std::unexpected(normalized.error());
    settings.frame_origins = std::move(*normalized);
  }
  if (const auto* color = body->if_contains("accentColor")) {
    if (color->is_null()) {
      settings.accent_color.clear();
    } else {
      auto normalized =
          NormalizedAccentColor(color->is_string() ? color->get_string() : "", "accentColor");
      if (!normalized) return std::unexpected(normalized.error());
      settings.accent_color = std::move(*normalized);
    }
  }
  if (auto ok = reader.Finish("invalid organization settings"); !ok) {
    return std::unexpected(ok.error());
  }
  return Change(deps, request, *profile, settings);
}

ApiResult PutLogo(const OrganizationRoutesDeps& deps, const ApiRequest& request) {
  auto profile = ReadOwn(deps, request);
  if (!profile) return std::unexpected(profile.error());
  auto png =
      documents::NormalizedLogo(request.http.body(), MediaTypeOf(request.Header("Content-Type")));
  if (!png) return std::unexpected(png.error());
  auto sha256 = deps.blobs.Put(*png);
  if (!sha256) return std::unexpected(sha256.error());
  OrganizationSettings settings = profile->settings;
  settings.logo_sha256 = std::move(*sha256);
  return Change(deps, request, *profile, settings);
}

ApiResult DeleteLogo(const OrganizationRoutesDeps& deps, const ApiRequest& request) {
  auto profile = ReadOwn(deps, request);
  if (!profile) return std::unexpected(profile.error());
  OrganizationSettings settings = profile->settings;
  settings.logo_sha256.clear();
  return Change(deps, request, *profile, settings);
}

ApiResult GetLogo(const OrganizationRoutesDeps& deps, const ApiRequest& request) {
  auto profile = ReadOwn(deps, request);
  if (!profile) return std::unexpected(profile.error());
  auto logo = LogoResponse(deps.blobs, profile->settings);
  if (!logo) return logo;
  return logo->WithHeader("ETag", "\"" + profile->settings.logo_sha256 + "\"");
}

RouteSpec Bearer(std::string operation_id, const OrganizationRoutesDeps& deps,
                 ApiResult (*handler)(const OrganizationRoutesDeps&, const ApiRequest&)) {
  return RouteSpec{
      .operation_id = std::move(operation_id),
      .handler = [deps, handler](const ApiRequest& request) { return handler(deps, request); }};
}

}  // namespace

ApiResult LogoResponse(const eventstore::BlobStore& blobs, const OrganizationSettings& settings) {
  if (settings.logo_sha256.empty()) {
    return Fail(ErrorCode::kNotFound, "the organization has no logo");
  }
  auto png = blobs.Get(settings.logo_sha256);
  if (!png) return std::unexpected(png.error());
  return ApiResponse{200, std::move(*png), "image/png", {}};
}

void AddOrganizationRoutes(ApiRoutes& routes, const OrganizationRoutesDeps& deps) {
  const std::string base = "/api/v1/organization";
  routes.Add(verb::get, base, Bearer("getOrganization", deps, GetOrganization));
  routes.Add(verb::patch, base, Bearer("updateOrganization", deps, PatchOrganization));
  RouteSpec put = Bearer("setOrganizationLogo", deps, PutLogo);
  put.body_types = BodyTypes::kImage;
  routes.Add(verb::put, base + "/logo", std::move(put));
  routes.Add(verb::get, base + "/logo", Bearer("getOrganizationLogo", deps, GetLogo));
  routes.Add(verb::delete_, base + "/logo", Bearer("deleteOrganizationLogo", deps, DeleteLogo));
}

}  // namespace esign::http
