// contractd's configuration: command-line flags with CONTRACTD_* environment equivalents, filled
// in one place. Flags win over the environment, the environment over the defaults.
//
//   contractd [serve] [--data-dir DIR] [--listen HOST:PORT] ...      the service (the default)
//   contractd clients create --data-dir DIR --org ORG --permissions p1,p2 --name NAME
//   contractd templates import --data-dir DIR FILE...
//   contractd dispatcher --kafka-brokers LIST --secrets-dir DIR [--data-dir DIR]
//   contractd --help | help [COMMAND] | --version | version
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/memory_budget.h"
#include "domain/result.h"
#include "http/server.h"

namespace esign::app {

struct ServeConfig {
  std::string data_dir = "./data";        // --data-dir / CONTRACTD_DATA_DIR
  std::string listen = "127.0.0.1:8080";  // --listen / CONTRACTD_LISTEN
  // --templates / CONTRACTD_TEMPLATES; empty = the example templates shipped with the source
  std::string templates_dir;
  http::ServerOptions server;  // host and port come from `listen`
  // --token-lifetime / CONTRACTD_TOKEN_LIFETIME: access token lifetime in seconds. Default: 3600.
  int64_t token_lifetime_seconds = 3600;
  // --demo-client / CONTRACTD_DEMO_CLIENT: on a data directory without any client, create one
  // with every permission for "org_demo" and print its credentials. Default: true.
  bool demo_client = true;
  // --access-log / CONTRACTD_ACCESS_LOG: one JSON line per request on stderr. Default: true.
  bool access_log = true;
  // --workers / CONTRACTD_WORKERS: threads that run request handlers. Default: 64.
  int workers = 64;
  // --rate-limit / CONTRACTD_RATE_LIMIT: authenticated requests per second per client, with a
  // burst of twice that; 0 = no limit. Default: 2000.
  double rate_limit = 2000;
  // --token-failures-per-client / --token-failures-per-address (CONTRACTD_TOKEN_FAILURES_PER_*):
  // failed token requests accepted a minute per client id and per address, also the burst; 0 =
  // no limit. Defaults: 10 and 30.
  double token_failures_per_client = 10;
  double token_failures_per_address = 30;
  // --token-check-threads / CONTRACTD_TOKEN_CHECK_THREADS: threads that check client secrets,
  // apart from the workers (1..64). Default: 2.
  int token_check_threads = 2;
  // --token-check-queue / CONTRACTD_TOKEN_CHECK_QUEUE: token requests waiting for a check thread
  // (1..100000); more are answered 503. Default: 64.
  int token_check_queue = 64;
  // --link-rate-limit / --link-burst: requests per second per signing link on the hosted routes,
  // and the burst; --link-address-rate-limit / --link-address-burst: the same per address over
  // every hosted route. 0 = no limit. Defaults: 10/s with 100; 20/s with 200.
  double link_rate_limit = 10;
  double link_burst = 100;
  double link_address_rate_limit = 20;
  double link_address_burst = 200;
  // --tree-head-interval / CONTRACTD_TREE_HEAD_INTERVAL: seconds between signed tree heads (and
  // one more at stop). Default: 10.
  std::chrono::seconds tree_head_interval{10};
  // --kafka-brokers / CONTRACTD_KAFKA_BROKERS: bootstrap servers (host:port,...) of the Kafka
  // cluster the relay publishes to; empty = start the embedded cluster in this process on
  // loopback and print its address. Default: empty.
  std::string kafka_brokers;
  // The replicated log (docs/operations.md). --replication / CONTRACTD_REPLICATION: "kafka"
  // publishes every append to the log topic contract-log.<shard> on --kafka-brokers before it is
  // acknowledged; "none" (the default) keeps the log on the local disk alone.
  bool replicated = false;
  // --standby / CONTRACTD_STANDBY: with --replication kafka, follow the writer through the topic,
  // answer reads, refuse writes (503), until `contractd promote`. Default: false (claim the log
  // and write).
  bool standby = false;
  // --auto-promote / CONTRACTD_AUTO_PROMOTE: with --standby, promote this standby by itself when
  // the writer has been gone from the group contractd-writer-<shard> for its session timeout
  // (6 s; replication/writer_group.h). Default: false (only `contractd promote`).
  bool auto_promote = false;
  // --log-shard / CONTRACTD_LOG_SHARD: the shard of organizations whose log this is. Default: main.
  std::string log_shard = "main";
  // Not a flag: set by the main thread when a standby is promoted, to the epoch it followed; the
  // claim is made only if that epoch is still the current one (replicated_log.h).
  std::optional<uint64_t> claim_after_epoch;
  // --webhook-allow-loopback / CONTRACTD_WEBHOOK_ALLOW_LOOPBACK: webhook endpoints may be http or
  // https URLs on loopback (development and tests). Default: false (https to public hosts only).
  bool webhook_allow_loopback = false;
  // --webhook-dispatcher / CONTRACTD_WEBHOOK_DISPATCHER: "internal" runs the webhook dispatcher in
  // this process; "external" leaves delivery to `contractd dispatcher` processes and follows what
  // they record. Default: internal.
  bool external_dispatchers = false;
  // --public-url / CONTRACTD_PUBLIC_URL: the origin of hosted signing links; empty: taken from
  // the request's Host header (http).
  std::string public_base_url;
  // --clock-offset / CONTRACTD_CLOCK_OFFSET: seconds the service's clock runs ahead of the
  // system's, to rehearse expiry and reminders; when given (0 too), the admin socket's
  // clock.advance moves it further while the service runs. Authentication, webhook and
  // provider-callback timestamps keep the system clock. Never for production. Default: not given.
  std::optional<int64_t> clock_offset_seconds;
  // E-mail (docs/mail.md). --smtp-url / CONTRACTD_SMTP_URL: smtp://host:587 (STARTTLS) or
  // smtps://host:465; empty: every message is written as an .eml file under <data-dir>/outbox.
  std::string smtp_url;
  std::string smtp_user;           // --smtp-user / CONTRACTD_SMTP_USER
  std::string smtp_password_file;  // --smtp-password-file: the password, never on the command line
  std::string smtp_ca_file;        // --smtp-ca-file: a CA bundle to trust besides the system's
  // --mail-from / CONTRACTD_MAIL_FROM: the sender address. Default: no-reply@localhost.localdomain.
  std::string mail_from = "no-reply@localhost.localdomain";
  std::string mail_from_name = "Contract signing";  // --mail-from-name
  // --mail-limit-per-organization, --mail-limit-per-recipient: messages an hour for one
  // organization's contracts, and to one address across organizations (mail/mail_rate_limits.h);
  // those over a limit are recorded failed, not sent. 0: no limit.
  int64_t mail_limit_per_organization = 1000;
  int64_t mail_limit_per_recipient = 60;
  // Uploads (docs/documents.md). --document-limit: bytes of one uploaded PDF (1 KiB..100 MiB);
  // --document-uploads-per-hour: uploads an organization may make in an hour (1..100000).
  uint64_t document_limit = 25ull << 20;
  int64_t document_uploads_per_hour = 100;
  // --bulk-rate: rows of bulk sends turned into contracts a second, all jobs together (1..1000).
  double bulk_rate = 50;
  // Trusted time (docs/documents.md). --tsa-url / CONTRACTD_TSA_URL: an RFC 3161 authority; seals
  // become PAdES B-LT and tree heads are timestamped. Empty (the default): seals stay B-B.
  std::string tsa_url;
  std::string tsa_ca_file;  // --tsa-ca-file: the PEM CA the authority's tokens must chain to
  // --tsa-timeout-ms: each request to the authority, connection included (100 to 60,000).
  int64_t tsa_timeout_ms = 5000;
  // --memory-budget-mb / CONTRACTD_MEMORY_BUDGET_MB: what the structures that grow with the data
  // may hold together, and room for the rest of the process (app/memory_budget.h; 256 to
  // 1,048,576). Default: 1024.
  size_t memory_budget_mb = kDefaultMemoryBudgetMb;
};

// `clients create`: provisions a machine client; its secret is printed once.
struct ClientsCreateConfig {
  std::string organization_id;           // --org / CONTRACTD_ORG
  std::string name;                      // --name / CONTRACTD_NAME
  std::vector<std::string> permissions;  // --permissions p1,p2 / CONTRACTD_PERMISSIONS
};

// `organizations set`: the organization's notification address (the `owner` of e-mail settings),
// name, frame origins and branding. Only what is given changes.
struct OrganizationsSetConfig {
  std::string organization_id;              // --org
  std::optional<std::string> email;         // --email; "" removes it (no owner mail)
  std::optional<std::string> name;          // --name: the organization's name in messages
  std::vector<std::string> frame_origins;   // --frame-origin, repeated
  bool clear_frame_origins = false;         // --frame-origin none
  std::optional<std::string> accent_color;  // --accent-color; "" for the default
  std::optional<std::string> logo_file;     // --logo FILE (PNG or JPEG); "" removes the logo
};

// `providers add`: configures a signing provider (app/provider_registry.h).
struct ProvidersAddConfig {
  std::string id;         // --id
  std::string secret;     // --secret / CONTRACTD_SECRET
  std::string start_url;  // --start-url (optional)
};

// `dispatcher`: a webhook dispatcher outside contractd (docs/webhooks.md).
struct DispatcherConfig {
  std::string kafka_brokers;  // --kafka-brokers / CONTRACTD_KAFKA_BROKERS (required)
  // --secrets-dir: contractd's <data-dir>/webhook-secrets, read only (required)
  std::string secrets_dir;
  // --data-dir / CONTRACTD_DATA_DIR: this dispatcher's own delivery records. Default:
  // ./dispatcher-data
  std::string data_dir = "./dispatcher-data";
  // --webhook-allow-loopback: as contractd's. Default: false.
  bool webhook_allow_loopback = false;
};

// `backup`: a consistent copy of the data directory (app/backup.h).
struct BackupConfig {
  std::string target;  // --to: absent or an empty directory, outside the data directory (required)
};

// `templates import`: imports template files into the log.
struct TemplatesImportConfig {
  std::vector<std::string> files;  // positional
};

struct Command {
  // "serve", "clients create", "templates import", "providers add", "organizations set",
  // "backup", "promote", "dispatcher", "help", "version" (CommandList())
  std::string name;
  ServeConfig serve;
  DispatcherConfig dispatcher;
  std::string data_dir;  // of the administrative commands (--data-dir / CONTRACTD_DATA_DIR)
  ClientsCreateConfig clients_create;
  TemplatesImportConfig templates_import;
  ProvidersAddConfig providers_add;
  OrganizationsSetConfig organizations_set;
  BackupConfig backup;
  std::string usage;  // set for "help"
};

// Parses argv (argv[0] is the program) and the environment. kValidationFailed for usage errors;
// the message of an unknown command lists the commands.
Result<Command> ParseCommandLine(int argc, const char* const argv[]);

// "commands:" and a line per command with what it does, for the help and usage errors.
std::string CommandList();

// "host:port" -> options.host/port; kValidationFailed when malformed.
Status ParseListen(const std::string& listen, http::ServerOptions& options);

}  // namespace esign::app
