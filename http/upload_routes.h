// Uploads (DESIGN section 20): POST /api/v1/documents takes a PDF, as the body
// (application/pdf, with an optional ?name=) or as the `file` part of a multipart/form-data body
// (with an optional `name` part), checks and cleans it (commands/document_commands.h) and answers
// 201 with what was found in it. GET /api/v1/documents/{id} shows the same, .../content gives the
// cleaned copy's bytes. An upload is its organization's alone: any other gets 404
// DOCUMENT_NOT_FOUND. Uploading needs contracts:create, reading contracts:read; each
// organization may upload `uploads_per_hour` documents an hour (429 RATE_LIMITED beyond).
#pragma once

#include <cstdint>

#include "commands/document_commands.h"
#include "http/api.h"
#include "http/rate_limiter.h"

namespace esign::http {

struct UploadRoutesOptions {
  double uploads_per_hour = 100;
};

// `documents` must outlive the routes.
void AddUploadRoutes(ApiRoutes& routes, commands::DocumentCommands& documents,
                     UploadRoutesOptions options = {});

}  // namespace esign::http
