// The routes of the authentication family (DESIGN section 6):
//   POST /api/v1/auth/machine-token  createMachineToken  open
//   POST /api/v1/auth/introspect     introspectToken     bearer
//   POST /api/v1/auth/revoke         revokeToken         bearer
// Bodies are JSON objects; a missing or non-string field is 400 VALIDATION_FAILED naming it.
// createMachineToken answers from the service's check threads (AuthService::IssueTokenAsync):
// 429 RATE_LIMITED after too many failures, 503 UNAVAILABLE when the check queue is full, both
// with Retry-After and the API's error body.
// Thread safety: the handlers may run on any worker thread at once.
#pragma once

#include "http/api.h"
#include "http/auth_service.h"

namespace esign::http {

// `auth` must outlive the routes.
void AddAuthRoutes(ApiRoutes& routes, AuthService& auth);

}  // namespace esign::http
