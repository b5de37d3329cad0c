#include "http/openapi_routes.h"

#include <gtest/gtest.h>

#include "domain/error.h"
#include "webhooks/endpoint.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace esign::http {
namespace {

using boost::beast::http::verb;

constexpr std::string_view kMethods[] = {"get",     "put",  "post",  "delete",
                                         "options", "head", "patch", "trace"};
constexpr std::string_view kErrorSchema = "#/components/schemas/Error";

const boost::json::value& Document() {
  static const boost::json::value doc = boost::json::parse(OpenApiDocumentText());
  return doc;
}

// Follows a local "$ref" ("#/components/responses/Error") to what it names, once.
const boost::json::value& Deref(const boost::json::value& node) {
  const auto* ref = node.is_object() ? node.get_object().if_contains("$ref") : nullptr;
  if (ref == nullptr) return node;
  std::string pointer(ref->get_string());
  EXPECT_TRUE(pointer.starts_with("#")) << pointer;
  return Document().at_pointer(pointer.substr(1));
}

struct Operation {
  std::string method;  // upper case
  std::string path;
  const boost::json::object* body;
};

std::vector<Operation> Operations() {
  std::vector<Operation> out;
  for (const auto& [path, item] : Document().at("paths").as_object()) {
    for (std::string_view method : kMethods) {
      if (const auto* op = item.as_object().if_contains(method)) {
        std::string upper(method);
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        out.push_back({upper, std::string(path), &op->as_object()});
      }
    }
  }
  return out;
}

// The parameters an operation takes, its path item's included, each resolved.
std::vector<const boost::json::object*> Parameters(const Operation& op) {
  std::vector<const boost::json::object*> out;
  auto add = [&](const boost::json::value* list) {
    if (list == nullptr) return;
    for (const auto& p : list->as_array()) out.push_back(&Deref(p).as_object());
  };
  add(Document().at("paths").at(op.path).as_object().if_contains("parameters"));
  add(op.body->if_contains("parameters"));
  return out;
}

bool HasParameter(const Operation& op, std::string_view in, std::string_view name) {
  for (const auto* p : Parameters(op)) {
    if (p->at("in").as_string() == in && p->at("name").as_string() == name) return true;
  }
  return false;
}

std::string Name(const Operation& op) { return op.method + " " + op.path; }

TEST(OpenApiDocumentTest, IsOpenApi31WithRootServerAndBearerScheme) {
  const auto& doc = Document().as_object();
  EXPECT_EQ(doc.at("openapi").as_string(), "3.1.0");
  EXPECT_EQ(doc.at("servers").at(0).at("url").as_string(), "/");
  const auto& scheme = doc.at("components").at("securitySchemes").at("bearerAuth");
  EXPECT_EQ(scheme.at("type").as_string(), "http");
  EXPECT_EQ(scheme.at("scheme").as_string(), "bearer");
  EXPECT_EQ(doc.at("security"), boost::json::parse(R"([{"bearerAuth": []}])"));
}

TEST(OpenApiDocumentTest, EveryOperationHasIdSuccessAndDefaultError) {
  const auto operations = Operations();
  ASSERT_FALSE(operations.empty());
  for (const auto& op : operations) {
    SCOPED_TRACE(Name(op));
    const auto* id = op.body->if_contains("operationId");
    ASSERT_NE(id, nullptr);
    EXPECT_FALSE(id->as_string().empty());
    EXPECT_TRUE(op.body->contains("tags"));

    const auto& responses = op.body->at("responses").as_object();
    const bool has_success = std::any_of(responses.begin(), responses.end(), [](const auto& r) {
      return r.key().starts_with("2") && r.key().size() == 3;
    });
    EXPECT_TRUE(has_success);
    ASSERT_TRUE(responses.contains("default"));
    for (const auto& [status, response] : responses) {
      if (status != "default" && !status.starts_with("4") && !status.starts_with("5")) continue;
      SCOPED_TRACE(std::string(status));
      // The embedded signing page answers a refused URL with itself, saying why inside the frame.
      if (id->as_string() == "getEmbeddedSigningPage" &&
          Deref(response).at("content").as_object().contains("text/html")) {
        continue;
      }
      const auto& schema = Deref(response).at("content").at("application/json").at("schema");
      EXPECT_EQ(schema.at("$ref").as_string(), kErrorSchema);
    }
  }
}

TEST(OpenApiDocumentTest, OperationIdsAreTheAgreedOnes) {
  const std::multiset<std::string> expected = {
      "createMachineToken",
      "introspectToken",
      "revokeToken",
      "listTemplates",
      "getTemplate",
      "getPublishedTemplateVersion",
      "createTemplate",
      "addTemplateVersion",
      "publishTemplateVersion",
      "archiveTemplate",
      "listContracts",
      "createContract",
      "getContract",
      "updateContractData",
      "listContractDocuments",
      "listContractFields",
      "listArtifactRevisions",
      "downloadArtifactRevision",
      "getRenderedUnsignedDocument",
      "getSignedLatestDocument",
      "getSignedOnlyDocument",
      "getAuditTrail",
      "getEvidenceBundle",
      "persistEvidenceBundle",
      "getVerificationReport",
      "replaceParticipants",
      "updateRoleBindings",
      "sendContract",
      "voidContract",
      "remindParticipants",
      "getContractStatus",
      "listContractNotifications",
      "updateTableData",
      "getOpenApiDocument",
      "getEventSchemas",
      "getSigningPage",
      "uploadSigningSessionAttachment",
      "uploadHostedSigningAttachment",
      "downloadContractFieldAttachment",
      "createWebhookEndpoint",
      "listWebhookEndpoints",
      "getWebhookEndpoint",
      "updateWebhookEndpoint",
      "deleteWebhookEndpoint",
      "rotateWebhookEndpointSecret",
      "listWebhookDeliveries",
      "retryWebhookDelivery",
      "createSigningSession",
      "listSigningSessions",
      "getSigningSession",
      "cancelSigningSession",
      "refreshSigningSession",
      "downloadSigningSessionDocument",
      "completeSigningSession",
      "declineSigningSession",
      "getHostedSigningSession",
      "downloadHostedSigningDocument",
      "getHostedSigningDocumentPages",
      "getHostedSigningDocumentPageImage",
      "completeHostedSigning",
      "declineHostedSigning",
      "authenticateHostedSigner",
      "sendHostedSignerEmailCode",
      "receiveProviderCallback",
      "getLedgerPublicKey",
      "getLedgerTreeHead",
      "getLedgerConsistencyProof",
      "uploadDocument",
      "getDocument",
      "getDocumentContent",
      "getOrganization",
      "updateOrganization",
      "setOrganizationLogo",
      "getOrganizationLogo",
      "deleteOrganizationLogo",
      "createEmbedUrl",
      "getEmbeddedSigningPage",
      "getSigningElementScript",
      "getHostedSigningLogo",
      "createBulkSend",
      "getBulkSend",
      "listBulkSendRows",
      "cancelBulkSend",
  };
  std::multiset<std::string> actual;
  for (const auto& op : Operations())
    actual.insert(std::string(op.body->at("operationId").as_string()));
  EXPECT_EQ(actual, expected);
}

// The contract family as the specification's table (section 4) lists it, with void and remind
// (DESIGN section 14), the contract's e-mails (DESIGN section 15) and its documents (DESIGN
// section 20).
TEST(OpenApiDocumentTest, ContractOperationsMatchTheSpecificationTable) {
  const std::set<std::pair<std::string, std::string>> table = {
      {"GET /api/v1/contracts", "200"},
      {"POST /api/v1/contracts", "201"},
      {"GET /api/v1/contracts/{id}", "200"},
      {"PUT /api/v1/contracts/{id}/data", "200"},
      {"GET /api/v1/contracts/{id}/documents", "200"},
      {"GET /api/v1/contracts/{id}/fields", "200"},
      {"GET /api/v1/contracts/{id}/fields/{fieldId}/attachment", "200"},
      {"GET /api/v1/contracts/{id}/documents/artifact-revisions", "200"},
      {"GET /api/v1/contracts/{id}/documents/artifact-revisions/{revision}/download", "200"},
      {"GET /api/v1/contracts/{id}/documents/rendered-unsigned", "200"},
      {"GET /api/v1/contracts/{id}/documents/signed-latest", "200"},
      {"GET /api/v1/contracts/{id}/documents/signed-only", "200"},
      {"GET /api/v1/contracts/{id}/evidence/audit-trail", "200"},
      {"GET /api/v1/contracts/{id}/evidence/bundle", "200"},
      {"POST /api/v1/contracts/{id}/evidence/bundle", "201"},
      {"GET /api/v1/contracts/{id}/evidence/verification", "200"},
      {"PUT /api/v1/contracts/{id}/participants", "200"},
      {"PUT /api/v1/contracts/{id}/role-bindings", "200"},
      {"POST /api/v1/contracts/{id}/send", "200"},
      {"POST /api/v1/contracts/{id}/void", "200"},
      {"POST /api/v1/contracts/{id}/remind", "200"},
      {"GET /api/v1/contracts/{id}/status", "200"},
      {"GET /api/v1/contracts/{id}/notifications", "200"},
      {"PUT /api/v1/contracts/{id}/table-data", "200"},
  };
  std::set<std::pair<std::string, std::string>> documented;
  for (const auto& op : Operations()) {
    // Signing sessions of a contract belong to the signing family.
    if (!op.path.starts_with("/api/v1/contracts") || op.path.ends_with("/signing-sessions")) {
      continue;
    }
    for (const auto& [status, unused] : op.body->at("responses").as_object()) {
      if (status.starts_with("2")) documented.emplace(Name(op), std::string(status));
    }
  }
  EXPECT_EQ(documented, table);
}

// Open: the machine token, this document and the event schemas, the signing page and its operations
// (authenticated by the link's token), provider callbacks (authenticated by their HMAC signature)
// and the ledger's published trust (sizes and hashes only).
TEST(OpenApiDocumentTest, OnlyTheOperationsWithTheirOwnCredentialsAreOpen) {
  const std::set<std::string_view> open = {"createMachineToken",
                                           "getOpenApiDocument",
                                           "getEventSchemas",
                                           "getSigningPage",
                                           "getEmbeddedSigningPage",
                                           "getSigningElementScript",
                                           "getHostedSigningLogo",
                                           "getHostedSigningSession",
                                           "downloadHostedSigningDocument",
                                           "getHostedSigningDocumentPages",
                                           "getHostedSigningDocumentPageImage",
                                           "completeHostedSigning",
                                           "uploadHostedSigningAttachment",
                                           "declineHostedSigning",
                                           "authenticateHostedSigner",
                                           "sendHostedSignerEmailCode",
                                           "receiveProviderCallback",
                                           "getLedgerPublicKey",
                                           "getLedgerTreeHead",
                                           "getLedgerConsistencyProof"};
  for (const auto& op : Operations()) {
    SCOPED_TRACE(Name(op));
    const std::string_view id = op.body->at("operationId").as_string();
    const auto* security = op.body->if_contains("security");
    if (open.contains(id)) {
      ASSERT_NE(security, nullptr);
      EXPECT_TRUE(security->as_array().empty());
    } else {
      EXPECT_EQ(security, nullptr) << "inherits the global bearer requirement";
      EXPECT_TRUE(op.body->at("responses").as_object().contains("401"));
    }
  }
}

TEST(OpenApiDocumentTest, HeadersAndQueryParametersWhereTheConventionsPutThem) {
  const std::set<std::string> idempotent = {"createContract",
                                            "sendContract",
                                            "voidContract",
                                            "remindParticipants",
                                            "persistEvidenceBundle",
                                            "createWebhookEndpoint",
                                            "rotateWebhookEndpointSecret",
                                            "createTemplate",
                                            "addTemplateVersion",
                                            "publishTemplateVersion",
                                            "archiveTemplate",
                                            "uploadDocument",
                                            "createBulkSend"};
  const std::set<std::string> downloads = {
      "downloadArtifactRevision", "getRenderedUnsignedDocument", "getSignedLatestDocument",
      "getSignedOnlyDocument", "downloadContractFieldAttachment"};
  // The exact PDF a signer signs: cacheable by its hash, always inline;
  // and its pages as images, cacheable by the document's hash, page and width.
  const std::set<std::string> documents_to_sign = {"downloadSigningSessionDocument",
                                                   "downloadHostedSigningDocument",
                                                   "getHostedSigningDocumentPageImage"};
  for (const auto& op : Operations()) {
    SCOPED_TRACE(Name(op));
    const std::string id(op.body->at("operationId").as_string());
    EXPECT_TRUE(HasParameter(op, "header", "X-Request-Id"));
    EXPECT_EQ(HasParameter(op, "header", "Idempotency-Key"), idempotent.contains(id));
    // If-Match on every PUT, and on the organization's other changes (its settings are one
    // versioned resource).
    EXPECT_EQ(HasParameter(op, "header", "If-Match"),
              op.method == "PUT" || id == "updateOrganization" || id == "deleteOrganizationLogo");
    EXPECT_EQ(HasParameter(op, "query", "download"), downloads.contains(id));
    const auto& responses = op.body->at("responses").as_object();
    EXPECT_EQ(responses.contains("304"), downloads.contains(id) || documents_to_sign.contains(id));
    if (op.method == "PUT") {
      EXPECT_TRUE(responses.contains("412"));
    }
    if (op.body->contains("requestBody")) {
      EXPECT_TRUE(responses.contains("413"));
      EXPECT_TRUE(responses.contains("415"));
    }
  }
}

TEST(OpenApiDocumentTest, ListContractsTakesEveryFilterOfTheSpecification) {
  const auto& list = Document().at_pointer("/paths/~1api~1v1~1contracts/get");
  std::map<std::string, boost::json::object> params;
  for (const auto& p : list.at("parameters").as_array()) {
    const auto& param = Deref(p).as_object();
    params[std::string(param.at("name").as_string())] = param;
  }
  for (const char* name :
       {"scope", "status", "dateField", "from", "to", "organizationId",
        "counterpartyOrganizationId", "participantAction", "accessRole", "q", "limit", "cursor"}) {
    EXPECT_TRUE(params.contains(name)) << name;
  }
  const auto enum_of = [&](const std::string& name) {
    return Deref(params.at(name).at("schema")).at("enum");
  };
  EXPECT_EQ(enum_of("scope"),
            boost::json::parse(R"(["owned","organization","shared_with_me","readable"])"));
  EXPECT_EQ(enum_of("status"),
            boost::json::parse(
                R"(["draft","sent","signing","completed","declined","voided","expired"])"));
  EXPECT_EQ(enum_of("dateField"),
            boost::json::parse(R"(["createdAt","updatedAt","sentAt","completedAt","declinedAt",
                                   "voidedAt","expiredAt","expiresAt"])"));
  EXPECT_EQ(enum_of("participantAction"), boost::json::parse(R"(["sign","view","receive_copy"])"));
  EXPECT_EQ(enum_of("accessRole"), boost::json::parse(R"(["controller","signer","viewer"])"));
  const auto& limit = params.at("limit").at("schema");
  EXPECT_EQ(limit.at("minimum").as_int64(), 1);
  EXPECT_EQ(limit.at("maximum").as_int64(), 200);
  EXPECT_EQ(limit.at("default").as_int64(), 50);
}

// Every code of domain/error.h (kValidationFailed first, kInternal last) is in the document's
// ErrorCode enum and nothing else is, so a new code cannot be left out of the document.
TEST(OpenApiDocumentTest, ErrorCodeEnumIsEveryCodeOfTheService) {
  std::set<std::string> service;
  for (int i = static_cast<int>(ErrorCode::kValidationFailed);
       i <= static_cast<int>(ErrorCode::kInternal); ++i) {
    service.insert(std::string(ToString(static_cast<ErrorCode>(i))));
  }
  std::set<std::string> documented;
  for (const auto& code : Document().at_pointer("/components/schemas/ErrorCode/enum").as_array()) {
    EXPECT_TRUE(documented.insert(std::string(code.as_string())).second) << code;
  }
  EXPECT_EQ(documented, service);
  const auto& code =
      Document().at_pointer("/components/schemas/Error/properties/error/properties/code");
  EXPECT_EQ(code.at("anyOf").at(0).at("$ref").as_string(), "#/components/schemas/ErrorCode");
}

// The webhooks object describes exactly the event types an endpoint can subscribe to.
TEST(OpenApiDocumentTest, WebhooksDescribeEveryDeliveredEventType) {
  std::set<std::string> delivered(webhooks::kWebhookEventTypes.begin(),
                                  webhooks::kWebhookEventTypes.end());
  std::set<std::string> described;
  for (const auto& [type, item] : Document().at("webhooks").as_object()) {
    described.insert(std::string(type));
    SCOPED_TRACE(std::string(type));
    std::set<std::string> headers;
    for (const auto& p : item.at("post").at("parameters").as_array()) {
      headers.insert(std::string(Deref(p).at("name").as_string()));
    }
    EXPECT_EQ(headers,
              (std::set<std::string>{"webhook-id", "webhook-timestamp", "webhook-signature"}));
  }
  EXPECT_EQ(described, delivered);
  std::set<std::string> subscribable;
  for (const auto& t :
       Document().at_pointer("/components/schemas/WebhookEventType/enum").as_array()) {
    subscribable.insert(std::string(t.as_string()));
  }
  EXPECT_EQ(subscribable, delivered);
}

TEST(OpenApiRoutesTest, ServesTheEmbeddedDocumentAndTheEventSchemasWithoutAuthentication) {
  ApiRoutes routes;
  AddOpenApiRoutes(routes);
  auto match = routes.router().Find(verb::get, "/api/v1/openapi.json");
  ASSERT_NE(match.target, nullptr);
  EXPECT_EQ(match.target->operation_id, "getOpenApiDocument");
  EXPECT_EQ(match.target->auth, Auth::kNone);

  Request http{verb::get, "/api/v1/openapi.json", 11};
  ApiRequest request{http};
  auto response = match.target->handler(request);
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->status, 200u);
  EXPECT_EQ(response->content_type, "application/json");
  EXPECT_EQ(response->body, OpenApiDocumentText());
  EXPECT_EQ(CompareRoutesWithDocument(routes, Document()).size(), Operations().size() - 2)
      << "every other operation is documented but not routed here";

  // The event schemas beside it: a JSON Schema document naming every event type.
  auto schemas = routes.router().Find(verb::get, "/api/v1/events/schemas");
  ASSERT_NE(schemas.target, nullptr);
  EXPECT_EQ(schemas.target->operation_id, "getEventSchemas");
  EXPECT_EQ(schemas.target->auth, Auth::kNone);
  auto served = schemas.target->handler(request);
  ASSERT_TRUE(served.has_value());
  EXPECT_EQ(served->content_type, "application/schema+json");
  const auto parsed = boost::json::parse(served->body).as_object();
  EXPECT_EQ(parsed.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  EXPECT_TRUE(parsed.at("$defs").as_object().contains("signer.completed"));
}

RouteSpec Route(std::string operation_id, Auth auth = Auth::kBearer) {
  return RouteSpec{std::move(operation_id), auth,
                   [](const ApiRequest&) -> ApiResult { return ApiResponse{}; }};
}

const boost::json::value& SmallDocument() {
  static const boost::json::value doc = boost::json::parse(R"({
    "openapi": "3.1.0",
    "security": [{"bearerAuth": []}],
    "paths": {
      "/api/v1/things": {
        "get": {"operationId": "listThings"},
        "post": {"operationId": "createThing"}
      },
      "/api/v1/things/{id}": {
        "parameters": [],
        "get": {"operationId": "getThing"},
        "delete": {"operationId": "deleteThing"}
      },
      "/api/v1/open": {"get": {"operationId": "getOpen", "security": []}}
    }
  })");
  return doc;
}

TEST(CompareRoutesWithDocumentTest, AgreementIsEmpty) {
  ApiRoutes routes;
  routes.Add(verb::get, "/api/v1/things", Route("listThings"));
  routes.Add(verb::post, "/api/v1/things", Route("createThing"));
  routes.Add(verb::get, "/api/v1/things/{id}", Route("getThing"));
  routes.Add(verb::delete_, "/api/v1/things/{id}", Route("deleteThing"));
  routes.Add(verb::get, "/api/v1/open", Route("getOpen", Auth::kNone));
  EXPECT_EQ(CompareRoutesWithDocument(routes, SmallDocument()), std::vector<std::string>{});
}

TEST(CompareRoutesWithDocumentTest, ReportsEveryDisagreement) {
  ApiRoutes routes;
  routes.Add(verb::get, "/api/v1/things", Route("listThings"));
  routes.Add(verb::post, "/api/v1/things", Route("addThing"));           // other id
  routes.Add(verb::get, "/api/v1/things/{thingId}", Route("getThing"));  // other spelling
  routes.Add(verb::put, "/api/v1/things/{id}", Route("replaceThing"));   // undocumented
  routes.Add(verb::get, "/api/v1/open", Route("getOpen"));               // auth differs
  // DELETE /api/v1/things/{id} is documented, not routed.
  const std::vector<std::string> expected = {
      "POST /api/v1/things: routed as operation 'addThing', documented as 'createThing'",
      "GET /api/v1/things/{thingId}: routed but not in the OpenAPI document",
      "PUT /api/v1/things/{id}: routed but not in the OpenAPI document",
      "GET /api/v1/open: routed with bearer authentication, documented without it",
      "DELETE /api/v1/things/{id} (deleteThing): documented but not routed",
      "GET /api/v1/things/{id} (getThing): documented but not routed",
  };
  EXPECT_EQ(CompareRoutesWithDocument(routes, SmallDocument()), expected);
}

TEST(CompareRoutesWithDocumentTest, ReportsARouteShadowedByAnEarlierCapture) {
  ApiRoutes routes;
  routes.Add(verb::get, "/api/v1/things/{id}", Route("getThing"));
  routes.Add(verb::get, "/api/v1/things", Route("listThings"));
  routes.Add(verb::post, "/api/v1/things", Route("createThing"));
  routes.Add(verb::delete_, "/api/v1/things/{id}", Route("deleteThing"));
  routes.Add(verb::get, "/api/v1/open", Route("getOpen", Auth::kNone));
  auto doc = SmallDocument();
  doc.at("paths").as_object()["/api/v1/things/latest"] =
      boost::json::parse(R"({"get": {"operationId": "getLatestThing"}})");
  routes.Add(verb::get, "/api/v1/things/latest", Route("getLatestThing"));
  EXPECT_EQ(CompareRoutesWithDocument(routes, doc),
            std::vector<std::string>{"GET /api/v1/things/latest: routed as operation 'getThing', "
                                     "documented as 'getLatestThing'"});
}

TEST(CompareRoutesWithDocumentTest, ToleratesADocumentWithoutPaths) {
  ApiRoutes routes;
  routes.Add(verb::get, "/api/v1/things", Route("listThings"));
  EXPECT_EQ(CompareRoutesWithDocument(routes, boost::json::parse("{}")).size(), 1u);
  EXPECT_EQ(CompareRoutesWithDocument(routes, boost::json::value()).size(), 1u);
}

}  // namespace
}  // namespace esign::http
