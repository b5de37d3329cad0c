// Embedded signing and branding over the real API (DESIGN 23): an organization's frame origins,
// accent colour and logo (organization:manage), the single-use embed URL that lives five minutes
// (the service's clock moved by the admin command), the page it opens with its own proof and its
// frame-ancestors, and every refusal leaving the log as it was.
#include <gtest/gtest.h>

#include "app/admin_socket.h"
#include "base/base64.h"
#include "tests/app/api_suite.h"

namespace esign::testing {
namespace {

using boost::beast::http::verb;

// A 1 x 1 PNG.
std::string TinyPng() {
  return *Base64Decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
      "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
}

// The start of a PNG that says it is `width` pixels wide: refused before anything is decoded.
std::string WidePngHeader(uint32_t width) {
  std::string png = TinyPng();
  for (int i = 0; i < 4; ++i) png[16 + i] = static_cast<char>((width >> (24 - 8 * i)) & 0xff);
  return png;
}

// What the service wrote into the page's <body data-embed>, unescaped and parsed.
object EmbedData(const std::string& html) {
  const std::string marker = "<body data-embed=\"";
  const size_t start = html.find(marker);
  if (start == std::string::npos) return {};
  const size_t end = html.find('"', start + marker.size());
  std::string text = html.substr(start + marker.size(), end - start - marker.size());
  for (const auto& [entity, character] : std::vector<std::pair<std::string, std::string>>{
           {"&quot;", "\""}, {"&#39;", "'"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at)) {
      text.replace(at, entity.size(), character);
      at += character.size();
    }
  }
  return boost::json::parse(text).as_object();
}

class EmbeddedSigningTest : public ApiSuite {
 protected:
  static void SetUpTestSuite() {
    serve_flags_ = {"--clock-offset", "0"};
    ApiSuite::SetUpTestSuite();
  }

  HttpResult Patch(const std::string& who, const std::string& body) {
    return client_.Send(verb::patch, "/api/v1/organization", body, As(who));
  }

  HttpResult PutLogo(const std::string& who, const std::string& bytes,
                     const std::string& type = "image/png") {
    return client_.Put("/api/v1/organization/logo", bytes, As(who, {{"Content-Type", type}}));
  }

  HttpResult EmbedUrl(const std::string& session_id, const std::string& who = "a") {
    return client_.Post("/api/v1/signing-sessions/" + session_id + "/embed-url", "", As(who));
  }

  // GET of the embed URL's path.
  HttpResult Open(const HttpResult& embed) {
    const std::string url(embed.Json().at("url").as_string());
    return client_.Get(url.substr(url.find("/embed/")));
  }
};

TEST_F(EmbeddedSigningTest, OrganizationSettingsNeedTheirPermissionAndRefuseBadInput) {
  const uint64_t before = LogSize();
  ExpectRefused(client_.Get("/api/v1/organization", As("a_read_only")), 403, "PERMISSION_DENIED",
                before);
  ExpectRefused(Patch("a_read_only", R"({"accentColor":"#1f5fbf"})"), 403, "PERMISSION_DENIED",
                before);
  ExpectRefused(PutLogo("a_read_only", TinyPng()), 403, "PERMISSION_DENIED", before);
  ExpectRefused(client_.Get("/api/v1/organization"), 401, "UNAUTHENTICATED", before);
  ExpectRefused(Patch("d", R"({"frameOrigins":"https://a.example"})"), 400, "VALIDATION_FAILED",
                before, "frameOrigins");
  ExpectRefused(Patch("d", R"({"frameOrigins":[7]})"), 400, "VALIDATION_FAILED", before,
                "frameOrigins");
  ExpectRefused(Patch("d", R"({"frameOrigins":["https://ok.example","https://*.example"]})"), 400,
                "VALIDATION_FAILED", before, "frameOrigins[1]");
  ExpectRefused(Patch("d", R"({"frameOrigins":["http://app.example"]})"), 400, "VALIDATION_FAILED",
                before, "frameOrigins[0]");
  std::string eleven = R"({"frameOrigins":[)";
  for (int i = 0; i < 11; ++i)
    eleven += (i ? "," : "") + std::string("\"https://a") + char('a' + i) + ".example\"";
  ExpectRefused(Patch("d", eleven + "]}"), 400, "VALIDATION_FAILED", before, "frameOrigins");
  ExpectRefused(Patch("d", R"({"accentColor":"#ffff00"})"), 400, "VALIDATION_FAILED", before,
                "accentColor");
  ExpectRefused(Patch("d", R"({"accentColor":12})"), 400, "VALIDATION_FAILED", before,
                "accentColor");
  ExpectRefused(Patch("d", R"({"logo":"x"})"), 400, "VALIDATION_FAILED", before, "logo");
  ExpectRefused(Patch("d", "[1]"), 400, "VALIDATION_FAILED", before);
  ExpectRefused(PutLogo("d", "<svg/>", "image/svg+xml"), 415, "UNSUPPORTED_MEDIA_TYPE", before);
  ExpectRefused(PutLogo("d", "not an image"), 400, "VALIDATION_FAILED", before, "logo");
  ExpectRefused(PutLogo("d", TinyPng(), "image/jpeg"), 400, "VALIDATION_FAILED", before, "logo");
  ExpectRefused(PutLogo("d", WidePngHeader(1025)), 400, "VALIDATION_FAILED", before, "logo");
  ExpectRefused(PutLogo("d", std::string(256 * 1024 + 1, 'x')), 413, "PAYLOAD_TOO_LARGE", before,
                "logo");
  ExpectRefused(client_.Get("/api/v1/organization/logo", As("d")), 404, "NOT_FOUND", before);

  auto unchanged = client_.Get("/api/v1/organization", As("d"));
  ASSERT_EQ(unchanged.status, 200) << unchanged.body;
  EXPECT_EQ(unchanged.Json().at("organizationId"), "org_d");
  EXPECT_TRUE(unchanged.Json().at("frameOrigins").as_array().empty());
  EXPECT_TRUE(unchanged.Json().at("branding").at("accentColor").is_null());
  EXPECT_TRUE(unchanged.Json().at("branding").at("logo").is_null());
}

TEST_F(EmbeddedSigningTest, SettingsAreTheCallersOrganizationsAndReadBack) {
  auto set = Patch("c", R"({"frameOrigins":["https://App.Example.com:443","http://localhost:3000",
"https://app.example.com"],"accentColor":"#0B6E4F"})");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(boost::json::serialize(set.Json().at("frameOrigins")),
            R"(["https://app.example.com","http://localhost:3000"])");
  EXPECT_EQ(set.Json().at("branding").at("accentColor"), "#0b6e4f");
  // The same again appends nothing.
  const uint64_t before = LogSize();
  EXPECT_EQ(Patch("c", R"({"accentColor":"#0b6e4f"})").status, 200);
  EXPECT_EQ(LogSize(), before);

  // If-Match names the settings' version (the ETag): an older one changes nothing.
  const std::string etag = client_.Get("/api/v1/organization", As("c")).Header("etag");
  ASSERT_FALSE(etag.empty());
  ExpectRefused(client_.Put("/api/v1/organization/logo", TinyPng(),
                            As("c", {{"Content-Type", "image/png"}, {"If-Match", "\"99\""}})),
                412, "PRECONDITION_FAILED", before, "If-Match");
  auto logo =
      client_.Put("/api/v1/organization/logo", TinyPng() + "trailing bytes that are not kept",
                  As("c", {{"Content-Type", "image/png"}, {"If-Match", etag}}));
  ASSERT_EQ(logo.status, 200) << logo.body;
  const auto& stored = logo.Json().at("branding").at("logo");
  EXPECT_EQ(stored.at("mediaType"), "image/png");
  auto png = client_.Get("/api/v1/organization/logo", As("c"));
  ASSERT_EQ(png.status, 200);
  EXPECT_EQ(png.Header("content-type"), "image/png");
  EXPECT_TRUE(png.body.starts_with("\x89PNG"));
  EXPECT_EQ(png.body.find("trailing"), std::string::npos);

  // Another organization sees its own, untouched.
  auto other = client_.Get("/api/v1/organization", As("b"));
  EXPECT_TRUE(other.Json().at("frameOrigins").as_array().empty());
  EXPECT_TRUE(other.Json().at("branding").at("logo").is_null());

  auto removed = client_.Send(verb::delete_, "/api/v1/organization/logo", "", As("c"));
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_TRUE(removed.Json().at("branding").at("logo").is_null());
  EXPECT_EQ(removed.Json().at("branding").at("accentColor"), "#0b6e4f");
  auto cleared = Patch("c", R"({"frameOrigins":[],"accentColor":null})");
  EXPECT_TRUE(cleared.Json().at("frameOrigins").as_array().empty());
  EXPECT_TRUE(cleared.Json().at("branding").at("accentColor").is_null());
}

TEST_F(EmbeddedSigningTest, EmbedUrlOpensTheFramedPageOnceAndOnlyForFiveMinutes) {
  const Hosted hosted = SentWithSession("Embedded NDA");
  uint64_t before = LogSize();
  // No frame origin yet: nothing can embed the page.
  ExpectRefused(EmbedUrl(hosted.session_id), 400, "VALIDATION_FAILED", before, "frameOrigins");
  ASSERT_EQ(Patch("a", R"({"frameOrigins":["https://app.example.com","http://localhost:3000"],
"accentColor":"#0b6e4f"})")
                .status,
            200);
  ASSERT_EQ(PutLogo("a", TinyPng()).status, 200);
  before = LogSize();
  ExpectRefused(EmbedUrl(hosted.session_id, "b"), 404, "SIGNING_SESSION_NOT_FOUND", before);
  ExpectRefused(EmbedUrl(hosted.session_id, "a_read_only"), 403, "PERMISSION_DENIED", before);
  ExpectRefused(client_.Post("/api/v1/signing-sessions/" + hosted.session_id + "/embed-url",
                             R"({"parent":"x"})", As("a")),
                400, "VALIDATION_FAILED", before, "parent");

  auto embed = EmbedUrl(hosted.session_id);
  ASSERT_EQ(embed.status, 201) << embed.body;
  EXPECT_EQ(embed.Json().at("sessionId").as_string(), hosted.session_id);
  EXPECT_EQ(embed.Json().at("contractId").as_string(), hosted.contract_id);
  EXPECT_NE(std::string(embed.Json().at("url").as_string()).find("/embed/"), std::string::npos);

  auto page = Open(embed);
  ASSERT_EQ(page.status, 200) << page.body.substr(0, 300);
  const std::string csp = page.Header("content-security-policy");
  EXPECT_TRUE(csp.ends_with("frame-ancestors https://app.example.com http://localhost:3000"))
      << csp;
  EXPECT_EQ(page.Header("x-frame-options"), "");
  EXPECT_EQ(page.Header("cache-control"), "no-store");
  const object data = EmbedData(page.body);
  ASSERT_TRUE(data.contains("token")) << page.body.substr(0, 200);
  EXPECT_EQ(data.at("sessionId").as_string(), hosted.session_id);
  EXPECT_EQ(data.at("contractId").as_string(), hosted.contract_id);
  EXPECT_EQ(boost::json::serialize(data.at("origins")),
            R"(["https://app.example.com","http://localhost:3000"])");

  // The page's own proof opens the hosted API, branded; the e-mailed link still works too.
  const std::string page_api =
      "/api/v1/hosted-signing/" + std::string(data.at("token").as_string());
  auto session = client_.Get(page_api);
  ASSERT_EQ(session.status, 200) << session.body;
  EXPECT_EQ(session.Json().at("branding").at("accentColor"), "#0b6e4f");
  EXPECT_EQ(session.Json().at("branding").at("logo"), true);
  EXPECT_TRUE(client_.Get(page_api + "/logo").body.starts_with("\x89PNG"));
  EXPECT_EQ(client_.Get(hosted.base).status, 200);

  // Used once: the second open is refused, inside a page the parent may still frame.
  before = LogSize();
  auto again = Open(embed);
  EXPECT_EQ(again.status, 410);
  EXPECT_EQ(EmbedData(again.body).at("error").at("code"), "SIGNING_SESSION_CANCELLED");
  EXPECT_FALSE(EmbedData(again.body).contains("token"));
  EXPECT_TRUE(again.Header("content-security-policy").ends_with("http://localhost:3000"));
  EXPECT_EQ(LogSize(), before);
  // A token never issued: a page no one may frame.
  auto unknown = client_.Get("/embed/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_TRUE(unknown.Header("content-security-policy").ends_with("frame-ancestors 'none'"));
  EXPECT_EQ(unknown.Header("x-frame-options"), "DENY");

  // Five minutes: a fresh URL opened after 301 seconds is expired, and nothing is written.
  auto late = EmbedUrl(hosted.session_id);
  ASSERT_EQ(late.status, 201);
  AdvanceClock(301);
  before = LogSize();
  auto expired = Open(late);
  EXPECT_EQ(expired.status, 410);
  EXPECT_EQ(EmbedData(expired.body).at("error").at("code"), "SIGNING_SESSION_EXPIRED");
  EXPECT_EQ(LogSize(), before);
  // A newer URL replaces an unused older one.
  auto first = EmbedUrl(hosted.session_id);
  auto second = EmbedUrl(hosted.session_id);
  EXPECT_EQ(Open(first).status, 410);
  EXPECT_EQ(Open(second).status, 200);

  // The e-mailed link's page still refuses every frame.
  auto link_page = client_.Get("/sign/" + hosted.base.substr(hosted.base.rfind('/') + 1));
  EXPECT_TRUE(link_page.Header("content-security-policy").ends_with("frame-ancestors 'none'"));
  EXPECT_EQ(link_page.Header("x-frame-options"), "DENY");
}

TEST_F(EmbeddedSigningTest, OnlyAnOpenHostedSessionIsEmbedded) {
  ASSERT_EQ(Patch("a", R"({"frameOrigins":["https://app.example.com"]})").status, 200);
  object contract = Create("a", NdaWithAda("Embedded, Grace's", ""));
  const std::string id(contract.at("id").as_string());
  auto grace = NewSession(id, ParticipantId(contract, 1));
  ASSERT_EQ(grace.status, 201) << grace.body;
  const uint64_t before = LogSize();
  ExpectRefused(EmbedUrl(std::string(grace.Json().at("sessionId").as_string())), 409,
                "SIGNING_SESSION_STATE_CONFLICT", before);
  auto ada = NewSession(id, ParticipantId(contract, 0));
  const std::string ada_session(ada.Json().at("sessionId").as_string());
  ASSERT_EQ(client_.Post("/api/v1/signing-sessions/" + ada_session + "/cancel", "", As("a")).status,
            200);
  const uint64_t after_cancel = LogSize();
  ExpectRefused(EmbedUrl(ada_session), 410, "SIGNING_SESSION_CANCELLED", after_cancel);
}

TEST_F(EmbeddedSigningTest, TheElementScriptIsServed) {
  auto script = client_.Get("/contract-signing.js");
  ASSERT_EQ(script.status, 200);
  EXPECT_EQ(script.Header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script.body.find("customElements.define(\"contract-signing\""), std::string::npos);
}

}  // namespace
}  // namespace esign::testing
