#include "http/signing_page_routes.h"

#include <openssl/evp.h>

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace esign::http {
namespace {

using boost::beast::http::verb;

std::string Header(const ApiResponse& response, std::string_view name) {
  for (const auto& [n, v] : response.headers) {
    if (n == name) return v;
  }
  return "";
}

// The CSP hash source of `text`, computed independently of the service's own helpers.
std::string CspHash(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr);
  unsigned char base64[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
  const int length = EVP_EncodeBlock(base64, digest, static_cast<int>(size));
  return "'sha256-" + std::string(reinterpret_cast<const char*>(base64), length) + "'";
}

std::string ElementText(const std::string& page, const std::string& tag) {
  std::smatch match;
  const std::regex element("<" + tag + ">([\\s\\S]*?)</" + tag + ">");
  EXPECT_TRUE(std::regex_search(page, match, element)) << tag;
  return match[1].str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

ApiResponse Serve(std::string_view target) {
  ApiRoutes routes;
  AddSigningPageRoutes(routes);
  auto match = routes.router().Find(verb::get, target);
  EXPECT_NE(match.target, nullptr) << target;
  if (match.target == nullptr) return {};
  Request http{verb::get, target, 11};
  ApiRequest request{http, match.params};
  auto response = match.target->handler(request);
  EXPECT_TRUE(response.has_value());
  return response.value_or(ApiResponse{});
}

TEST(SigningPageRoutesTest, IsAnOpenRouteOutsideTheApi) {
  ApiRoutes routes;
  AddSigningPageRoutes(routes);
  auto match = routes.router().Find(verb::get, "/sign/tok_abc-DEF_123");
  ASSERT_NE(match.target, nullptr);
  EXPECT_EQ(match.target->operation_id, "getSigningPage");
  EXPECT_EQ(match.target->auth, Auth::kNone);
  EXPECT_EQ(routes.router().Find(verb::post, "/sign/tok").target, nullptr);
  EXPECT_EQ(routes.router().Find(verb::get, "/sign/tok/extra").target, nullptr);
}

TEST(SigningPageRoutesTest, ServesTheEmbeddedPageAsItIsInTheSourceTree) {
  std::ifstream file(std::string(SOURCE_DIR) + "/http/signing_page.html", std::ios::binary);
  ASSERT_TRUE(file.good());
  std::stringstream source;
  source << file.rdbuf();
  ASSERT_EQ(SigningPageHtml(), source.str()) << "the embedded page differs from the file";

  const auto response = Serve("/sign/any-token");
  EXPECT_EQ(response.status, 200u);
  EXPECT_EQ(response.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(response.body, SigningPageHtml());
}

TEST(SigningPageRoutesTest, SendsTheSecurityHeaders) {
  const auto response = Serve("/sign/any-token");
  EXPECT_EQ(Header(response, "X-Frame-Options"), "DENY");
  EXPECT_EQ(Header(response, "Referrer-Policy"), "no-referrer");
  EXPECT_EQ(Header(response, "Cache-Control"), "no-store");
  EXPECT_EQ(Header(response, "X-Content-Type-Options"), "nosniff");
  const std::string csp = Header(response, "Content-Security-Policy");
  EXPECT_EQ(csp, SigningPageContentSecurityPolicy());
  for (const char* directive :
       {"default-src 'none'", "connect-src 'self'", "img-src blob:", "base-uri 'none'",
        "form-action 'none'", "frame-ancestors 'none'"}) {
    EXPECT_NE(csp.find(directive), std::string::npos) << directive << " in " << csp;
  }
  EXPECT_EQ(csp.find("unsafe"), std::string::npos) << csp;
}

TEST(SigningPageRoutesTest, PolicyAllowsExactlyThePagesOwnStyleAndScript) {
  const std::string page(SigningPageHtml());
  const std::string csp = SigningPageContentSecurityPolicy();
  EXPECT_NE(csp.find("script-src " + CspHash(ElementText(page, "script")) + ";"), std::string::npos)
      << csp;
  EXPECT_NE(csp.find("style-src " + CspHash(ElementText(page, "style")) + ";"), std::string::npos)
      << csp;
  // Anything else inline would be blocked by the policy, so the page must not hold any.
  EXPECT_EQ(Count(page, "<script"), 1u);
  EXPECT_EQ(Count(page, "<style"), 1u);
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(\sstyle\s*=)")));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(\son[a-z]+\s*=)")));
}

TEST(SigningPageRoutesTest, PageIsSelfContainedResponsiveAndLabelled) {
  const std::string page(SigningPageHtml());
  EXPECT_FALSE(std::regex_search(page, std::regex(R"((src|href)\s*=\s*["']?(https?:)?//)")))
      << "no external resources";
  EXPECT_NE(page.find(R"(<meta name="viewport" content="width=device-width, initial-scale=1">)"),
            std::string::npos);
  EXPECT_NE(page.find(R"(<html lang="en">)"), std::string::npos);
  for (const char* control : {"signature", "consent", "decline-reason"}) {
    EXPECT_NE(page.find(std::string("for=\"") + control + "\""), std::string::npos) << control;
  }
  EXPECT_NE(page.find("/api/v1/hosted-signing/"), std::string::npos);
}

}  // namespace
}  // namespace esign::http
