// The templates family (3 operations): discovery and the published version's input schema,
// roles and settings. Templates are shared by every organization; reading them needs
// templates:read.
#pragma once

#include "http/api.h"
#include "projections/template_catalog.h"

namespace esign::http {

void AddTemplateRoutes(ApiRoutes& routes, const projections::TemplateCatalog& catalog);

}  // namespace esign::http
