// The hosted signing page: GET /sign/{token} serves one self-contained HTML page (inline CSS and
// script, no external resources) that shows the document and lets the signer sign or decline
// through the hosted-signing operations (/api/v1/hosted-signing/{token}...). The page is the same
// for every token and authenticates nothing itself: the API checks the token. It lives outside
// /api/v1 because people open it, not programs; it is still a route, so the access log and the
// metrics count it, and http/openapi.json describes it (operation getSigningPage).
// Everything here is safe to call from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "http/api.h"

namespace esign::http {

// The page, byte for byte as http/signing_page.html held it when the library was built.
std::string_view SigningPageHtml();
// The <contract-signing> element's script (http/contract_signing.js), likewise.
std::string_view SigningElementScriptText();

// The Content-Security-Policy the page is served with: nothing but its own inline <style> and
// <script> (allowed by their SHA-256 hashes) and same-origin requests, frames and objects;
// framed only by `frame_ancestors` (none when empty).
std::string SigningPagePolicy(const std::vector<std::string>& frame_ancestors);
// The policy of a page that may not be framed (every page but an embedded one).
const std::string& SigningPageContentSecurityPolicy();

// The page for an embed URL: `embed` ({token, origins, sessionId, contractId} or {error, ...})
// goes, HTML-escaped, into <body data-embed>, where the page's script reads it. The script and
// style elements are unchanged, so their hashes in the policy still hold.
std::string EmbeddedSigningPageHtml(const boost::json::object& embed);

// `html` as the signing page is answered: the policy above, never cached, no referrer, and
// X-Frame-Options DENY when no origin may frame it.
ApiResponse SigningPageResponse(unsigned status, std::string html,
                                const std::vector<std::string>& frame_ancestors);

// Registers GET /sign/{token}: no bearer authentication, operation id getSigningPage.
void AddSigningPageRoutes(ApiRoutes& routes);

}  // namespace esign::http
