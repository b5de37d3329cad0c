// The caller's own organization (DESIGN 23), with the permission organization:manage:
//   GET    /api/v1/organization       its name, frame origins and branding
//   PATCH  /api/v1/organization       {frameOrigins?, accentColor?}: set what is given
//   PUT    /api/v1/organization/logo  an image/png or image/jpeg body, re-encoded as PNG
//   DELETE /api/v1/organization/logo
//   GET    /api/v1/organization/logo  the PNG
// Settings are events of the organization's stream (commands/organization_commands.h); the logo
// is a blob named by them.
#pragma once

#include "domain/organization_settings.h"
#include "eventstore/event_store.h"
#include "http/api.h"

namespace esign::http {

struct OrganizationRoutesDeps {
  eventstore::EventStore& store;
  eventstore::BlobStore& blobs;
};

void AddOrganizationRoutes(ApiRoutes& routes, const OrganizationRoutesDeps& deps);

// The organization's logo as a 200 image/png; NOT_FOUND when it has none. Shared with the hosted
// page's GET .../logo.
ApiResult LogoResponse(const eventstore::BlobStore& blobs, const OrganizationSettings& settings);

}  // namespace esign::http
