#include "http/signing_page_routes.h"

#include <boost/beast/http/verb.hpp>
#include <stdexcept>

#include "base/base64.h"
#include "base/sha256.h"
#include "mail/mail_content.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

// The text between `<tag>` and `</tag>` in the page; the page holds exactly one of each.
std::string_view ElementText(std::string_view page, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t begin = page.find(open);
  const size_t end = begin == std::string_view::npos ? begin : page.find(close, begin);
  if (end == std::string_view::npos) {
    throw std::logic_error("http/signing_page.html has no <" + std::string(tag) + "> element");
  }
  return page.substr(begin + open.size(), end - begin - open.size());
}

// A CSP hash source: 'sha256-' and the standard (padded) base64 of the digest.
std::string HashSource(std::string_view text) {
  const auto digest = Sha256(text);
  std::string base64 = Base64UrlEncode(
      std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
  for (char& c : base64) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (base64.size() % 4 != 0) base64.push_back('=');
  return "'sha256-" + base64 + "'";
}

}  // namespace

std::string SigningPagePolicy(const std::vector<std::string>& frame_ancestors) {
  // form-action 'none': the page submits through fetch, so a form must never navigate (which
  // would put the typed name into a URL) even if the script did not run. img-src blob: only: the
  // page images are fetched with the signer's proof header and shown from local copies.
  static const std::string base =
      "default-src 'none'; script-src " + HashSource(ElementText(SigningPageHtml(), "script")) +
      "; style-src " + HashSource(ElementText(SigningPageHtml(), "style")) +
      "; connect-src 'self'; img-src blob:; base-uri 'none'; form-action 'none'; "
      "frame-ancestors";
  if (frame_ancestors.empty()) return base + " 'none'";
  std::string policy = base;
  for (const std::string& origin : frame_ancestors) policy += " " + origin;
  return policy;
}

const std::string& SigningPageContentSecurityPolicy() {
  static const std::string policy = SigningPagePolicy({});
  return policy;
}

std::string EmbeddedSigningPageHtml(const boost::json::object& embed) {
  std::string page(SigningPageHtml());
  const size_t body = page.find("<body>");
  if (body == std::string::npos) throw std::logic_error("http/signing_page.html has no <body>");
  page.replace(body, 6,
               "<body data-embed=\"" + mail::EscapeHtml(boost::json::serialize(embed)) + "\">");
  return page;
}

ApiResponse SigningPageResponse(unsigned status, std::string html,
                                const std::vector<std::string>& frame_ancestors) {
  ApiResponse response{status,
                       std::move(html),
                       "text/html; charset=utf-8",
                       {{"Content-Security-Policy", SigningPagePolicy(frame_ancestors)},
                        // The token is in the URL: never send it elsewhere.
                        {"Referrer-Policy", "no-referrer"},
                        {"Cache-Control", "no-store"},
                        {"X-Content-Type-Options", "nosniff"},
                        {"X-Robots-Tag", "noindex, nofollow"}}};
  // For browsers without frame-ancestors; an embedded page relies on the policy alone.
  if (frame_ancestors.empty()) response.WithHeader("X-Frame-Options", "DENY");
  return response;
}

void AddSigningPageRoutes(ApiRoutes& routes) {
  // Computed here, at start, so that a page without its elements stops the service at once.
  (void)SigningPageContentSecurityPolicy();
  routes.Add(verb::get, "/sign/{token}",
             RouteSpec{.operation_id = "getSigningPage",
                       .auth = Auth::kNone,
                       .handler = [](const ApiRequest&) -> ApiResult {
                         return SigningPageResponse(200, std::string(SigningPageHtml()), {});
                       },
                       .execution = Execution::kInline,
                       .link_param = "token"});
}

}  // namespace esign::http
