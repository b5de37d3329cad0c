// The OpenAPI 3.1 document of the API (http/openapi.json, compiled into the library at build time
// so a running service never needs the source tree) and the route that serves it. The document
// is hand-written; CompareRoutesWithDocument is what keeps it true: tests run it over the
// service's real route table, so a route added without its description (or the reverse) fails.
// Everything here is safe to call from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "http/api.h"

namespace esign::http {

// The document, byte for byte as http/openapi.json held it when the library was built.
std::string_view OpenApiDocumentText();

// Registers GET /api/v1/openapi.json (getOpenApiDocument) and GET /api/v1/events/schemas
// (getEventSchemas, domain/event_catalog.h), both without authentication.
void AddOpenApiRoutes(ApiRoutes& routes);

// Every disagreement between the routes and the document `doc`, one readable line each:
//   - a routed (method, pattern) the document does not describe;
//   - a documented operation no route serves;
//   - a route whose operation id differs from the document's operationId (or that is shadowed
//     by an earlier route matching the same requests);
//   - a route whose authentication differs from the document's security (bearer unless the
//     operation sets `security: []`).
// Patterns are compared as written ("{id}" must be spelled the same on both sides). Empty when
// routes and document agree.
std::vector<std::string> CompareRoutesWithDocument(const ApiRoutes& routes,
                                                   const boost::json::value& doc);

}  // namespace esign::http
