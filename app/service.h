// The running service: the data directory's store, the imported templates, the HTTP server.
// Start and Stop from the main thread.
#pragma once

#include <chrono>
#include <memory>
#include <thread>

#include "app/admin_socket.h"
#include "app/cli_commands.h"
#include "app/config.h"
#include "app/provider_notices.h"
#include "app/provider_registry.h"
#include "commands/bulk_send_runner.h"
#include "commands/bulk_sends.h"
#include "commands/contract_commands.h"
#include "commands/document_commands.h"
#include "commands/document_expiry.h"
#include "commands/due_timers.h"
#include "commands/endpoint_commands.h"
#include "commands/evidence_commands.h"
#include "commands/organization_templates.h"
#include "delivery/delivery_store.h"
#include "documents/contract_documents.h"
#include "documents/page_images.h"
#include "documents/service_certificate.h"
#include "domain/result.h"
#include "domain/signer_secrets.h"
#include "eventstore/rocksdb_event_store.h"
#include "eventstore/storage_memory.h"
#include "http/api_handler.h"
#include "http/auth_module.h"
#include "http/server.h"
#include "http/webhook_routes.h"
#include "mail/mail_outbox.h"
#include "mail/mail_transport.h"
#include "projections/bulk_send_index.h"
#include "projections/contract_queries.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/document_index.h"
#include "projections/projector.h"
#include "projections/read_your_writes.h"
#include "projections/rocksdb_view_store.h"
#include "projections/signing_session_index.h"
#include "projections/template_catalog.h"
#include "projections/view_lag_gate.h"
#include "replication/replicated_log.h"
#include "replication/writer_group.h"
#include "webhooks/embedded_kafka.h"
#include "webhooks/endpoint_directory.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/kafka_relay.h"
#include "webhooks/webhook_delivery.h"

namespace esign::app {

// The server's options: --body-limit and the rest as configured, with the larger body that
// document uploads may have (--document-limit).
http::ServerOptions ServerOptionsOf(const ServeConfig& config);

// What a running service asks of the main thread (with SIGUSR1): to start again as the writer
// (`contractd promote`), or as a standby (a writer fenced by another's claim).
enum class RoleChange { kNone, kPromote, kStepDown };

class Service {
 public:
  // `promotion_failed`: why the previous start as the writer failed, for `replication` status.
  static Result<std::unique_ptr<Service>> Start(const ServeConfig& config,
                                                std::string promotion_failed = {});
  ~Service();

  RoleChange role_change() const { return role_change_.load(); }
  // The epoch of the replicated log this node has applied (0 without one).
  uint64_t log_epoch() const { return replicated_log_ ? replicated_log_->status().epoch : 0; }

  uint16_t port() const { return server_->port(); }
  const http::ApiRoutes& routes() const { return routes_; }
  // Finishes in-flight requests, then closes the store. Idempotent.
  void Stop();

 private:
  Service() = default;
  // Start-up steps, in order.
  Status OpenStore(const ServeConfig& config);
  // Refuses a damaged data directory (eventstore/start_check.h) without changing it.
  Status CheckDataDirectory(const ServeConfig& config);
  Status StartReadSide();
  // Deletes view rows that an earlier version wrote and no projection writes now.
  Status DropViewRowsOfEarlierVersions();
  Status AddRoutes(const ServeConfig& config);
  Status AddWebhookRoutes(const ServeConfig& config, const std::string& cursor_key);
  // Authentication (before the read side, whose projector feeds the client directory) and the
  // admin socket with the demo client (once the server listens).
  Status PrepareAuth(const ServeConfig& config);
  Status StartAdmin(const ServeConfig& config);
  void AddGauges();  // service_metrics.cc
  void AddDeliveryGauges();
  void StartTreeHeadSigner(std::chrono::seconds interval);
  // The scheduler of expiry and reminders (commands/due_timers.h), once the read side and the
  // contract commands run.
  void StartTimers();
  // Bulk sends (DESIGN 23): the routes on every node, the runner on the writer.
  void AddBulkSends();
  void StartBulkSends(const ServeConfig& config);
  // Uploads (commands/document_commands.h): their routes, the look-up contract creation uses, and
  // the sweep that deletes those no contract named (app/service_documents.cc).
  void AddUploads(const ServeConfig& config);
  void StartDocumentExpiry();
  // The admin socket's requests: the command line's (cli_commands.h), and clock.advance
  // {"command":"clock.advance","seconds":N} when the service runs with --clock-offset.
  std::string HandleAdminLine(const ServeConfig& config, std::string_view line);
  // The admin socket's "backup" (app/backup.h), with a fresh tree head first.
  Result<boost::json::object> BackUp(const std::string& data_dir, const std::string& target_dir);
  // The Kafka relay, to --kafka-brokers or to the embedded cluster it starts first.
  Status StartKafka(const ServeConfig& config);
  // Webhook delivery (webhooks/webhook_delivery.h): the dispatcher, a consumer of the topic the
  // relay writes; or, with external dispatchers, the follower of what they record.
  Status StartDispatcher(const ServeConfig& config, const std::string& brokers,
                         const webhooks::MessageAuth& auth);
  // The retry operation, as webhook delivery carries it out.
  Result<delivery::Delivery> RequestRetry(std::string_view delivery_id,
                                          std::string_view organization_id);
  // The signing family and what completion needs (service_signing.cc).
  Status AddSigning(const ServeConfig& config);
  // E-mail (service_mail.cc): the records open with the read side (the notifications route
  // reads them); the outbox starts once the server listens (its links need the port).
  Status OpenMailRecords(const ServeConfig& config);
  Status StartMail(const ServeConfig& config);
  // Provider notices (provider_notices.h): the records open with the signing family, so that the
  // first start's checkpoint comes before any request; the notices start once the server listens
  // (their callback URL needs the port).
  Status OpenProviderNotices(const ServeConfig& config);
  Status StartProviderNotices(const ServeConfig& config);
  // The origin of signing links: --public-url, else the address listened on.
  std::string PublicOrigin(const ServeConfig& config) const;

  // With --replication kafka: the log topic, claimed or followed, before the store opens.
  Status OpenReplicatedLog(const ServeConfig& config, eventstore::RocksStoreOptions& options);
  // The writer, and a standby with --auto-promote, join the writer group of the shard.
  Status JoinWriterGroup(const ServeConfig& config);
  // The admin socket's "promote" and "replication" requests.
  std::string HandleReplicationLine(const ServeConfig& config, std::string_view command);
  void RequestRoleChange(RoleChange change);

  // The time of every decision: the system clock, ahead by --clock-offset when given.
  OffsetClock clock_;
  bool standby_ = false;
  std::string promotion_failed_;
  std::atomic<RoleChange> role_change_{RoleChange::kNone};
  std::unique_ptr<replication::ReplicatedLog> replicated_log_;  // outlives the store
  std::unique_ptr<replication::WriterGroup> writer_group_;
  // --memory-budget-mb divided (memory_budget.h), and RocksDB's part of it, which every
  // database of the service shares.
  MemoryShares memory_;
  std::shared_ptr<const eventstore::StorageMemory> storage_memory_;
  std::unique_ptr<eventstore::RocksEventStore> store_;
  std::unique_ptr<projections::RocksViewStore> views_;
  projections::TemplateCatalog template_catalog_;
  std::unique_ptr<projections::ContractViews> contract_views_;
  webhooks::EndpointDirectory endpoint_directory_;
  std::unique_ptr<projections::SigningSessionIndex> session_index_;
  std::unique_ptr<projections::DocumentIndex> document_index_;
  std::unique_ptr<projections::BulkSendIndex> bulk_send_index_;
  std::unique_ptr<commands::BulkSendCommands> bulk_sends_;
  std::unique_ptr<commands::BulkSendRunner> bulk_send_runner_;  // the writer only
  std::atomic<commands::BulkSendRunner*> running_bulk_sends_{
      nullptr};  // for the projector's thread
  std::unique_ptr<commands::DocumentCommands> document_commands_;
  std::unique_ptr<commands::DocumentExpiry> document_expiry_;
  std::unique_ptr<http::AuthModule> auth_;  // its directory must outlive the projector
  std::unique_ptr<projections::Projector> projector_;
  std::unique_ptr<projections::ContractTextIndex> text_index_;
  std::unique_ptr<projections::Projector> text_projector_;   // the text index's alone
  std::unique_ptr<projections::ViewLagGate> view_lag_gate_;  // the store's append gate
  std::unique_ptr<projections::ContractQueries> contract_queries_;
  std::unique_ptr<projections::ReadYourWrites> read_your_writes_;
  std::unique_ptr<documents::ServiceCertificate>
      certificate_;  // signs PDFs; its certificate is in evidence
  std::unique_ptr<documents::ContractDocuments> documents_;  // renders, freezes and seals PDFs
  std::unique_ptr<documents::TimestampAuthority> timestamp_authority_;  // with --tsa-url
  std::unique_ptr<documents::PageImages> page_images_;  // the hosted page's page images
  // The key of the secrets mailed to signers (<data-dir>/signer-secrets-key).
  std::unique_ptr<SignerSecrets> signer_secrets_;
  std::unique_ptr<commands::ContractCommandHandler> contract_commands_;
  std::unique_ptr<commands::EvidenceCommands> evidence_commands_;
  http::ApiRoutes routes_;
  std::unique_ptr<http::ApiHandler> handler_;
  std::unique_ptr<http::HttpServer> server_;
  std::unique_ptr<AdminCommands> admin_commands_;
  std::unique_ptr<AdminSocketServer> admin_socket_;
  std::unique_ptr<ProviderRegistry> providers_;
  std::jthread tree_head_signer_;
  std::unique_ptr<webhooks::EndpointSecrets> endpoint_secrets_;
  std::unique_ptr<commands::EndpointCommands> endpoint_commands_;
  std::unique_ptr<commands::OrganizationTemplates> organization_templates_;
  std::unique_ptr<http::WebhookRoutesDeps> webhook_routes_;
  std::unique_ptr<webhooks::EmbeddedKafka> embedded_kafka_;  // must outlive the relay
  std::unique_ptr<webhooks::KafkaRelay> relay_;
  std::unique_ptr<delivery::DeliveryStore> deliveries_;
  std::unique_ptr<webhooks::WebhookDelivery> webhook_delivery_;
  std::atomic<webhooks::WebhookDelivery*> running_delivery_{nullptr};  // for the projector's thread
  std::unique_ptr<commands::DueTimerScheduler> timers_;
  std::atomic<commands::DueTimerScheduler*> running_timers_{nullptr};  // for the projector's thread
  std::unique_ptr<delivery::DeliveryStore> mail_records_;
  std::unique_ptr<mail::MailRateLimiter> mail_limiter_;
  std::unique_ptr<mail::MailTransport> mail_transport_;
  std::unique_ptr<mail::MailOutbox> mail_outbox_;
  std::unique_ptr<delivery::DeliveryStore> provider_notice_records_;
  std::unique_ptr<webhooks::WebhookSender> provider_sender_;
  std::unique_ptr<ProviderNotices> provider_notices_;
  std::atomic<ProviderNotices*> running_provider_notices_{nullptr};  // for /metrics
};

}  // namespace esign::app
