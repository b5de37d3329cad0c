#include "fuzz_service.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>
#include <mutex>

#include "base/time_text.h"
#include "commands/contract_commands.h"
#include "commands/evidence_commands.h"
#include "commands/organization_templates.h"
#include "commands/template_commands.h"
#include "documents/contract_documents.h"
#include "documents/service_certificate.h"
#include "domain/json_parse.h"
#include "domain/signer_secrets.h"
#include "eventstore/memory_event_store.h"
#include "http/api_handler.h"
#include "http/auth_module.h"
#include "http/contract_routes.h"
#include "http/openapi_routes.h"
#include "http/provider_callback_routes.h"
#include "http/signing_page_routes.h"
#include "http/signing_routes.h"
#include "http/template_routes.h"
#include "projections/contract_as_of.h"
#include "projections/contract_queries.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "projections/read_your_writes.h"
#include "projections/signing_session_index.h"
#include "projections/template_catalog.h"

namespace esign::fuzz {
namespace {

constexpr auto kWait = std::chrono::seconds(10);

// Ids in sequence, so that a run's ids do not depend on the kernel's randomness.
class SequentialIds final : public IdGenerator {
 public:
  std::string Next(std::string_view prefix) override {
    std::lock_guard lock(mutex_);
    return std::string(prefix) + "FUZZ" + std::to_string(++next_);
  }

 private:
  std::mutex mutex_;
  uint64_t next_ = 0;
};

template <class T>
T Must(Result<T> result) {
  if (!result) __builtin_trap();
  return std::move(*result);
}

// The answer to `request`, once the read side has applied what it wrote.
http::Response Exchange(http::ApiHandler& handler, const projections::Projector& projector,
                        const eventstore::EventStore& store, http::Request request) {
  std::promise<http::Response> answered;
  handler.Handle(std::move(request), http::RequestContext{"127.0.0.1"},
                 [&](http::Response r) { answered.set_value(std::move(r)); });
  http::Response response = answered.get_future().get();
  if (!projector.WaitFor(store.Size(), kWait)) __builtin_trap();
  return response;
}

// A services agreement sent at once: the client signs through the integrator, the provider
// company through provider "prv_fuzz" (as in tests/app/provider_signing_test.cc).
constexpr char kProviderContract[] = R"({"title":"Services with a provider",
"templateId":"tpl_services_agreement","sendNow":true,
"data":{"parties":{"clientName":"Client AG","clientAddress":"Bahnhofstrasse 1, Zurich",
"providerName":"Provider BV","providerRegistrationNumber":"NL-123",
"billingEmail":"billing@provider.example"},
"engagement":{"effectiveDate":"2026-12-01","scopeOfServices":"Cloud migration of the billing system.",
"currency":"EUR","totalFee":"1200.00","paymentTermsDays":30,"governingLaw":"Netherlands",
"paymentMilestones":[{"description":"All","dueDate":"2027-01-31","amount":"1200.00"}]}},
"participants":[
{"action":"sign","recipientType":"individual","executionChannel":"integrator_managed",
 "name":"Clara Client","email":"clara@client.example","templateRoleId":"client_signatory"},
{"action":"sign","recipientType":"organization","executionChannel":"provider_managed",
 "name":"Provider BV","organizationId":"org_provider","templateRoleId":"provider_company",
 "providerConfigRef":"prv_fuzz"},
{"action":"view","recipientType":"individual","name":"Otto Observer",
 "email":"otto@client.example","templateRoleId":"project_observer"}]})";

}  // namespace

struct FuzzService::Parts {
  ManualClock clock{FuzzService::kNowSeconds * 1000000};
  SequentialIds ids;
  std::filesystem::path data_dir;
  std::unique_ptr<eventstore::MemoryEventStore> store =
      Must(eventstore::MemoryEventStore::Create());
  projections::MemoryViewStore views;
  projections::TemplateCatalog catalog;
  std::unique_ptr<projections::ContractViews> contract_views;
  std::unique_ptr<projections::ContractTextIndex> text_index;
  std::unique_ptr<projections::SigningSessionIndex> sessions;
  std::unique_ptr<http::AuthModule> auth;
  std::unique_ptr<projections::Projector> projector;
  std::unique_ptr<projections::ContractQueries> queries;
  std::unique_ptr<projections::ReadYourWrites> read_your_writes;
  std::unique_ptr<documents::ServiceCertificate> certificate;
  std::unique_ptr<documents::ContractDocuments> documents;
  std::unique_ptr<SignerSecrets> signer_secrets;
  std::unique_ptr<commands::ContractCommandHandler> commands;
  std::unique_ptr<commands::EvidenceCommands> evidence;
  std::unique_ptr<commands::OrganizationTemplates> templates;
  http::ApiRoutes routes;
  std::unique_ptr<http::ApiHandler> handler;
  std::string access_token;
  std::string provider_session_id;

  Parts() {
    // The token key and the service certificate are files of a data directory.
    data_dir = std::filesystem::temp_directory_path() / ("esign-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(data_dir);
    (void)Must(commands::ImportTemplateDirectory(*store, SOURCE_DIR "/examples/templates",
                                                 eventstore::Actor{.client_id = "contractd"}));
    contract_views = std::make_unique<projections::ContractViews>(*store);
    text_index = std::make_unique<projections::ContractTextIndex>(*store);
    sessions = std::make_unique<projections::SigningSessionIndex>(views);
    auth = Must(http::AuthModule::Create(
        *store, data_dir,
        [this](uint64_t size, std::chrono::milliseconds timeout) {
          return projector->WaitFor(size, timeout);
        },
        // Valid for the whole of a long run; the iterations only slow down creating the client.
        http::AuthServiceOptions{.token_lifetime_seconds = int64_t{10} * 365 * 24 * 3600,
                                 .pbkdf2_iterations = 1000}));
    projector = std::make_unique<projections::Projector>(
        *store, views,
        std::vector<projections::Projection*>{&catalog, contract_views.get(), text_index.get(),
                                              &auth->directory(), sessions.get()});
    if (!projector->Start() || !projector->WaitFor(store->Size(), kWait)) __builtin_trap();
    AddRoutes();
    handler = std::make_unique<http::ApiHandler>(routes, &auth->authenticator(),
                                                 http::ApiHandlerOptions{.worker_threads = 1});
    handler->SetReady(true);
    CreateClient();
    OpenProviderSession();
  }

  ~Parts() {
    handler->Drain();
    projector->Stop();
    store->Close();
    std::error_code ec;
    std::filesystem::remove_all(data_dir, ec);
  }

  void AddRoutes() {
    auto lookup = [this](std::string_view id) { return catalog.Find(id); };
    queries = std::make_unique<projections::ContractQueries>(views, std::string(32, 'c'));
    read_your_writes = std::make_unique<projections::ReadYourWrites>(*projector, kWait);
    commands = std::make_unique<commands::ContractCommandHandler>(
        *store, lookup,
        [this](std::string_view client_id, std::string_view organization_id, uint64_t size) {
          read_your_writes->Wrote(client_id, organization_id, size);
        },
        ids, clock);
    signer_secrets = std::make_unique<SignerSecrets>(std::string(32, 's'));
    commands->SetSignerSecrets(signer_secrets.get());
    certificate = Must(documents::ServiceCertificate::OpenOrCreate(data_dir.string()));
    documents = std::make_unique<documents::ContractDocuments>(lookup, *store, *certificate, clock);
    commands->SetFreezeDocument(
        [this](const ContractState& prepared) { return documents->Freeze(prepared); });
    commands->SetSealDocument(
        [this](const ContractState& state, const documents::Completion& completion) {
          return documents->Seal(state, completion);
        });
    evidence =
        std::make_unique<commands::EvidenceCommands>(*store, certificate->CertificatePem(), clock);
    commands->SetStoreEvidence(
        [this](const ContractState& state) { return evidence->Store(state); });
    // Every organization signer goes to the one provider; starting and cancelling its sessions
    // is the provider's side, outside the service.
    auto resolve_provider = [](const Participant&) { return std::string(kProviderId); };
    commands->SetProviders(
        resolve_provider, [](const ContractState&, const SigningSession&) {},
        [](const ContractState&, const SigningSession&) {});

    templates = std::make_unique<commands::OrganizationTemplates>(
        *store,
        [this](std::string_view organization_id) -> Result<commands::TemplateCounts> {
          projector->WaitFor(store->Size(), kWait);
          return catalog.CountOf(organization_id);
        },
        [this](std::string_view, uint64_t size) -> Status {
          projector->WaitFor(size, kWait);
          return {};
        },
        ids);
    http::AddTemplateRoutes(routes, catalog, *templates);
    auth->AddRoutes(routes);
    http::AddContractRoutes(
        routes, http::ContractRoutesDeps{
                    *commands, *evidence, *queries, *read_your_writes,
                    projections::ContractAsOf(*store, clock, commands->states()), store->blobs(),
                    [this](const ContractState& s) { return documents->Render(s); }});
    const http::SigningRoutesDeps signing{
        .commands = *commands,
        .sessions = *sessions,
        .catch_up = [this] { projector->WaitFor(store->Size(), kWait); },
        .blobs = store->blobs(),
        .templates = lookup,
        .ids = ids,
        .clock = clock,
        .resolve_provider = resolve_provider,
        .public_origin = [] { return std::string("https://sign.example.com"); },
        .signer_secrets = signer_secrets.get()};
    http::AddSigningRoutes(routes, signing);
    http::AddProviderCallbackRoutes(routes,
                                    {signing,
                                     [](const std::string& id) -> std::optional<std::string> {
                                       if (id != kProviderId) return std::nullopt;
                                       return std::string(kProviderSecret);
                                     },
                                     clock});
    http::AddOpenApiRoutes(routes);
    http::AddSigningPageRoutes(routes);
  }

  boost::json::object Call(boost::beast::http::verb method, const std::string& target,
                           const std::string& body, unsigned expected);
  void OpenProviderSession();

  void CreateClient() {
    commands::NewClient client{.organization_id = "org_fuzz", .name = "Fuzz client"};
    for (const auto permission : commands::kPermissions)
      client.permissions.emplace_back(permission);
    auto created =
        Must(auth->clients().Create(client, eventstore::Actor{.client_id = "contractd"}));
    if (!projector->WaitFor(store->Size(), kWait)) __builtin_trap();
    access_token =
        Must(auth->service().IssueToken(created.client_id, created.client_secret)).access_token;
  }
};

// The answer's JSON; traps unless the status is `expected`.
boost::json::object FuzzService::Parts::Call(boost::beast::http::verb method,
                                             const std::string& target, const std::string& body,
                                             unsigned expected) {
  http::Request request{method, target, 11};
  request.set(boost::beast::http::field::authorization, "Bearer " + access_token);
  request.set(boost::beast::http::field::content_type, "application/json");
  request.body() = body;
  request.prepare_payload();
  const http::Response response = Exchange(*handler, *projector, *store, std::move(request));
  if (response.result_int() != expected) {
    std::cerr << "fuzz service setup: " << target << " answered " << response.result_int() << ": "
              << response.body() << std::endl;
    __builtin_trap();
  }
  return Must(ParseJson(response.body())).as_object();
}

void FuzzService::Parts::OpenProviderSession() {
  using boost::beast::http::verb;
  const auto contract = Call(verb::post, "/api/v1/contracts", kProviderContract, 201);
  const std::string id(contract.at("id").as_string());
  const std::string client(
      contract.at("participants").as_array().at(0).at("participantId").as_string());
  const auto session = Call(verb::post, "/api/v1/contracts/" + id + "/signing-sessions",
                            R"({"participantId":")" + client + R"("})", 201);
  Call(verb::post,
       "/api/v1/signing-sessions/" + std::string(session.at("sessionId").as_string()) + "/complete",
       R"({"signerName":"Clara Client","signedAt":")" +
           FormatTimestamp(FuzzService::kNowSeconds * 1000000) + R"(","ipAddress":"192.0.2.1",
"userAgent":"Integrator/1","authenticationMethod":"password","consent":true})",
       200);
  // The client's signature brought the provider company's turn: its session started by itself.
  const auto sessions = Call(verb::get, "/api/v1/contracts/" + id + "/signing-sessions", "", 200);
  for (const auto& s : sessions.at("items").as_array()) {
    if (s.at("channel") == "provider_managed") {
      provider_session_id = std::string(s.at("sessionId").as_string());
    }
  }
  if (provider_session_id.empty()) __builtin_trap();
}

FuzzService& FuzzService::Instance() {
  static FuzzService service;
  return service;
}

FuzzService::FuzzService() : parts_(std::make_unique<Parts>()) {}
FuzzService::~FuzzService() = default;

const std::string& FuzzService::access_token() const { return parts_->access_token; }
const std::string& FuzzService::provider_session_id() const { return parts_->provider_session_id; }

http::Response FuzzService::Handle(http::Request request) {
  return Exchange(*parts_->handler, *parts_->projector, *parts_->store, std::move(request));
}

}  // namespace esign::fuzz
