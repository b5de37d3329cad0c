// Organizations' own templates over HTTP: create, add a version, publish, archive; what the list
// and get show; another organization's 404 everywhere, contract creation included; a contract
// from an organization's template created and sent, and kept working once the template is
// archived; Idempotency-Key replays; malformed and oversized bodies refused with nothing stored;
// fields on a template's roles filled in, checked, stamped on the rendered pages and sealed.
#include <boost/json.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/app/api_suite.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

// The mutual NDA's file as a request: without the ids the server assigns.
object NdaTemplate() {
  std::ifstream in(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json");
  std::stringstream text;
  text << in.rdbuf();
  object document = boost::json::parse(text.str()).as_object();
  document.erase("templateId");
  document["name"] = "Acme's NDA";
  for (auto& version : document.at("versions").as_array()) {
    version.as_object().erase("templateVersionId");
  }
  return document;
}

object NdaVersion() {
  object version = NdaTemplate().at("versions").as_array().at(0).as_object();
  version.erase("published");
  return version;
}

// The NDA contract request of api_suite.h, from template `id`.
std::string NdaFrom(const std::string& id, const std::string& title, bool send_now) {
  std::string body = NdaBody(title, /*with_roles=*/true, send_now);
  const std::string platform = R"("templateId":"tpl_mutual_nda")";
  body.replace(body.find(platform), platform.size(), R"("templateId":")" + id + "\"");
  return body;
}

// The NDA's file with fields on its signatory roles: Ada ticks acceptsTerms; Grace gives her
// VAT number (a pattern) and the hours (fld_3, unnamed).
object NdaWithRoleFields() {
  object document = NdaTemplate();
  auto& roles = document.at("versions").as_array()[0].at("roles").as_array();
  roles[0].as_object()["fields"] = boost::json::parse(R"([
    {"type":"checkbox","name":"acceptsTerms","page":2,"x":72,"y":630,"width":16,"height":16}])");
  roles[1].as_object()["fields"] = boost::json::parse(R"([
    {"type":"text","name":"vatNumber","page":2,"x":320,"y":630,"width":200,"height":20,
     "pattern":"[A-Z]{2}[0-9]{8,12}","patternMessage":"two letters, then 8 to 12 digits"},
    {"type":"number","page":2,"x":320,"y":660,"width":100,"height":20,"min":1,"max":100}])");
  return document;
}

const object* FindItem(const boost::json::value& list, const std::string& id) {
  for (const auto& item : list.at("items").as_array()) {
    if (item.at("id").as_string() == id) return &item.as_object();
  }
  return nullptr;
}

class TemplateApiTest : public ApiSuite {
 protected:
  // A template of organization a; its id.
  std::string CreateTemplate() {
    auto created =
        client_.Post("/api/v1/templates", boost::json::serialize(NdaTemplate()), As("a"));
    EXPECT_EQ(created.status, 201) << created.body;
    return created.Json().is_object() ? std::string(created.Json().at("id").as_string()) : "";
  }
};

TEST_F(TemplateApiTest, CreatesAddsAVersionPublishesAndArchives) {
  auto created = client_.Post("/api/v1/templates", boost::json::serialize(NdaTemplate()), As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const auto& tmpl = created.Json();
  const std::string id(tmpl.at("id").as_string());
  EXPECT_TRUE(id.starts_with("tpl_"));
  EXPECT_EQ(created.Header("location"), "/api/v1/templates/" + id);
  EXPECT_EQ(tmpl.at("source"), "organization");
  EXPECT_EQ(tmpl.at("organizationId"), "org_a");
  EXPECT_EQ(tmpl.at("status"), "active");
  const std::string first(tmpl.at("publishedVersionId").as_string());
  EXPECT_TRUE(first.starts_with("tv_"));

  auto list = client_.Get("/api/v1/templates", As("a"));
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_NE(FindItem(list.Json(), id), nullptr);
  EXPECT_EQ(FindItem(list.Json(), id)->at("source"), "organization");
  const object* platform = FindItem(list.Json(), "tpl_mutual_nda");
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platform->at("source"), "platform");
  EXPECT_TRUE(platform->at("organizationId").is_null());

  auto added = client_.Post("/api/v1/templates/" + id + "/versions",
                            boost::json::serialize(NdaVersion()), As("a"));
  ASSERT_EQ(added.status, 201) << added.body;
  const std::string second(added.Json().at("templateVersionId").as_string());
  EXPECT_EQ(added.Json().at("published"), false);
  EXPECT_EQ(added.Json().at("templateId").as_string(), id);

  auto published =
      client_.Post("/api/v1/templates/" + id + "/versions/" + second + "/publish", "", As("a"));
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_EQ(published.Json().at("publishedVersionId").as_string(), second);
  auto current = client_.Get("/api/v1/templates/" + id + "/published-version", As("a"));
  ASSERT_EQ(current.status, 200) << current.body;
  EXPECT_EQ(current.Json().at("templateVersionId").as_string(), second);

  auto archived = client_.Post("/api/v1/templates/" + id + "/archive", "{}", As("a"));
  ASSERT_EQ(archived.status, 200) << archived.body;
  EXPECT_EQ(archived.Json().at("status"), "archived");
  auto got = client_.Get("/api/v1/templates/" + id, As("a"));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(got.Json().at("status"), "archived");
  EXPECT_EQ(got.Json().at("versions").as_array().size(), 2u);

  const uint64_t before = LogSize();
  ExpectRefused(client_.Post("/api/v1/templates/" + id + "/versions",
                             boost::json::serialize(NdaVersion()), As("a")),
                409, "TEMPLATE_ARCHIVED", before);
  ExpectRefused(client_.Post("/api/v1/contracts", NdaFrom(id, "From archived", false), As("a")),
                409, "TEMPLATE_ARCHIVED", before);
}

TEST_F(TemplateApiTest, AnotherOrganizationsTemplateIsNotFound) {
  const std::string id = CreateTemplate();
  auto list = client_.Get("/api/v1/templates", As("b"));
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(FindItem(list.Json(), id), nullptr);
  EXPECT_NE(FindItem(list.Json(), "tpl_mutual_nda"), nullptr);

  const uint64_t before = LogSize();
  const std::string base = "/api/v1/templates/" + id;
  ExpectRefused(client_.Get(base, As("b")), 404, "TEMPLATE_NOT_FOUND", before);
  ExpectRefused(client_.Get(base + "/published-version", As("b")), 404, "TEMPLATE_NOT_FOUND",
                before);
  ExpectRefused(client_.Post(base + "/versions", boost::json::serialize(NdaVersion()), As("b")),
                404, "TEMPLATE_NOT_FOUND", before);
  auto mine = client_.Get(base, As("a"));
  const std::string version(mine.Json().at("publishedVersionId").as_string());
  ExpectRefused(client_.Post(base + "/versions/" + version + "/publish", "", As("b")), 404,
                "TEMPLATE_NOT_FOUND", before);
  ExpectRefused(client_.Post(base + "/archive", "", As("b")), 404, "TEMPLATE_NOT_FOUND", before);
  ExpectRefused(client_.Post("/api/v1/contracts", NdaFrom(id, "Not theirs", false), As("b")), 404,
                "TEMPLATE_NOT_FOUND", before);
  // The platform's templates are the operator's to change.
  ExpectRefused(client_.Post("/api/v1/templates/tpl_mutual_nda/archive", "", As("a")), 403,
                "PERMISSION_DENIED", before);
}

TEST_F(TemplateApiTest, AContractFromAnOrganizationsTemplateIsSentAndOutlivesTheArchiving) {
  const std::string id = CreateTemplate();
  object contract = Create("a", NdaFrom(id, "NDA from our template", /*send_now=*/true));
  ASSERT_EQ(contract.at("templateId").as_string(), id);
  EXPECT_EQ(contract.at("status"), "sent");
  const std::string contract_id(contract.at("id").as_string());

  ASSERT_EQ(client_.Post("/api/v1/templates/" + id + "/archive", "", As("a")).status, 200);
  // The contract made before keeps its template: a hosted signer can still open the page.
  auto session = NewSession(contract_id, ParticipantId(contract, 0));
  ASSERT_EQ(session.status, 201) << session.body;
  auto page = client_.Get("/api/v1/hosted-signing/" + TokenOf(session));
  EXPECT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + contract_id, As("a")).status, 200);
}

TEST_F(TemplateApiTest, SignersFillInTheirRoleFieldsOnARenderedContract) {
  // A pattern RE2 refuses is refused where the template is made, by its path.
  uint64_t before = LogSize();
  object refused = NdaWithRoleFields();
  refused["versions"]
      .as_array()[0]
      .at("roles")
      .as_array()[1]
      .at("fields")
      .as_array()[0]
      .as_object()["pattern"] = "(a)\\1";
  ExpectRefused(client_.Post("/api/v1/templates", boost::json::serialize(refused), As("a")), 400,
                "TEMPLATE_INVALID", before, "versions[0].roles[1].fields[0].pattern");
  auto made =
      client_.Post("/api/v1/templates", boost::json::serialize(NdaWithRoleFields()), As("a"));
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string template_id(made.Json().at("id").as_string());
  object version = refused["versions"].as_array()[0].as_object();
  version.erase("templateVersionId");
  version.erase("published");
  before = LogSize();
  ExpectRefused(client_.Post("/api/v1/templates/" + template_id + "/versions",
                             boost::json::serialize(version), As("a")),
                400, "TEMPLATE_INVALID", before, "roles[1].fields[0].pattern");
  auto shown = client_.Get("/api/v1/templates/" + template_id, As("a"));
  ASSERT_EQ(shown.status, 200) << shown.body;
  EXPECT_NE(shown.body.find(R"("name":"vatNumber")"), std::string::npos) << shown.body;

  object contract = Create("a", NdaFrom(template_id, "NDA with fields", /*send_now=*/true));
  ASSERT_EQ(contract.at("status"), "sent") << contract;
  const std::string id(contract.at("id").as_string());
  ASSERT_EQ(contract.at("fields").as_array().size(), 3u) << contract;

  // Ada on the hosted page: her field is drawn on its page, the others' are not hers.
  auto session = NewSession(id, ParticipantId(contract, 0));
  ASSERT_EQ(session.status, 201) << session.body;
  const std::string hosted = "/api/v1/hosted-signing/" + TokenOf(session);
  auto pages = client_.Get(hosted + "/document/pages");
  ASSERT_EQ(pages.status, 200) << pages.body;
  const auto& drawn = pages.Json().at("fields").as_array();
  ASSERT_EQ(drawn.size(), 1u) << pages.body;
  EXPECT_EQ(drawn[0].at("fieldId"), "acceptsTerms");
  EXPECT_EQ(drawn[0].at("page"), 2);
  auto ada = client_.Post(hosted + "/complete", R"({"signatureText":"Ada Lovelace","consent":true,
"fieldValues":[{"field":"acceptsTerms","value":true}]})");
  ASSERT_EQ(ada.status, 200) << ada.body;

  // Grace through the integrator's session: a value her pattern refuses, then her values.
  auto managed = NewSession(id, ParticipantId(contract, 1));
  ASSERT_EQ(managed.status, 201) << managed.body;
  const std::string done = "/api/v1/signing-sessions/" +
                           std::string(managed.Json().at("sessionId").as_string()) + "/complete";
  auto record = [](const std::string& values) {
    std::string body = CompleteBody();
    body.insert(body.rfind('}'), R"(,"fieldValues":)" + values);
    return body;
  };
  before = LogSize();
  auto wrong = client_.Post(
      done, record(R"([{"field":"vatNumber","value":"DE12"},{"field":"fld_3","value":8}])"),
      As("a"));
  ExpectRefused(wrong, 400, "VALIDATION_FAILED", before, "fieldValues[0].value");
  EXPECT_NE(wrong.body.find("two letters, then 8 to 12 digits"), std::string::npos) << wrong.body;
  auto grace = client_.Post(
      done, record(R"([{"field":"vatNumber","value":"DE123456789"},{"field":"fld_3","value":8}])"),
      As("a"));
  ASSERT_EQ(grace.status, 200) << grace.body;

  auto fields = client_.Get("/api/v1/contracts/" + id + "/fields", As("a"));
  ASSERT_EQ(fields.status, 200) << fields.body;
  std::map<std::string, boost::json::value> values;
  for (const auto& field : fields.Json().at("items").as_array()) {
    EXPECT_EQ(field.at("pdfPage"), 2) << fields.body;
    values[std::string(field.at("fieldId").as_string())] = field.at("value");
  }
  EXPECT_EQ(values["acceptsTerms"], boost::json::value(true));
  EXPECT_EQ(values["vatNumber"], boost::json::value("DE123456789"));
  EXPECT_EQ(values["fld_3"], boost::json::value("8"));

  // The values are stamped on the rendered pages, listed in the certificate, and sealed.
  auto signed_pdf = client_.Get("/api/v1/contracts/" + id + "/documents/signed-only", As("a"));
  ASSERT_EQ(signed_pdf.status, 200) << signed_pdf.body;
  const std::string path = (data_dir_ / (id + "-role-fields.pdf")).string();
  std::ofstream(path, std::ios::binary) << signed_pdf.body;
  EXPECT_NE(RunShell("pdfsig " + path + " 2>&1").out.find("Signature is Valid"), std::string::npos);
  // In its box: the text of that area of page 2 (points from the top-left corner).
  EXPECT_NE(RunShell("pdftotext -f 2 -l 2 -x 320 -y 625 -W 210 -H 30 " + path + " - 2>&1")
                .out.find("DE123456789"),
            std::string::npos);
  const std::string text = RunShell("pdftotext " + path + " - 2>&1").out;
  for (const std::string expected :
       {"DE123456789", "\u2713", "Values entered (3)", "vatNumber (vatNumber)", "Ticked"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " in " << text;
  }
}

TEST_F(TemplateApiTest, AnIdempotencyKeyReplaysTheCreation) {
  const std::string body = boost::json::serialize(NdaTemplate());
  auto first = client_.Post("/api/v1/templates", body, As("a", {{"Idempotency-Key", "tpl-1"}}));
  ASSERT_EQ(first.status, 201) << first.body;
  const uint64_t after_first = LogSize();
  auto again = client_.Post("/api/v1/templates", body, As("a", {{"Idempotency-Key", "tpl-1"}}));
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(again.Json().at("id"), first.Json().at("id"));
  EXPECT_EQ(LogSize(), after_first);
  object other = NdaTemplate();
  other["name"] = "Another";
  ExpectRefused(client_.Post("/api/v1/templates", boost::json::serialize(other),
                             As("a", {{"Idempotency-Key", "tpl-1"}})),
                409, "IDEMPOTENCY_KEY_REUSED", after_first);
}

TEST_F(TemplateApiTest, MalformedAndOversizedBodiesStoreNothing) {
  const std::string id = CreateTemplate();
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post("/api/v1/templates", "{\"name\":", As("a")), 400, "VALIDATION_FAILED",
                before);
  ExpectRefused(client_.Post("/api/v1/templates", "[]", As("a")), 400, "VALIDATION_FAILED", before);
  object with_id = NdaTemplate();
  with_id["templateId"] = "tpl_chosen";
  ExpectRefused(client_.Post("/api/v1/templates", boost::json::serialize(with_id), As("a")), 400,
                "TEMPLATE_INVALID", before, "templateId");
  object broken = NdaTemplate();
  broken["versions"].as_array()[0].as_object()["body"] = boost::json::array{};
  ExpectRefused(client_.Post("/api/v1/templates", boost::json::serialize(broken), As("a")), 400,
                "TEMPLATE_INVALID", before, "versions[0].body");
  object large = NdaVersion();
  large["body"].as_array().push_back({{"type", "paragraph"}, {"text", std::string(300000, 'x')}});
  ExpectRefused(
      client_.Post("/api/v1/templates/" + id + "/versions", boost::json::serialize(large), As("a")),
      400, "VALIDATION_FAILED", before, "body");
  ExpectRefused(client_.Post("/api/v1/templates", std::string(2 << 20, ' '), As("a")), 413,
                "PAYLOAD_TOO_LARGE", before);
  ExpectRefused(client_.Post("/api/v1/templates/" + id + "/archive", R"({"why":"no"})", As("a")),
                400, "VALIDATION_FAILED", before, "why");
  ExpectRefused(client_.Post("/api/v1/templates", boost::json::serialize(NdaTemplate()),
                             As("a_templates_only")),
                403, "PERMISSION_DENIED", before);
}

}  // namespace
}  // namespace esign::testing
