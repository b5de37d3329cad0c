// The templates family: discovery and the published version's input schema, roles and settings
// (templates:read), and an organization's own templates: create, add a version, publish one,
// archive (templates:write; commands/organization_templates.h). An organization sees the platform
// templates (the command line's) and its own; another organization's template is 404
// TEMPLATE_NOT_FOUND, as if it did not exist.
#pragma once

#include "commands/organization_templates.h"
#include "http/api.h"
#include "projections/template_catalog.h"

namespace esign::http {

void AddTemplateRoutes(ApiRoutes& routes, const projections::TemplateCatalog& catalog,
                       commands::OrganizationTemplates& templates);

}  // namespace esign::http
