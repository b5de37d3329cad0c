// The hosted signing page: GET /sign/{token} serves one self-contained HTML page (inline CSS and
// script, no external resources) that shows the document and lets the signer sign or decline
// through the hosted-signing operations (/api/v1/hosted-signing/{token}...). The page is the same
// for every token and authenticates nothing itself: the API checks the token. It lives outside
// /api/v1 because people open it, not programs; it is still a route, so the access log and the
// metrics count it, and http/openapi.json describes it (operation getSigningPage).
// Everything here is safe to call from any thread.
#pragma once

#include <string>
#include <string_view>

#include "http/api.h"

namespace esign::http {

// The page, byte for byte as http/signing_page.html held it when the library was built.
std::string_view SigningPageHtml();

// The Content-Security-Policy the page is served with: nothing but its own inline <style> and
// <script> (allowed by their SHA-256 hashes) and same-origin requests, frames and objects; it may
// not be framed itself.
const std::string& SigningPageContentSecurityPolicy();

// Registers GET /sign/{token}: no bearer authentication, operation id getSigningPage.
void AddSigningPageRoutes(ApiRoutes& routes);

}  // namespace esign::http
