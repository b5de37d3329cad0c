#include "app/service.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iostream>

#include "app/backup.h"
#include "app/cli_commands.h"
#include "app/cli_store.h"
#include "app/private_data_directory.h"
#include "base/json_read.h"
#include "base/thread_name.h"
#include "base/time_text.h"
#include "commands/template_commands.h"
#include "documents/service_certificate.h"
#include "domain/stream_kinds.h"
#include "eventstore/start_check.h"
#include "http/auth_token_key.h"
#include "http/bulk_send_routes.h"
#include "http/contract_requests.h"
#include "http/contract_routes.h"
#include "http/ledger_routes.h"
#include "http/openapi_routes.h"
#include "http/organization_routes.h"
#include "http/signing_page_routes.h"
#include "http/template_routes.h"

namespace esign::app {

namespace {

// How long a client's read waits for the read side to apply that client's own earlier writes
// (and how long start-up steps wait for it); past it the read answers what the views hold.
constexpr auto kReadYourWritesTimeout = std::chrono::seconds(10);
// Writes wait while the views are more than this many events behind the log: about a third of a
// second of the projector's work at its measured 3,700 events a second, so that, with the batch
// being written, a reader is never more than about half a second behind (docs/projections.md).
constexpr uint64_t kMaxViewLagEvents = 1024;
// The longest one batch of appends waits for the views.
constexpr auto kViewLagWait = std::chrono::seconds(1);
// Writes also wait while the text index is more than this many events behind: about a second of
// its work, so a search finds a new contract within about a second (docs/projections.md).
constexpr uint64_t kMaxTextIndexLagEvents = 4096;
// The most one clock.advance moves the rehearsal clock: a year and a day.
constexpr int64_t kMaxClockAdvanceSeconds = int64_t{366} * 24 * 3600;
// The key of the secrets mailed to signers: the log keeps what it derives (access code hashes,
// link token hashes), so a new key would lock out every signer of a pending contract.
constexpr char kSignerSecretsKeyFile[] = "signer-secrets-key";

// A data directory the service cannot write to is refused before anything opens it, naming the
// directory: RocksDB would only fail later, about a LOCK file. access() sees a read-only mount
// even for root, whom file modes do not stop.
Status CheckWritable(const std::string& data_dir) {
  if (Status private_dir = RequirePrivateDataDirectory(data_dir); !private_dir) return private_dir;
  if (::access(data_dir.c_str(), W_OK) != 0) {
    const std::error_code denied(errno, std::generic_category());
    return Fail(ErrorCode::kStorage, "the data directory " + data_dir + " is not writable (" +
                                         denied.message() + "); nothing was changed");
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<Service>> Service::Start(const ServeConfig& config,
                                                std::string promotion_failed) {
  std::unique_ptr<Service> service(new Service());
  service->standby_ = config.standby;
  service->promotion_failed_ = std::move(promotion_failed);
  service->clock_.Advance(std::chrono::seconds(config.clock_offset_seconds.value_or(0)));
  if (auto s = service->OpenStore(config); !s) return std::unexpected(s.error());
  if (auto s = service->PrepareAuth(config); !s) return std::unexpected(s.error());
  if (auto s = service->StartReadSide(); !s) return std::unexpected(s.error());
  if (auto s = service->OpenMailRecords(config); !s) return std::unexpected(s.error());
  if (auto s = service->AddRoutes(config); !s) return std::unexpected(s.error());
  // A standby only reads: the relay, the timers, mail and the rest start on the writer.
  if (!service->standby_) {
    if (auto s = service->StartKafka(config); !s) return std::unexpected(s.error());
    service->StartTimers();
    service->StartDocumentExpiry();
    service->StartBulkSends(config);
  }

  http::ApiHandlerOptions handler_options;
  if (config.access_log) handler_options.access_log = http::StderrAccessLog();
  handler_options.worker_threads = config.workers;
  handler_options.rate_limit.requests_per_second = config.rate_limit;
  handler_options.link_rate_limit = {.requests_per_second = config.link_rate_limit,
                                     .burst = config.link_burst};
  handler_options.address_rate_limit = {.requests_per_second = config.link_address_rate_limit,
                                        .burst = config.link_address_burst};
  handler_options.storage_writable = [store = service->store_.get()] { return store->writable(); };
  if (service->standby_) {
    handler_options.log_position = [projector = service->projector_.get()] {
      return projector->position();
    };
  }
  service->handler_ = std::make_unique<http::ApiHandler>(
      service->routes_, &service->auth_->authenticator(), std::move(handler_options));
  service->AddGauges();
  auto server = http::HttpServer::Start(ServerOptionsOf(config), *service->handler_);
  if (!server) return std::unexpected(server.error());
  service->server_ = std::move(*server);
  if (!service->standby_) {
    if (auto s = service->StartMail(config); !s) return std::unexpected(s.error());
    if (auto s = service->StartProviderNotices(config); !s) return std::unexpected(s.error());
  }
  if (auto s = service->StartAdmin(config); !s) return std::unexpected(s.error());
  if (!service->standby_) service->StartTreeHeadSigner(config.tree_head_interval);
  service->handler_->SetReady(true);
  return service;
}

Status Service::OpenStore(const ServeConfig& config) {
  if (Status writable = CheckWritable(config.data_dir); !writable) return writable;
  if (Status checked = CheckDataDirectory(config); !checked) return checked;
  eventstore::RocksStoreOptions store_options;
  store_options.data_dir = config.data_dir;
  memory_ = SplitMemoryBudget(config.memory_budget_mb << 20);
  storage_memory_ =
      eventstore::MakeStorageMemory(memory_.storage_bytes, memory_.write_buffer_bytes);
  store_options.memory = storage_memory_;
  store_options.ledger_cache_max_bytes = memory_.ledger_node_bytes;
  store_options.max_cached_streams = memory_.stream_versions;
  store_options.storage_log = [](const std::string& line) {
    std::cerr << "contractd: storage: " << line << std::endl;
  };
  if (config.replicated) {
    if (Status opened = OpenReplicatedLog(config, store_options); !opened) return opened;
  }
  // A command line may hold the store for a moment (cli_runner.h): wait for it, not fail.
  auto store = OpenStoreWaitingForLock(store_options, std::chrono::seconds(30));
  if (!store) return std::unexpected(store.error());
  store_ = std::move(*store);
  if (replicated_log_) {
    if (Status attached = replicated_log_->Attach(*store_); !attached) return attached;
    // A standby applies everything up to the end of the topic before it answers; a writer also
    // claims the next epoch, so that no earlier writer acknowledges anything more.
    if (Status joined =
            standby_ ? replicated_log_->Follow() : replicated_log_->Claim(config.claim_after_epoch);
        !joined) {
      return joined;
    }
    if (Status joined = JoinWriterGroup(config); !joined) return joined;
    if (standby_) return {};  // the writer imported the templates
  }

  const std::string templates_dir =
      config.templates_dir.empty() ? ESIGN_EXAMPLE_TEMPLATES_DIR : config.templates_dir;
  auto imported = commands::ImportTemplateDirectory(*store_, templates_dir,
                                                    eventstore::Actor{.client_id = "contractd"});
  if (!imported) return std::unexpected(imported.error());
  for (const auto& t : *imported) {
    std::cerr << "contractd: template " << t.template_id << " from " << t.file
              << (t.changed ? " imported" : " unchanged") << std::endl;
  }
  return {};
}

Status Service::CheckDataDirectory(const ServeConfig& config) {
  // Before the store is opened for writing, which replays its WAL into new files: a damaged
  // directory is refused exactly as it was found. The token and cursor keys are not required:
  // losing them only ends access tokens and list cursors, which clients simply ask for again.
  const std::string contracts(StreamPrefix(StreamKind::kContract));
  eventstore::StartCheckOptions options{
      .required_files = {{kSignerSecretsKeyFile, contracts},
                         {documents::kServiceCertificateFileName, contracts}}};
  auto checked = eventstore::CheckDataDirectory(config.data_dir, options);
  if (!checked) {
    if (checked.error().code != ErrorCode::kCorruption) return std::unexpected(checked.error());
    return Fail(ErrorCode::kCorruption,
                checked.error().message + "; run contract-ledger verify --data-dir " +
                    config.data_dir + " for a full report; nothing was changed");
  }
  if (!checked->torn_wal) return {};
  // What the recovery drops was never acknowledged (an append is answered only after its WAL
  // sync), but the bytes are kept for whoever wants to look at them.
  const std::string name = "wal-tail-" + std::to_string(SystemClock::Instance().NowMicros() / 1000);
  auto kept = eventstore::KeepWalFiles(config.data_dir, name);
  if (!kept) return std::unexpected(kept.error());
  std::cerr << "contractd: warning: the write-ahead log ends in a torn record ("
            << *checked->torn_wal << "); the log is recovered up to it; the WAL files as found are "
            << "in " << *kept << std::endl;
  return {};
}

Status Service::StartReadSide() {
  auto views = projections::RocksViewStore::Open(*store_);
  if (!views) return std::unexpected(views.error());
  views_ = std::move(*views);
  // The share of contract states is split between the two projections that keep them.
  contract_views_ = std::make_unique<projections::ContractViews>(
      *store_, projections::ContractViewsOptions{.max_cached_states = memory_.contract_states / 2,
                                                 .due_timers_changed = [this] {
                                                   if (auto* timers = running_timers_.load())
                                                     timers->Wake();
                                                 }});
  endpoint_directory_.SetOnChange([this] {
    if (auto* delivery = running_delivery_.load()) delivery->Wake();
  });
  session_index_ = std::make_unique<projections::SigningSessionIndex>(*views_);
  document_index_ = std::make_unique<projections::DocumentIndex>(*views_);
  bulk_send_index_ = std::make_unique<projections::BulkSendIndex>(*views_, [this] {
    if (auto* runner = running_bulk_sends_.load()) runner->Wake();
  });
  projector_ = std::make_unique<projections::Projector>(
      *store_, *views_,
      std::vector<projections::Projection*>{
          &template_catalog_, contract_views_.get(), &auth_->directory(), &endpoint_directory_,
          session_index_.get(), document_index_.get(), bulk_send_index_.get()},
      projections::ProjectorOptions{.thread_name = "esign-views"});
  // The text index runs on a projector of its own (contract_text_index.h).
  if (Status dropped = DropViewRowsOfEarlierVersions(); !dropped) return dropped;
  text_index_ =
      std::make_unique<projections::ContractTextIndex>(*store_, memory_.contract_states / 2);
  text_projector_ = std::make_unique<projections::Projector>(
      *store_, *views_, std::vector<projections::Projection*>{text_index_.get()},
      projections::ProjectorOptions{.thread_name = "esign-textindex"});
  if (auto started = projector_->Start(); !started) return started;
  if (auto started = text_projector_->Start(); !started) return started;
  // The catalog must hold the templates just imported before the first request arrives, and a
  // text index built anew (after an upgrade) is complete before the first search.
  if (!projector_->WaitFor(store_->Size(), std::chrono::minutes(10)) ||
      !text_projector_->WaitFor(store_->Size(), std::chrono::minutes(10))) {
    return Fail(ErrorCode::kInternal, "the read side did not catch up with the log");
  }
  view_lag_gate_ =
      std::make_unique<projections::ViewLagGate>(*projector_, kMaxViewLagEvents, kViewLagWait);
  view_lag_gate_->Follow(*text_projector_, kMaxTextIndexLagEvents);
  store_->SetAppendGate(view_lag_gate_.get());
  return {};
}

Status Service::DropViewRowsOfEarlierVersions() {
  // Rows no projection writes any more: the trigram rows were the contract views' until the text
  // index became a projection of its own, and the first text index indexed contract ids too.
  const std::string earlier[] = {projections::ProjectionPrefix(projections::kContractViewsName) +
                                     std::string(projections::kTrigramKeyTag),
                                 projections::ProjectionPrefix("contract-text")};
  for (const std::string& prefix : earlier) {
    bool found = false;
    Status scanned = views_->Scan(prefix, "", false, [&](std::string_view, std::string_view) {
      found = true;
      return false;
    });
    if (!scanned) return scanned;
    if (!found) continue;
    std::cerr << "contractd: dropping the rows of an earlier version under " << prefix
              << "; the text index is built anew from the log" << std::endl;
    if (Status deleted = views_->DeletePrefix(prefix); !deleted) return deleted;
  }
  return {};
}

Status Service::AddRoutes(const ServeConfig& config) {
  auto cursor_key =
      http::LoadOrCreateTokenKey(std::filesystem::path(config.data_dir) / "cursor-key");
  if (!cursor_key) return std::unexpected(cursor_key.error());
  contract_queries_ = std::make_unique<projections::ContractQueries>(*views_, *cursor_key);
  read_your_writes_ = std::make_unique<projections::ReadYourWrites>(
      *projector_, kReadYourWritesTimeout, text_projector_.get());
  contract_commands_ = std::make_unique<commands::ContractCommandHandler>(
      *store_, [this](std::string_view id) { return template_catalog_.Find(id); },
      [this](std::string_view client_id, std::string_view organization_id, uint64_t size) {
        read_your_writes_->Wrote(client_id, organization_id, size);
      },
      RandomIdGenerator::Instance(), clock_);
  auto signer_key =
      http::LoadOrCreateTokenKey(std::filesystem::path(config.data_dir) / kSignerSecretsKeyFile);
  if (!signer_key) return std::unexpected(signer_key.error());
  signer_secrets_ = std::make_unique<SignerSecrets>(*signer_key);
  contract_commands_->SetSignerSecrets(signer_secrets_.get());
  organization_templates_ = std::make_unique<commands::OrganizationTemplates>(
      *store_,
      [this](std::string_view organization_id) -> Result<commands::TemplateCounts> {
        // The catalog, once it holds every template written so far.
        if (Status applied =
                read_your_writes_->AwaitApplied(store_->Size(), "every template written");
            !applied) {
          return std::unexpected(applied.error());
        }
        return template_catalog_.CountOf(organization_id);
      },
      [this](std::string_view client_id, uint64_t size) -> Status {
        read_your_writes_->Wrote(client_id, /*organization_id=*/{}, size);  // always a client's
        return read_your_writes_->AwaitApplied(size, "the template just written");
      },
      RandomIdGenerator::Instance());
  http::AddTemplateRoutes(routes_, template_catalog_, *organization_templates_);
  auth_->AddRoutes(routes_);
  auto certificate = documents::ServiceCertificate::OpenOrCreate(config.data_dir);
  if (!certificate) return std::unexpected(certificate.error());
  certificate_ = std::move(*certificate);
  documents_ = std::make_unique<documents::ContractDocuments>(
      [this](std::string_view id) { return template_catalog_.Find(id); }, *store_, *certificate_);
  contract_commands_->SetFreezeDocument(
      [this](const ContractState& prepared) { return documents_->Freeze(prepared); });
  evidence_commands_ =
      std::make_unique<commands::EvidenceCommands>(*store_, certificate_->CertificatePem(), clock_);
  contract_commands_->SetStoreEvidence(
      [this](const ContractState& state) { return evidence_commands_->Store(state); });
  const http::ContractRoutesDeps contract_deps{
      *contract_commands_,
      *evidence_commands_,
      *contract_queries_,
      *read_your_writes_,
      projections::ContractAsOf(*store_, clock_, contract_commands_->states()),
      store_->blobs(),
      [this](const ContractState& s) { return documents_->Render(s); },
      mail_records_.get(),
      config.mail_from};
  http::AddContractRoutes(routes_, contract_deps);
  AddUploads(config);
  if (auto s = AddWebhookRoutes(config, *cursor_key); !s) return s;
  if (auto s = AddSigning(config); !s) return s;
  http::AddOpenApiRoutes(routes_);
  if (auto s = http::AddLedgerRoutes(routes_, store_->ledger()); !s) return s;
  http::AddSigningPageRoutes(routes_);
  http::AddOrganizationRoutes(routes_, {*store_, store_->blobs()});
  AddBulkSends();
  return {};
}

Status Service::AddWebhookRoutes(const ServeConfig& config, const std::string& cursor_key) {
  auto secrets = webhooks::EndpointSecrets::Open(config.data_dir);
  if (!secrets) return std::unexpected(secrets.error());
  endpoint_secrets_ = std::move(*secrets);
  endpoint_commands_ = std::make_unique<commands::EndpointCommands>(
      *store_, *endpoint_secrets_,
      webhooks::UrlPolicy{.allow_loopback = config.webhook_allow_loopback},
      [this](std::string_view organization_id) -> Result<size_t> {
        // The directory, once it holds every endpoint written so far.
        if (Status applied =
                read_your_writes_->AwaitApplied(store_->Size(), "every webhook endpoint written");
            !applied) {
          return std::unexpected(applied.error());
        }
        return endpoint_directory_.OfOrganization(organization_id).size();
      },
      [this](std::string_view client_id, std::string_view organization_id, uint64_t size) {
        read_your_writes_->Wrote(client_id, organization_id, size);
      },
      RandomIdGenerator::Instance(), clock_);
  auto deliveries = delivery::DeliveryStore::Open(config.data_dir, "webhook-deliveries",
                                                  /*outbox=*/false, storage_memory_);
  if (!deliveries) return std::unexpected(deliveries.error());
  deliveries_ = std::move(*deliveries);
  webhook_routes_ = std::make_unique<http::WebhookRoutesDeps>(http::WebhookRoutesDeps{
      *endpoint_commands_, endpoint_directory_, *read_your_writes_,
      projections::CursorCodec(cursor_key), *deliveries_,
      [this](std::string_view delivery_id, std::string_view organization_id) {
        return RequestRetry(delivery_id, organization_id);
      }});
  http::AddWebhookRoutes(routes_, *webhook_routes_);
  return {};
}

Service::~Service() { Stop(); }

void Service::Stop() {
  if (admin_socket_) admin_socket_->Stop();
  writer_group_.reset();
  if (replicated_log_) replicated_log_->Stop();
  if (handler_) handler_->SetReady(false);
  if (server_) server_->Stop();
  if (handler_) handler_->Drain();
  running_delivery_.store(nullptr);
  if (webhook_delivery_) webhook_delivery_->Stop();
  running_timers_.store(nullptr);
  if (timers_) timers_->Stop();
  running_bulk_sends_.store(nullptr);
  if (bulk_send_runner_) bulk_send_runner_->Stop();
  if (document_expiry_) document_expiry_->Stop();
  if (mail_outbox_) mail_outbox_->Stop();
  running_provider_notices_.store(nullptr);
  if (provider_notices_) provider_notices_->Stop();
  if (store_) store_->SetAppendGate(nullptr);
  if (text_projector_) text_projector_->Stop();
  if (projector_) projector_->Stop();
  // Every Kafka client goes before the embedded cluster: a client that outlived it would log its
  // brokers as down at every normal stop (the retry writer of webhook_delivery_ among them).
  webhook_delivery_.reset();
  if (relay_) relay_->Stop();
  embedded_kafka_.reset();
  if (tree_head_signer_.joinable()) {
    tree_head_signer_.request_stop();
    tree_head_signer_.join();
  }
  // A last head covers everything written, so an auditor can prove every event offline.
  if (store_ && store_->Size() > 0 && !standby_) (void)store_->ledger().SignTreeHead();
  if (store_) store_->Close();
}

void Service::StartTreeHeadSigner(std::chrono::seconds interval) {
  // Like a transparency log's merge delay: every event is covered by a signed head within
  // `interval`. SignTreeHead returns the newest head when nothing was appended since.
  tree_head_signer_ = std::jthread([this, interval](const std::stop_token& stop) {
    NameThisThread("esign-tree-head");
    std::mutex mutex;
    std::condition_variable_any wake;
    std::unique_lock lock(mutex);
    while (!stop.stop_requested()) {
      // Returns at the interval, or at once when stopping.
      wake.wait_for(lock, stop, interval, [] { return false; });
      if (stop.stop_requested()) break;
      if (auto head = store_->ledger().SignTreeHead(); !head) {
        std::cerr << "contractd: signing a tree head failed: " << head.error().message << std::endl;
      }
    }
  });
}

Status Service::StartKafka(const ServeConfig& config) {
  // Beside the signing secrets, where `contractd dispatcher --secrets-dir` finds it too.
  auto auth = webhooks::MessageAuth::LoadOrCreate(endpoint_secrets_->dir());
  if (!auth) return std::unexpected(auth.error());
  webhooks::KafkaRelayOptions options;
  options.brokers = config.kafka_brokers;
  options.controller_cache = memory_.relay_controllers;
  options.max_in_flight_bytes = memory_.relay_in_flight_bytes;
  options.auth = *auth;
  if (options.brokers.empty()) {
    auto embedded = webhooks::EmbeddedKafka::Start();
    if (!embedded) return std::unexpected(embedded.error());
    embedded_kafka_ = std::move(*embedded);
    options.brokers = embedded_kafka_->bootstraps();
    // The embedded topic lives in memory: every start is a new cluster, published from the start.
    options.cluster = "embedded:" + RandomIdGenerator::Instance().Next("run_");
    std::cerr << "contractd: embedded Kafka cluster at " << options.brokers << " (topic "
              << options.topic << "; read it with: kcat -C -b " << options.brokers << " -t "
              << options.topic << ")" << std::endl;
  }
  auto checkpoint = webhooks::RelayCheckpoint::Open(*store_, options.topic);
  if (!checkpoint) return std::unexpected(checkpoint.error());
  const std::string brokers = options.brokers;
  auto relay = webhooks::KafkaRelay::Start(*store_, std::move(*checkpoint), std::move(options));
  if (!relay) return std::unexpected(relay.error());
  relay_ = std::move(*relay);
  return StartDispatcher(config, brokers, *auth);
}

Status Service::StartDispatcher(const ServeConfig& config, const std::string& brokers,
                                const webhooks::MessageAuth& auth) {
  auto delivery = webhooks::WebhookDelivery::Start(
      webhooks::WebhookDeliveryDeps{
          .directory = endpoint_directory_,
          .secrets = *endpoint_secrets_,
          .deliveries = *deliveries_,
          .clock = SystemClock::Instance(),  // webhook-timestamp is checked against real time
          .disable =
              [this](std::string_view endpoint_id, std::string_view reason) {
                return endpoint_commands_->Disable(endpoint_id, reason);
              },
          .wait_for_directory =
              [this](uint64_t position) {
                return projector_->WaitFor(position + 1, kReadYourWritesTimeout);
              }},
      {.role = config.external_dispatchers ? webhooks::DeliveryRole::kFollowExternal
                                           : webhooks::DeliveryRole::kInProcess,
       .brokers = brokers,
       .auth = auth,
       .sender = {.allow_loopback = config.webhook_allow_loopback}});
  if (!delivery) return std::unexpected(delivery.error());
  webhook_delivery_ = std::move(*delivery);
  running_delivery_.store(webhook_delivery_.get());
  if (config.external_dispatchers) {
    std::cerr << "contractd: webhooks are delivered by `contractd dispatcher` processes on "
              << brokers << std::endl;
  }
  return {};
}

Result<delivery::Delivery> Service::RequestRetry(std::string_view delivery_id,
                                                 std::string_view organization_id) {
  if (!webhook_delivery_) return Fail(ErrorCode::kUnavailable, "webhook delivery is stopped");
  return webhook_delivery_->RequestRetry(delivery_id, organization_id);
}

// Authentication and the admin socket ----------------------------------------------------------

Status Service::PrepareAuth(const ServeConfig& config) {
  http::AuthServiceOptions options;
  options.token_lifetime_seconds = config.token_lifetime_seconds;
  options.throttle.failures_per_client_per_minute = config.token_failures_per_client;
  options.throttle.failures_per_address_per_minute = config.token_failures_per_address;
  options.check_threads = static_cast<size_t>(config.token_check_threads);
  options.check_queue = static_cast<size_t>(config.token_check_queue);
  auto auth = http::AuthModule::Create(
      *store_, config.data_dir,
      [this](uint64_t size, std::chrono::milliseconds timeout) {
        return projector_->WaitFor(size, timeout);
      },
      options);
  if (!auth) return std::unexpected(auth.error());
  auth_ = std::move(*auth);
  return {};
}

Status Service::StartAdmin(const ServeConfig& config) {
  if (config.demo_client && !standby_) {
    auto demo = CreateDemoClientIfNone(auth_->clients(), auth_->directory(), *store_);
    if (!demo) return std::unexpected(demo.error());
    if (*demo) {
      projector_->WaitFor(store_->Size(), kReadYourWritesTimeout);
      std::cerr << DemoClientBanner(**demo, config.server.host, port()) << std::flush;
    } else {
      std::cerr << NewClientHint(config.data_dir) << std::flush;
    }
  }
  admin_commands_ = std::make_unique<AdminCommands>(
      *store_, auth_->clients(),
      [this](uint64_t size) { return projector_->WaitFor(size, kReadYourWritesTimeout); },
      [this, data_dir = config.data_dir](const std::string& target) {
        return BackUp(data_dir, target);
      });
  auto socket = AdminSocketServer::Start(
      std::filesystem::path(config.data_dir) / kAdminSocketName,
      [this, config](std::string_view line) { return HandleAdminLine(config, line); });
  if (!socket) return std::unexpected(socket.error());
  admin_socket_ = std::move(*socket);
  return {};
}

Result<boost::json::object> Service::BackUp(const std::string& data_dir,
                                            const std::string& target_dir) {
  if (Status target = CheckBackupTarget(data_dir, target_dir); !target) return Fail(target.error());
  // A head over everything acknowledged so far, so that the copy proves all of it offline (a
  // standby's newest head is its writer's).
  if (auto head = standby_ ? Result<eventstore::SignedTreeHead>(eventstore::SignedTreeHead{})
                           : store_->ledger().SignTreeHead();
      !head) {
    std::cerr << "contractd: signing a tree head for the backup failed: " << head.error().message
              << std::endl;
  }
  auto summary = app::BackUp(BackupSources{.data_dir = data_dir,
                                           .store = store_.get(),
                                           .webhook_deliveries = deliveries_.get(),
                                           .mail_records = mail_records_.get(),
                                           .provider_notices = provider_notice_records_.get()},
                             target_dir);
  if (!summary) return Fail(summary.error());
  std::cerr << "contractd: backup to " << target_dir << ": " << summary->events << " events"
            << std::endl;
  return BackupSummaryJson(*summary);
}

// Expiry and reminders -------------------------------------------------------------------------

// Bulk sends -----------------------------------------------------------------------------------

void Service::AddBulkSends() {
  auto templates = [this](std::string_view id) { return template_catalog_.Find(id); };
  bulk_sends_ = std::make_unique<commands::BulkSendCommands>(commands::BulkSendDeps{
      *store_, templates, clock_, RandomIdGenerator::Instance(),
      [this](std::string_view organization_id) -> Result<size_t> {
        // The index counts only what the projector has applied.
        if (!projector_->WaitFor(store_->Size(), kReadYourWritesTimeout)) {
          return Fail(ErrorCode::kUnavailable, "the bulk send index is behind the log; try again");
        }
        return bulk_send_index_->RunningOf(organization_id);
      }});
  http::AddBulkSendRoutes(routes_, {*bulk_sends_, templates, [this] {
                                      if (auto* runner = running_bulk_sends_.load()) runner->Wake();
                                    }});
}

void Service::StartBulkSends(const ServeConfig& config) {
  bulk_send_runner_ = std::make_unique<commands::BulkSendRunner>(
      *bulk_sends_, *contract_commands_, *bulk_send_index_,
      [](const boost::json::object& body) {
        return http::CommandFromRequest<CreateContract>(body);
      },
      commands::BulkSendRunnerOptions{
          .rows_per_second = config.bulk_rate,
          .log = [](const std::string& line) { std::cerr << "contractd: " << line << std::endl; }});
  bulk_send_runner_->Start();
  running_bulk_sends_.store(bulk_send_runner_.get());
}

void Service::StartTimers() {
  timers_ = std::make_unique<commands::DueTimerScheduler>(
      *contract_commands_, *views_, clock_,
      commands::DueTimerOptions{
          .log = [](const std::string& line) { std::cerr << "contractd: " << line << std::endl; }});
  timers_->Start();
  running_timers_.store(timers_.get());
}

std::string Service::HandleAdminLine(const ServeConfig& config, std::string_view line) {
  boost::system::error_code ec;
  const boost::json::value request = boost::json::parse(line, ec);
  const auto* object = !ec && request.is_object() ? &request.get_object() : nullptr;
  const std::string command = object != nullptr ? StringMemberOrEmpty(*object, "command") : "";
  if (command == "promote" || command == "replication") {
    return HandleReplicationLine(config, command);
  }
  if (command != "clock.advance") return admin_commands_->HandleLine(line);
  if (!config.clock_offset_seconds) {
    return EncodeAdminResponse(Fail(ErrorCode::kValidationFailed,
                                    "the clock moves only when contractd runs with --clock-offset",
                                    "command", "clock.advance"));
  }
  const auto seconds = IntegerMember(*object, "seconds");
  if (!seconds || *seconds < 1 || *seconds > kMaxClockAdvanceSeconds) {
    return EncodeAdminResponse(Fail(ErrorCode::kValidationFailed, "invalid clock.advance",
                                    "seconds", "must be an integer 1..31622400"));
  }
  clock_.Advance(std::chrono::seconds(*seconds));
  if (timers_) timers_->Wake();
  if (document_expiry_) document_expiry_->Wake();
  return EncodeAdminResponse(boost::json::object{
      {"offsetSeconds", std::chrono::duration_cast<std::chrono::seconds>(clock_.offset()).count()},
      {"now", FormatTimestamp(clock_.NowMicros())}});
}

}  // namespace esign::app
