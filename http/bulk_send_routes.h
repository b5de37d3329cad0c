// Bulk send (DESIGN 23): one template to many recipients as one job.
//   POST /api/v1/bulk-sends               JSON {templateId, title?, rows, signingSettings?,
//                                         notifications?}, or text/csv with ?templateId=&title=;
//                                         202 with the job (contracts:create and contracts:send)
//   GET  /api/v1/bulk-sends/{id}          the job and its counts by state (contracts:read)
//   GET  /api/v1/bulk-sends/{id}/rows     each row's contract or error, from `from`, `limit`
//   POST /api/v1/bulk-sends/{id}/cancel   stops the rows not yet sent (contracts:send)
// The rows are turned into contracts by the runner (commands/bulk_send_runner.h), not here.
#pragma once

#include <functional>

#include "commands/bulk_sends.h"
#include "http/api.h"

namespace esign::http {

struct BulkSendRoutesDeps {
  commands::BulkSendCommands& jobs;
  projections::TemplateLookup templates;
  // Tells the runner a job was created or cancelled.
  std::function<void()> wake_runner;
};

void AddBulkSendRoutes(ApiRoutes& routes, const BulkSendRoutesDeps& deps);

}  // namespace esign::http
