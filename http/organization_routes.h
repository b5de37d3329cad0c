// The caller's own organization (DESIGN 23), with the permission organization:manage:
//   GET    /api/v1/organization       its name, frame origins and branding
//   PATCH  /api/v1/organization       {frameOrigins?, accentColor?}: set what is given
//   PUT    /api/v1/organization/logo  an image/png or image/jpeg body, re-encoded as PNG
//   DELETE /api/v1/organization/logo
//   GET    /api/v1/organization/logo  the PNG
// Settings are events of the organization's stream (commands/organization_commands.h); the logo
// is a blob named by them.
#pragma once

#include "eventstore/event_store.h"
#include "http/api.h"

namespace esign::http {

struct OrganizationRoutesDeps {
  eventstore::EventStore& store;
  eventstore::BlobStore& blobs;
};

void AddOrganizationRoutes(ApiRoutes& routes, const OrganizationRoutesDeps& deps);

}  // namespace esign::http
