// The contract and template families end to end: one contractd process on a fresh data directory,
// spoken to over loopback by clients of four organizations. Every refusal is checked to leave the
// log as it was (the log size is read from /metrics).
#include <boost/json.hpp>
#include <fstream>
#include <memory>
#include <regex>
#include <set>

#include "tests/app/api_suite.h"

namespace esign::testing {
namespace {

class ContractApiTest : public ApiSuite {};

TEST_F(ContractApiTest, TemplatesAreListedAndDescribed) {
  auto list = client_.Get("/api/v1/templates", As("a"));
  ASSERT_EQ(list.status, 200) << list.body;
  std::set<std::string> ids;
  for (const auto& t : list.Json().at("items").as_array())
    ids.insert(std::string(t.at("id").as_string()));
  EXPECT_TRUE(ids.contains("tpl_mutual_nda"));
  EXPECT_TRUE(ids.contains("tpl_services_agreement"));
  EXPECT_TRUE(ids.contains("tpl_employment_offer"));

  auto one = client_.Get("/api/v1/templates/tpl_mutual_nda", As("a"));
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.Json().at("id"), "tpl_mutual_nda");

  auto published = client_.Get("/api/v1/templates/tpl_mutual_nda/published-version", As("a"));
  ASSERT_EQ(published.status, 200) << published.body;
  EXPECT_TRUE(published.Json().as_object().contains("inputSchema"));
  EXPECT_TRUE(published.Json().as_object().contains("roles"));
  EXPECT_TRUE(published.Json().as_object().contains("settings"));

  EXPECT_EQ(client_.Get("/api/v1/templates/tpl_nothing", As("a")).ErrorCode(),
            "TEMPLATE_NOT_FOUND");
  EXPECT_EQ(client_.Get("/api/v1/templates", As("a_read_only")).ErrorCode(), "PERMISSION_DENIED");
  EXPECT_EQ(client_.Get("/api/v1/templates").ErrorCode(), "UNAUTHENTICATED");
}

TEST_F(ContractApiTest, DraftIsReadableAndListedAtOnce) {
  auto created = client_.Post("/api/v1/contracts", NdaBody("Read your writes", true), As("a"));
  ASSERT_EQ(created.status, 201) << created.body;
  const auto contract = created.Json().as_object();
  const std::string id(contract.at("id").as_string());
  EXPECT_TRUE(id.starts_with("ctr_"));
  EXPECT_EQ(contract.at("status"), "draft");
  EXPECT_EQ(contract.at("organizationSigningMode"), "automatic");
  EXPECT_EQ(created.Header("location"), "/api/v1/contracts/" + id);
  EXPECT_EQ(created.Header("etag"), "\"1\"");

  auto got = client_.Get("/api/v1/contracts/" + id, As("a"));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(got.Json().at("title"), "Read your writes");
  EXPECT_EQ(got.Header("etag"), "\"1\"");

  auto status = client_.Get("/api/v1/contracts/" + id + "/status", As("a"));
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.Json().at("status"), "draft");
  EXPECT_EQ(status.Json().at("organizationSigningMode"), "automatic");
  EXPECT_EQ(status.Json().at("participants").as_array().size(), 2u);
  EXPECT_TRUE(status.Json().as_object().contains("lifecycle"));

  auto list = client_.Get("/api/v1/contracts?scope=owned&limit=200", As("a"));
  ASSERT_EQ(list.status, 200) << list.body;
  bool listed = false;
  for (const auto& item : list.Json().at("items").as_array())
    listed |= item.at("id").as_string() == id;
  EXPECT_TRUE(listed) << list.body;
}

TEST_F(ContractApiTest, SendNowSendsAndRefusesUnboundSigners) {
  auto sent = Create("a", NdaBody("Sent at once", true, true));
  EXPECT_EQ(sent.at("status"), "sent");

  const uint64_t before = LogSize();
  auto refused = client_.Post("/api/v1/contracts", NdaBody("No roles", false, true), As("a"));
  ExpectRefused(refused, 400, "CONTRACT_ROLE_BINDING_INVALID", before,
                "participants[0].templateRoleId");
}

TEST_F(ContractApiTest, RoleBindingErrorsNameTheirCode) {
  const uint64_t before = LogSize();
  std::string unknown = NdaBody("Unknown role", true);
  unknown.replace(unknown.find("party_b_signatory"), 17, "no_such_role");
  ExpectRefused(client_.Post("/api/v1/contracts", unknown, As("a")), 400,
                "CONTRACT_ROLE_BINDING_UNKNOWN_ROLE", before);

  std::string duplicate = NdaBody("Duplicate role", true);
  duplicate.replace(duplicate.find("party_b_signatory"), 17, "party_a_signatory");
  ExpectRefused(client_.Post("/api/v1/contracts", duplicate, As("a")), 400,
                "CONTRACT_ROLE_BINDING_DUPLICATE", before);

  std::string routing = NdaBody("Bad routing", true);
  routing.replace(routing.find(R"("name":"Ada)"), 0, R"("routingOrder":0,)");
  ExpectRefused(client_.Post("/api/v1/contracts", routing, As("a")), 400,
                "CONTRACT_ROLE_BINDING_INVALID_ROUTING", before);
}

TEST_F(ContractApiTest, SendNamesMissingDataAsTheDraftWasGivenIt) {
  // The NDA by section, without terms.purpose: the draft is fine, sending names data.terms.purpose.
  std::string body = NdaBody("No purpose", true);
  const std::string purpose = R"("purpose":"Evaluating a joint venture",)";
  ASSERT_NE(body.find(purpose), std::string::npos);
  body.erase(body.find(purpose), purpose.size());
  const std::string id(Create("a", body).at("id").as_string());
  const uint64_t before = LogSize();
  auto refused = client_.Post("/api/v1/contracts/" + id + "/send", "", As("a"));
  ExpectRefused(refused, 400, "VALIDATION_FAILED", before, "data.terms.purpose");
  EXPECT_EQ(
      refused.Json().at("error").at("details"),
      boost::json::parse(R"([{"field":"data.terms.purpose","issue":"required before sending"}])"));
}

TEST_F(ContractApiTest, SendingPowersNeedContractsSend) {
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post("/api/v1/contracts", NdaBody("Roles", true), As("a_create_only")), 403,
                "PERMISSION_DENIED", before);
  ExpectRefused(client_.Post("/api/v1/contracts", NdaBody("Roles", false), As("a_read_only")), 403,
                "PERMISSION_DENIED", before);
  // Without roles, creating needs contracts:create only.
  auto draft = client_.Post("/api/v1/contracts", NdaBody("Plain", false), As("a_create_only"));
  EXPECT_EQ(draft.status, 201) << draft.body;
}

TEST_F(ContractApiTest, NotificationsAreCheckedBeforeAnySend) {
  uint64_t before = LogSize();
  std::string body = NdaBody("Bad notifications", true, true);
  body.insert(body.size() - 1, R"(,"notifications":{"contract.teleported":{"enabled":true}})");
  ExpectRefused(client_.Post("/api/v1/contracts", body, As("a")), 400,
                "INVALID_NOTIFICATION_SETTINGS", before);

  auto draft = Create("a", NdaBody("Send with bad notifications", true));
  const std::string id(draft.at("id").as_string());
  before = LogSize();
  ExpectRefused(client_.Post("/api/v1/contracts/" + id + "/send",
                             R"({"notifications":{"contract.sent":{"colour":"red"}}})", As("a")),
                400, "INVALID_NOTIFICATION_SETTINGS", before);
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id, As("a")).Json().at("status"), "draft");

  auto sent = client_.Post("/api/v1/contracts/" + id + "/send", "", As("a"));
  EXPECT_EQ(sent.status, 200) << sent.body;
  EXPECT_EQ(sent.Json().at("status"), "sent");
}

TEST_F(ContractApiTest, OrganizationSigningModeIsReadOnlyAndCopiedFromTheTemplate) {
  const uint64_t before = LogSize();
  std::string body = NdaBody("Mode", false);
  body.insert(1, R"("organizationSigningMode":"manual",)");
  ExpectRefused(client_.Post("/api/v1/contracts", body, As("a")), 400, "VALIDATION_FAILED", before,
                "organizationSigningMode");

  auto offer = Create("a", R"({"title":"Offer","templateId":"tpl_employment_offer"})");
  EXPECT_EQ(offer.at("organizationSigningMode"), "manual");
}

TEST_F(ContractApiTest, EditsOnlyInDraftWithVersionsAndIfMatch) {
  auto draft = Create("a", NdaBody("Editable", false));
  const std::string id(draft.at("id").as_string());
  const std::string base = "/api/v1/contracts/" + id;

  auto data =
      client_.Put(base + "/data", R"({"fieldValues":[{"key":"purpose","value":"A new purpose"}]})",
                  As("a", {{"If-Match", "\"1\""}}));
  ASSERT_EQ(data.status, 200) << data.body;
  EXPECT_EQ(data.Header("etag"), "\"2\"");

  uint64_t before = LogSize();
  ExpectRefused(
      client_.Put(base + "/data", R"({"fieldValues":[]})", As("a", {{"If-Match", "\"1\""}})), 412,
      "PRECONDITION_FAILED", before);

  auto bindings = client_.Put(
      base + "/role-bindings",
      R"({"roleBindings":[{"templateRoleId":"party_a_signatory","participantIndex":0}]})", As("a"));
  // participantIndex refers to a request's own participants; here ids are known.
  if (bindings.status != 200) {
    const auto participants = client_.Get(base, As("a")).Json().at("participants").as_array();
    bindings = client_.Put(
        base + "/role-bindings",
        boost::json::serialize(object{
            {"roleBindings",
             boost::json::array{object{{"templateRoleId", "party_a_signatory"},
                                       {"participantId", participants[0].at("participantId")}},
                                object{{"templateRoleId", "party_b_signatory"},
                                       {"participantId", participants[1].at("participantId")}}}}}),
        As("a"));
  }
  ASSERT_EQ(bindings.status, 200) << bindings.body;

  auto sent = client_.Post(base + "/send", "{}", As("a"));
  ASSERT_EQ(sent.status, 200) << sent.body;
  EXPECT_EQ(sent.Json().at("status"), "sent");

  before = LogSize();
  ExpectRefused(client_.Put(base + "/data", R"({"fieldValues":[]})", As("a")), 409,
                "CONTRACT_STATE_CONFLICT", before);
  ExpectRefused(client_.Put(base + "/table-data", R"({"tableData":{}})", As("a")), 409,
                "CONTRACT_STATE_CONFLICT", before);
  ExpectRefused(client_.Put(base + "/participants", R"({"participants":[]})", As("a")), 409,
                "CONTRACT_STATE_CONFLICT", before);
  ExpectRefused(client_.Post(base + "/send", "{}", As("a")), 409, "CONTRACT_STATE_CONFLICT",
                before);
}

TEST_F(ContractApiTest, TableDataAndParticipantsAreReplacedInDraft) {
  auto draft = Create("a", R"({"title":"Services","templateId":"tpl_services_agreement"})");
  const std::string base = "/api/v1/contracts/" + std::string(draft.at("id").as_string());

  auto table = client_.Put(base + "/table-data", R"({"tableData":{"paymentMilestones":[
      {"description":"Kick-off","dueDate":"2027-01-15","amount":"12500.00"},
      {"description":"Delivery","dueDate":"2027-03-01","amount":12500.5}]}})",
                           As("a"));
  ASSERT_EQ(table.status, 200) << table.body;
  const auto& rows = table.Json().at("tableData").at("paymentMilestones").as_array();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("amount"), "12500.00");  // decimals keep their exact text

  uint64_t before = LogSize();
  ExpectRefused(client_.Put(base + "/table-data",
                            R"({"tableData":{"paymentMilestones":[{"amount":"ten"}]}})", As("a")),
                400, "VALIDATION_FAILED", before);
  ExpectRefused(client_.Put(base + "/data",
                            R"({"fieldValues":[{"key":"paymentMilestones","value":[]}]})", As("a")),
                400, "VALIDATION_FAILED", before);

  auto participants = client_.Put(base + "/participants", R"({"participants":[
      {"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
       "name":"Client Signer","email":"signer@client.example","templateRoleId":"client_signatory"},
      {"action":"view","recipientType":"organization","name":"Auditor","organizationId":"org_b"}]})",
                                  As("a"));
  ASSERT_EQ(participants.status, 200) << participants.body;
  EXPECT_EQ(participants.Json().at("participants").as_array().size(), 2u);
  EXPECT_EQ(participants.Header("etag"), "\"3\"");

  before = LogSize();
  ExpectRefused(client_.Put(base + "/participants", R"({"participants":[
      {"action":"view","recipientType":"individual","executionChannel":"platform_hosted",
       "name":"Viewer","email":"v@x.example"}]})",
                            As("a")),
                400, "VALIDATION_FAILED", before, "participants[0].executionChannel");
  ExpectRefused(client_.Put(base + "/participants", R"({"participants":[
      {"action":"sign","recipientType":"organization","executionChannel":"platform_hosted",
       "name":"Org","organizationId":"org_c"}]})",
                            As("a")),
                400, "VALIDATION_FAILED", before, "participants[0].executionChannel");
  ExpectRefused(client_.Put(base + "/participants", R"({"participants":[]})", As("b")), 404,
                "CONTRACT_NOT_FOUND", before);
}

TEST_F(ContractApiTest, IdempotencyKeyReplaysTheFirstResponse) {
  const std::string body = NdaBody("Idempotent", true);
  auto first = client_.Post("/api/v1/contracts", body, As("a", {{"Idempotency-Key", "k-1"}}));
  ASSERT_EQ(first.status, 201) << first.body;
  const uint64_t after_first = LogSize();
  auto again = client_.Post("/api/v1/contracts", body, As("a", {{"Idempotency-Key", "k-1"}}));
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(again.Json().at("id"), first.Json().at("id"));
  EXPECT_EQ(LogSize(), after_first);

  ExpectRefused(client_.Post("/api/v1/contracts", NdaBody("Other body", true),
                             As("a", {{"Idempotency-Key", "k-1"}})),
                409, "IDEMPOTENCY_KEY_REUSED", after_first, "Idempotency-Key");
}

TEST_F(ContractApiTest, GrantsDecideWhoReadsAndFiltersNeverWiden) {
  // org_b views, org_c signs for its organization, org_d only receives a copy.
  const std::string extra = R"(,
{"action":"view","recipientType":"organization","name":"Globex legal","organizationId":"org_b"},
{"action":"receive_copy","recipientType":"organization","name":"Archive","organizationId":"org_d"})";
  auto contract = Create("a", NdaBody("Shared", true, true, extra));
  const std::string id(contract.at("id").as_string());
  ASSERT_EQ(contract.at("status"), "sent");
  // Other organizations' reads do not wait for org_a's write; org_a's own read does, so after it
  // the read side shows the contract to everyone.
  ASSERT_EQ(client_.Get("/api/v1/contracts/" + id, As("a")).status, 200);

  auto ids_of = [&](const std::string& who, const std::string& query) {
    std::set<std::string> ids;
    auto response = client_.Get("/api/v1/contracts" + query, As(who));
    EXPECT_EQ(response.status, 200) << response.body;
    if (response.status == 200) {
      for (const auto& item : response.Json().at("items").as_array()) {
        ids.insert(std::string(item.at("id").as_string()));
      }
    }
    return ids;
  };
  EXPECT_TRUE(ids_of("b", "?scope=shared_with_me").contains(id));
  EXPECT_TRUE(ids_of("b", "?scope=readable&accessRole=viewer").contains(id));
  EXPECT_TRUE(ids_of("b", "?participantAction=view").contains(id));
  EXPECT_FALSE(ids_of("b", "?scope=organization").contains(id));
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id, As("b")).status, 200);

  EXPECT_TRUE(ids_of("d", "").empty());
  EXPECT_TRUE(ids_of("d", "?organizationId=org_a").empty());
  EXPECT_TRUE(ids_of("d", "?participantAction=receive_copy").empty());
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id, As("d")).ErrorCode(), "CONTRACT_NOT_FOUND");
  EXPECT_EQ(client_.Get("/api/v1/contracts/" + id + "/status", As("c")).ErrorCode(),
            "CONTRACT_NOT_FOUND");

  EXPECT_TRUE(ids_of("a", "?scope=organization&status=sent").contains(id));
  EXPECT_FALSE(ids_of("a", "?status=draft").contains(id));
  EXPECT_TRUE(ids_of("a", "?q=shared").contains(id));
  // The id, in any case, finds that contract alone.
  std::string lower = id;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(ids_of("a", "?q=" + lower), std::set<std::string>{id});
  EXPECT_EQ(ids_of("b", "?q=" + id), std::set<std::string>{id});
  EXPECT_TRUE(ids_of("d", "?q=" + id).empty());
}

// The text index runs on a projector of its own: a client's search right after its own create
// waits for it, every time, and finds exactly what it created.
TEST_F(ContractApiTest, ASearchRightAfterACreateFindsIt) {
  for (int i = 0; i < 20; ++i) {
    const std::string title = "Zephyrine " + std::to_string(1000 + i);
    const object created = Create("a", NdaBody(title, false));
    ASSERT_TRUE(created.contains("id"));
    auto found =
        client_.Get("/api/v1/contracts?q=zephyrine%20" + std::to_string(1000 + i), As("a"));
    ASSERT_EQ(found.status, 200) << found.body;
    const auto& items = found.Json().at("items").as_array();
    ASSERT_EQ(items.size(), 1u) << found.body;
    EXPECT_EQ(items[0].at("id"), created.at("id"));
  }
}

TEST_F(ContractApiTest, PagingWithCursors) {
  for (int i = 0; i < 5; ++i) Create("c", NdaBody("Page " + std::to_string(i), false));
  std::set<std::string> seen;
  std::string cursor;
  int pages = 0;
  do {
    auto page = client_.Get(
        "/api/v1/contracts?limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor), As("c"));
    ASSERT_EQ(page.status, 200) << page.body;
    for (const auto& item : page.Json().at("items").as_array()) {
      EXPECT_TRUE(seen.insert(std::string(item.at("id").as_string())).second);
    }
    const auto& next = page.Json().at("nextCursor");
    cursor = next.is_string() ? std::string(next.as_string()) : "";
    ++pages;
  } while (!cursor.empty() && pages < 10);
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(pages, 3);

  auto first = client_.Get("/api/v1/contracts?limit=2", As("c"));
  std::string tampered(first.Json().at("nextCursor").as_string());
  tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_EQ(client_.Get("/api/v1/contracts?limit=2&cursor=" + tampered, As("c")).ErrorCode(),
            "INVALID_CURSOR");
  std::string cursor_for_drafts(first.Json().at("nextCursor").as_string());
  EXPECT_EQ(
      client_.Get("/api/v1/contracts?status=sent&cursor=" + cursor_for_drafts, As("c")).ErrorCode(),
      "INVALID_CURSOR");
}

TEST_F(ContractApiTest, BadInputIsRefusedAndChangesNothing) {
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post("/api/v1/contracts", "{not json", As("a")), 400, "VALIDATION_FAILED",
                before, "body");
  ExpectRefused(
      client_.Post("/api/v1/contracts", R"({"title":42,"templateId":"tpl_mutual_nda"})", As("a")),
      400, "VALIDATION_FAILED", before, "title");
  ExpectRefused(
      client_.Post("/api/v1/contracts", "{\"title\":\"\xff\xfe\",\"templateId\":\"x\"}", As("a")),
      400, "VALIDATION_FAILED", before);
  ExpectRefused(client_.Post("/api/v1/contracts", "[]", As("a")), 400, "VALIDATION_FAILED", before,
                "body");
  ExpectRefused(client_.Post("/api/v1/contracts", R"({"title":"x"})",
                             As("a", {{"Content-Type", "text/plain"}})),
                415, "UNSUPPORTED_MEDIA_TYPE", before);
  ExpectRefused(client_.Post("/api/v1/contracts",
                             R"({"title":")" + std::string(2 << 20, 'x') + R"("})", As("a")),
                413, "PAYLOAD_TOO_LARGE", before);
  ExpectRefused(
      client_.Post("/api/v1/contracts", R"({"title":"T","templateId":"tpl_nothing"})", As("a")),
      404, "TEMPLATE_NOT_FOUND", before);
  for (const char* bad : {"limit=0", "limit=201", "limit=abc", "status=lost", "scope=everything",
                          "dateField=birthday", "from=yesterday", "cursor=%21%21"}) {
    auto response = client_.Get(std::string("/api/v1/contracts?") + bad, As("a"));
    EXPECT_EQ(response.status, 400) << bad << ": " << response.body;
  }
  auto limit = client_.Get("/api/v1/contracts?limit=0", As("a"));
  EXPECT_EQ(limit.Json().at("error").at("details").at(0).at("field"), "limit");
  EXPECT_EQ(client_.Get("/api/v1/contracts?cursor=garbage", As("a")).ErrorCode(), "INVALID_CURSOR");
  EXPECT_EQ(client_.Get("/api/v1/contracts/ctr_missing", As("a")).ErrorCode(),
            "CONTRACT_NOT_FOUND");
  EXPECT_EQ(
      client_.Send(boost::beast::http::verb::delete_, "/api/v1/contracts", "", As("a")).ErrorCode(),
      "METHOD_NOT_ALLOWED");
  EXPECT_EQ(LogSize(), before);
}

TEST_F(ContractApiTest, TheUnsignedPdfIsRenderedAndFrozenAtSend) {
  auto draft = Create("a", NdaBody("Rendered", true));
  const std::string id(draft.at("id").as_string());
  const std::string base = "/api/v1/contracts/" + id;

  auto preview = client_.Get(base + "/documents/rendered-unsigned", As("a"));
  ASSERT_EQ(preview.status, 200) << preview.body.substr(0, 300);
  EXPECT_EQ(preview.Header("content-type"), "application/pdf");
  EXPECT_TRUE(preview.body.starts_with("%PDF-"));
  EXPECT_EQ(preview.Header("content-length"), std::to_string(preview.body.size()));
  EXPECT_EQ(preview.Header("content-disposition"),
            "inline; filename=\"" + id + "-rendered-unsigned.pdf\"");
  const std::string etag = preview.Header("etag");
  ASSERT_EQ(etag.size(), 66u);  // a quoted SHA-256
  EXPECT_EQ(
      client_.Get(base + "/documents/rendered-unsigned", As("a", {{"If-None-Match", etag}})).status,
      304);
  // A draft has no frozen version yet: signed-latest has nothing to fall back to.
  EXPECT_EQ(client_.Get(base + "/documents/signed-latest", As("a")).ErrorCode(),
            "CONTRACT_SIGNED_DOCUMENT_NOT_AVAILABLE");

  auto sent = client_.Post(base + "/send", "", As("a"));
  ASSERT_EQ(sent.status, 200) << sent.body;
  const std::string frozen_sha(sent.Json().at("renderedDocumentSha256").as_string());
  auto frozen = client_.Get(base + "/documents/rendered-unsigned?download=true", As("a"));
  ASSERT_EQ(frozen.status, 200);
  EXPECT_EQ(frozen.Header("etag"), "\"" + frozen_sha + "\"");
  EXPECT_EQ(frozen.Header("content-disposition"),
            "attachment; filename=\"" + id + "-rendered-unsigned.pdf\"");
  auto latest = client_.Get(base + "/documents/signed-latest", As("a"));
  ASSERT_EQ(latest.status, 200);
  EXPECT_EQ(latest.body, frozen.body);
  EXPECT_EQ(client_.Get(base + "/documents/signed-only", As("a")).ErrorCode(),
            "CONTRACT_SIGNED_DOCUMENT_NOT_AVAILABLE");

  // The PDF is well formed for an independent checker.
  const auto pdf_path = data_dir_.parent_path() / (id + ".pdf");
  {
    std::ofstream out(pdf_path, std::ios::binary);
    out << frozen.body;
  }
  const int qpdf = std::system(("qpdf --check " + pdf_path.string() + " >/dev/null").c_str());
  std::filesystem::remove(pdf_path);
  EXPECT_EQ(qpdf, 0);
}

TEST_F(ContractApiTest, EvidenceBundlesProveTheHistoryAndArePersistedAsRevisions) {
  auto contract = Create("a", NdaBody("Evidence", true, true));
  const std::string id(contract.at("id").as_string());
  const std::string base = "/api/v1/contracts/" + id;

  auto bundle = client_.Get(base + "/evidence/bundle", As("a"));
  ASSERT_EQ(bundle.status, 200) << bundle.body.substr(0, 500);
  const auto& json = bundle.Json().as_object();
  EXPECT_EQ(json.at("format"), "esign-evidence-bundle/2");
  // created, prepared, sent, and the session of the hosted signer, whose link is mailed
  EXPECT_EQ(json.at("auditTrail").as_array().size(), 4u);
  EXPECT_EQ(json.at("documents").as_array().at(0).at("kind"), "rendered_unsigned");
  EXPECT_FALSE(json.at("serviceCertificatePem").as_string().empty());

  // The ledger part verifies offline with the auditor's tool, and a changed byte is caught.
  const auto proof_path = data_dir_.parent_path() / (id + "-proof.json");
  auto verify_offline = [&](const std::string& text) {
    {
      std::ofstream out(proof_path);
      out << text;
    }
    const int status = std::system(
        (std::string(LEDGER_BINARY) + " verify-bundle " + proof_path.string() +
         " --public-key-url http://127.0.0.1:" + std::to_string(port_) + " >/dev/null 2>&1")
            .c_str());
    return WEXITSTATUS(status);
  };
  std::string proof = boost::json::serialize(json.at("ledger"));
  EXPECT_EQ(verify_offline(proof), 0);
  const auto leaf = proof.find("\"leafHash\":\"") + 12;
  proof[leaf] = proof[leaf] == 'a' ? 'b' : 'a';
  EXPECT_EQ(verify_offline(proof), 1);
  std::filesystem::remove(proof_path);

  auto report = client_.Get(base + "/evidence/verification", As("a"));
  ASSERT_EQ(report.status, 200) << report.body;
  EXPECT_EQ(report.Json().at("verdict"), "pass") << report.body;
  EXPECT_GE(report.Json().at("checks").as_array().size(), 5u);

  auto persisted = client_.Post(base + "/evidence/bundle", "", As("a"));
  ASSERT_EQ(persisted.status, 201) << persisted.body;
  EXPECT_EQ(persisted.Json().at("revision"), 1);
  const std::string sha(persisted.Json().at("sha256").as_string());
  auto revisions = client_.Get(base + "/documents/artifact-revisions", As("a"));
  ASSERT_EQ(revisions.Json().at("items").as_array().size(), 1u);
  EXPECT_EQ(revisions.Json().at("items").at(0).at("kind"), "evidence_bundle");
  auto download =
      client_.Get(base + "/documents/artifact-revisions/1/download?download=true", As("a"));
  ASSERT_EQ(download.status, 200);
  EXPECT_EQ(download.Header("content-type"), "application/json");
  EXPECT_EQ(download.Header("etag"), "\"" + sha + "\"");
  EXPECT_EQ(boost::json::parse(download.body).at("contractId").as_string(), id);

  // A draft has nothing to persist yet.
  auto draft = Create("a", NdaBody("Draft evidence", true));
  const uint64_t before = LogSize();
  ExpectRefused(client_.Post("/api/v1/contracts/" + std::string(draft.at("id").as_string()) +
                                 "/evidence/bundle",
                             "", As("a")),
                409, "CONTRACT_STATE_CONFLICT", before);
}

TEST_F(ContractApiTest, EveryContractOperationNeedsAToken) {
  const std::string id = "ctr_whatever";
  const std::vector<std::pair<boost::beast::http::verb, std::string>> operations = {
      {boost::beast::http::verb::get, "/api/v1/contracts"},
      {boost::beast::http::verb::post, "/api/v1/contracts"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id},
      {boost::beast::http::verb::put, "/api/v1/contracts/" + id + "/data"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/documents/artifact-revisions"},
      {boost::beast::http::verb::get,
       "/api/v1/contracts/" + id + "/documents/artifact-revisions/1/download"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/documents/rendered-unsigned"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/documents/signed-latest"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/documents/signed-only"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/evidence/audit-trail"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/evidence/bundle"},
      {boost::beast::http::verb::post, "/api/v1/contracts/" + id + "/evidence/bundle"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/evidence/verification"},
      {boost::beast::http::verb::put, "/api/v1/contracts/" + id + "/participants"},
      {boost::beast::http::verb::put, "/api/v1/contracts/" + id + "/role-bindings"},
      {boost::beast::http::verb::post, "/api/v1/contracts/" + id + "/send"},
      {boost::beast::http::verb::get, "/api/v1/contracts/" + id + "/status"},
      {boost::beast::http::verb::put, "/api/v1/contracts/" + id + "/table-data"},
  };
  for (const auto& [method, target] : operations) {
    auto response = client_.Send(method, target, "", {{"Authorization", "Bearer forged.token"}});
    EXPECT_EQ(response.status, 401) << target;
    EXPECT_EQ(response.ErrorCode(), "UNAUTHENTICATED") << target;
    EXPECT_EQ(client_.Send(method, target).ErrorCode(), "UNAUTHENTICATED") << target;
  }
}

TEST_F(ContractApiTest, DocumentsAndEvidenceAnswerTheirDocumentedErrors) {
  auto draft = Create("a", NdaBody("Documents", true));
  const std::string base = "/api/v1/contracts/" + std::string(draft.at("id").as_string());
  EXPECT_EQ(client_.Get(base + "/documents/signed-only", As("a")).ErrorCode(),
            "CONTRACT_SIGNED_DOCUMENT_NOT_AVAILABLE");
  EXPECT_EQ(client_.Get(base + "/documents/signed-latest", As("a")).status, 404);
  auto revisions = client_.Get(base + "/documents/artifact-revisions", As("a"));
  ASSERT_EQ(revisions.status, 200) << revisions.body;
  EXPECT_TRUE(revisions.Json().at("items").as_array().empty());
  EXPECT_EQ(client_.Get(base + "/documents/artifact-revisions/abc/download", As("a")).status, 400);
  EXPECT_EQ(client_.Get(base + "/documents/artifact-revisions/7/download", As("a")).ErrorCode(),
            "ARTIFACT_REVISION_NOT_FOUND");
  EXPECT_EQ(client_.Get(base + "/documents/signed-only?download=maybe", As("a")).status, 400);

  auto trail = client_.Get(base + "/evidence/audit-trail", As("a"));
  ASSERT_EQ(trail.status, 200) << trail.body;
  const auto& events = trail.Json().at("events").as_array();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].at("type"), "contract.created");
  EXPECT_EQ(events[0].at("leafHash").as_string().size(), 64u);

  EXPECT_EQ(client_.Get(base + "/evidence/audit-trail", As("d")).ErrorCode(), "CONTRACT_NOT_FOUND");
  EXPECT_EQ(client_.Post(base + "/evidence/bundle", "", As("a_read_only")).ErrorCode(),
            "PERMISSION_DENIED");
}

}  // namespace
}  // namespace esign::testing
