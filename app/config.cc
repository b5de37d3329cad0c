#include "app/config.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <set>
#include <sstream>

#include <boost/program_options.hpp>

#include "domain/text_formats.h"

namespace esign::app {
namespace po = boost::program_options;
namespace {

constexpr int64_t kMaxTokenLifetimeSeconds = int64_t{7} * 24 * 3600;

// CONTRACTD_DATA_DIR -> "data-dir" for the options this command knows.
std::string EnvToOption(const std::string& env, const po::options_description& known) {
  constexpr std::string_view kPrefix = "CONTRACTD_";
  if (env.rfind(kPrefix, 0) != 0) return "";
  std::string name = env.substr(kPrefix.size());
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return known.find_nothrow(name, false) ? name : "";
}

// Boolean flags work bare (`--access-log` means true, by their implicit value) and with a value
// as the next argument (`--access-log false`), as they always did: Boost.Program_options takes an
// implicit-value option's value only from `--flag=value`, so such a pair is joined here first.
std::vector<std::string> JoinBooleanValues(const std::vector<std::string>& args,
                                           const po::options_description& options) {
  static const std::set<std::string, std::less<>> kBooleanWords{"true", "false", "yes", "no",
                                                                "on",   "off",   "1",   "0"};
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto* option = arg.starts_with("--") && arg.find('=') == std::string::npos
                             ? options.find_nothrow(arg.substr(2), false)
                             : nullptr;
    const bool boolean =
        option && dynamic_cast<const po::typed_value<bool>*>(option->semantic().get());
    if (boolean && i + 1 < args.size() && kBooleanWords.contains(args[i + 1])) {
      out.push_back(arg + "=" + args[++i]);
    } else {
      out.push_back(arg);
    }
  }
  return out;
}

// Parses `args` and the environment into `vm`; true when --help was asked for, with the usage
// text in `command`.
Result<bool> ParseOptions(const std::vector<std::string>& args,
                          const po::options_description& options,
                          const po::positional_options_description* positional,
                          const std::string& synopsis, po::variables_map& vm, Command& command) {
  try {
    po::command_line_parser parser(JoinBooleanValues(args, options));
    parser.options(options);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::store(po::parse_environment(
                  options, [&](const std::string& env) { return EnvToOption(env, options); }),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Fail(ErrorCode::kValidationFailed, e.what());
  }
  if (vm.count("help")) {
    std::ostringstream usage;
    usage << "usage: " << synopsis << "\n" << options;
    command.name = "help";
    command.usage = usage.str();
    return true;
  }
  return false;
}

// "a, b,,c" -> {"a", "b", "c"}
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    const auto first = item.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    const auto last = item.find_last_not_of(" \t");
    items.push_back(item.substr(first, last - first + 1));
  }
  return items;
}

constexpr int64_t kMaxClockOffsetSeconds = int64_t{100} * 365 * 24 * 3600;

std::unexpected<Error> Missing(const std::string& flag) {
  return Fail(ErrorCode::kValidationFailed, "--" + flag + " is required", flag, "required");
}

Status ParseServe(const std::vector<std::string>& args, Command& command) {
  ServeConfig& serve = command.serve;
  int64_t tree_head_seconds = serve.tree_head_interval.count();
  std::string dispatcher_mode = "internal";
  std::string replication = "none";
  int64_t clock_offset = 0;
  po::options_description options("contractd serve");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&serve.data_dir)->default_value(serve.data_dir),
      "data directory (RocksDB, keys)")(
      "listen", po::value(&serve.listen)->default_value(serve.listen), "HOST:PORT to listen on")(
      "templates", po::value(&serve.templates_dir),
      "directory of template JSON files imported at start (default: the examples)")(
      "threads", po::value(&serve.server.threads)->default_value(0),
      "HTTP I/O threads (0 = one per core)")(
      "body-limit", po::value(&serve.server.body_limit)->default_value(serve.server.body_limit),
      "largest request body in bytes")(
      "token-lifetime",
      po::value(&serve.token_lifetime_seconds)->default_value(serve.token_lifetime_seconds),
      "access token lifetime in seconds")(
      "demo-client",
      po::value(&serve.demo_client)->default_value(serve.demo_client)->implicit_value(true),
      "on a data directory without clients, create and print a demo client (true/false)")(
      "access-log",
      po::value(&serve.access_log)->default_value(serve.access_log)->implicit_value(true),
      "write a JSON access-log line per request to stderr (true/false)")(
      "workers", po::value(&serve.workers)->default_value(serve.workers),
      "threads that run request handlers (1..1024)")(
      "rate-limit", po::value(&serve.rate_limit)->default_value(serve.rate_limit),
      "authenticated requests per second per client, burst twice that (0 = no limit)")(
      "token-failures-per-client",
      po::value(&serve.token_failures_per_client)->default_value(serve.token_failures_per_client),
      "failed token requests a minute per client id, also the burst (0 = no limit)")(
      "token-failures-per-address",
      po::value(&serve.token_failures_per_address)->default_value(serve.token_failures_per_address),
      "failed token requests a minute per address, also the burst (0 = no limit)")(
      "token-check-threads",
      po::value(&serve.token_check_threads)->default_value(serve.token_check_threads),
      "threads that check client secrets, apart from the workers (1..64)")(
      "token-check-queue",
      po::value(&serve.token_check_queue)->default_value(serve.token_check_queue),
      "token requests waiting for a check thread; more answer 503 (1..100000)")(
      "link-rate-limit", po::value(&serve.link_rate_limit)->default_value(serve.link_rate_limit),
      "requests per second per signing link on the hosted routes (0 = no limit)")(
      "link-burst", po::value(&serve.link_burst)->default_value(serve.link_burst),
      "burst per signing link")(
      "link-address-rate-limit",
      po::value(&serve.link_address_rate_limit)->default_value(serve.link_address_rate_limit),
      "requests per second per address on the hosted routes (0 = no limit)")(
      "link-address-burst",
      po::value(&serve.link_address_burst)->default_value(serve.link_address_burst),
      "burst per address on the hosted routes")(
      "tree-head-interval", po::value(&tree_head_seconds)->default_value(tree_head_seconds),
      "seconds between signed tree heads of the ledger (1..3600)")(
      "kafka-brokers", po::value(&serve.kafka_brokers),
      "Kafka bootstrap servers HOST:PORT,... (default: an embedded cluster on loopback)")(
      "replication", po::value(&replication)->default_value(replication),
      "none: the log on the local disk alone; kafka: every append is acknowledged once the log "
      "topic on --kafka-brokers has it")(
      "standby", po::bool_switch(&serve.standby),
      "with --replication kafka: follow the writer, answer reads, refuse writes, until "
      "`contractd promote`")(
      "auto-promote", po::bool_switch(&serve.auto_promote),
      "with --standby: take over by itself when the writer has been gone for 6 s")(
      "log-shard", po::value(&serve.log_shard)->default_value(serve.log_shard),
      "the shard whose log topic (contract-log.<shard>) this node writes or follows")(
      "webhook-allow-loopback",
      po::value(&serve.webhook_allow_loopback)
          ->default_value(serve.webhook_allow_loopback)
          ->implicit_value(true),
      "let webhook endpoints be http(s) URLs on loopback, for development (true/false)")(
      "webhook-dispatcher", po::value(&dispatcher_mode)->default_value(dispatcher_mode),
      "internal: deliver webhooks from this process; external: leave it to `contractd "
      "dispatcher` processes")(
      "public-url", po::value(&serve.public_base_url),
      "origin of the signing links, e.g. https://sign.example.com (default: http://<Host>)")(
      "clock-offset", po::value(&clock_offset),
      "seconds the service's clock runs ahead, to rehearse expiry and reminders (0..3153600000); "
      "enables the admin socket's clock.advance. Not for production")(
      "smtp-url", po::value(&serve.smtp_url),
      "mail server, smtp://HOST:587 (STARTTLS) or smtps://HOST:465 (default: .eml files in "
      "<data-dir>/outbox)")("smtp-user", po::value(&serve.smtp_user), "SMTP AUTH user")(
      "smtp-password-file", po::value(&serve.smtp_password_file),
      "file holding the SMTP AUTH password")(
      "smtp-ca-file", po::value(&serve.smtp_ca_file),
      "CA certificates to trust for the mail server besides the system's")(
      "mail-from", po::value(&serve.mail_from)->default_value(serve.mail_from),
      "sender address of the e-mails")(
      "mail-from-name", po::value(&serve.mail_from_name)->default_value(serve.mail_from_name),
      "sender name of the e-mails")(
      "mail-limit-per-organization",
      po::value(&serve.mail_limit_per_organization)
          ->default_value(serve.mail_limit_per_organization),
      "e-mails an hour for one organization's contracts; more are recorded failed, not sent "
      "(0 = no limit)")(
      "mail-limit-per-recipient",
      po::value(&serve.mail_limit_per_recipient)->default_value(serve.mail_limit_per_recipient),
      "e-mails an hour to one address, across organizations (0 = no limit)")(
      "document-limit", po::value(&serve.document_limit)->default_value(serve.document_limit),
      "bytes of one uploaded PDF, 1024 to 104857600; larger uploads answer 413 "
      "DOCUMENT_TOO_LARGE")(
      "document-uploads-per-hour",
      po::value(&serve.document_uploads_per_hour)->default_value(serve.document_uploads_per_hour),
      "documents one organization may upload in an hour, 1 to 100000")(
      "bulk-rate", po::value(&serve.bulk_rate)->default_value(serve.bulk_rate),
      "rows of bulk sends created and sent a second, all jobs together, 1 to 1000")(
      "tsa-url", po::value(&serve.tsa_url),
      "RFC 3161 timestamp authority, http(s)://...: seals become PAdES B-LT and tree heads are "
      "timestamped (default: none, seals are B-B)")(
      "tsa-ca-file", po::value(&serve.tsa_ca_file),
      "PEM CA the timestamp authority's tokens must chain to")(
      "tsa-timeout-ms", po::value(&serve.tsa_timeout_ms)->default_value(serve.tsa_timeout_ms),
      "milliseconds each request to the timestamp authority may take, 100 to 60000")(
      "memory-budget-mb", po::value(&serve.memory_budget_mb)->default_value(serve.memory_budget_mb),
      "MiB the service's caches, memtables and queues may hold together with the rest of the "
      "process, 256 to 1048576");
  po::variables_map vm;
  auto help = ParseOptions(args, options, nullptr, "contractd [serve] [options]", vm, command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (serve.token_lifetime_seconds <= 0 ||
      serve.token_lifetime_seconds > kMaxTokenLifetimeSeconds) {
    return Fail(ErrorCode::kValidationFailed, "--token-lifetime must be 1..604800 seconds",
                "token-lifetime", std::to_string(serve.token_lifetime_seconds));
  }
  if (tree_head_seconds < 1 || tree_head_seconds > 3600) {
    return Fail(ErrorCode::kValidationFailed, "--tree-head-interval must be 1..3600 seconds",
                "tree-head-interval", std::to_string(tree_head_seconds));
  }
  serve.tree_head_interval = std::chrono::seconds(tree_head_seconds);
  if (vm.count("clock-offset") != 0) {
    if (clock_offset < 0 || clock_offset > kMaxClockOffsetSeconds) {
      return Fail(ErrorCode::kValidationFailed, "--clock-offset must be 0..3153600000 seconds",
                  "clock-offset", std::to_string(clock_offset));
    }
    serve.clock_offset_seconds = clock_offset;
  }
  if (dispatcher_mode != "internal" && dispatcher_mode != "external") {
    return Fail(ErrorCode::kValidationFailed, "--webhook-dispatcher must be internal or external",
                "webhook-dispatcher", dispatcher_mode);
  }
  serve.external_dispatchers = dispatcher_mode == "external";
  if (serve.external_dispatchers && serve.kafka_brokers.empty()) {
    return Fail(ErrorCode::kValidationFailed,
                "--webhook-dispatcher external needs --kafka-brokers: the embedded cluster ends "
                "with contractd, and the dispatchers' work with it",
                "webhook-dispatcher", dispatcher_mode);
  }
  if (replication != "none" && replication != "kafka") {
    return Fail(ErrorCode::kValidationFailed, "--replication must be none or kafka", "replication",
                replication);
  }
  serve.replicated = replication == "kafka";
  if (serve.replicated && serve.kafka_brokers.empty()) {
    return Fail(ErrorCode::kValidationFailed,
                "--replication kafka needs --kafka-brokers: the embedded cluster ends with this "
                "process, and the log with it",
                "replication", replication);
  }
  if (serve.auto_promote && !serve.standby) {
    return Fail(ErrorCode::kValidationFailed, "--auto-promote needs --standby", "auto-promote",
                "true");
  }
  if (serve.standby && !serve.replicated) {
    return Fail(ErrorCode::kValidationFailed, "--standby needs --replication kafka", "standby",
                "true");
  }
  if (serve.log_shard.empty() || serve.log_shard.size() > 64 ||
      serve.log_shard.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") !=
          std::string::npos) {
    return Fail(ErrorCode::kValidationFailed, "--log-shard must be 1..64 of a-z, 0-9 and -",
                "log-shard", serve.log_shard);
  }
  if (!serve.smtp_url.empty() && !serve.smtp_url.starts_with("smtp://") &&
      !serve.smtp_url.starts_with("smtps://")) {
    return Fail(ErrorCode::kValidationFailed, "--smtp-url must be smtp://HOST[:PORT] or smtps://",
                "smtp-url", serve.smtp_url);
  }
  if (!serve.tsa_url.empty() && !serve.tsa_url.starts_with("http://") &&
      !serve.tsa_url.starts_with("https://")) {
    return Fail(ErrorCode::kValidationFailed, "--tsa-url must be an http or https URL", "tsa-url",
                serve.tsa_url);
  }
  if (serve.tsa_timeout_ms < 100 || serve.tsa_timeout_ms > 60000) {
    return Fail(ErrorCode::kValidationFailed, "--tsa-timeout-ms must be 100 to 60000",
                "tsa-timeout-ms", std::to_string(serve.tsa_timeout_ms));
  }
  if (!serve.tsa_ca_file.empty() && serve.tsa_url.empty()) {
    return Fail(ErrorCode::kValidationFailed, "--tsa-ca-file needs --tsa-url", "tsa-ca-file",
                serve.tsa_ca_file);
  }
  if (!IsEmailAddress(serve.mail_from)) {
    return Fail(ErrorCode::kValidationFailed, "--mail-from must be an e-mail address", "mail-from",
                serve.mail_from);
  }
  for (const auto& [flag, value] :
       {std::pair{"mail-limit-per-organization", serve.mail_limit_per_organization},
        std::pair{"mail-limit-per-recipient", serve.mail_limit_per_recipient}}) {
    if (value < 0) {
      return Fail(ErrorCode::kValidationFailed, std::string("--") + flag + " must be 0 or more",
                  flag, std::to_string(value));
    }
  }
  if (serve.document_limit < 1024 || serve.document_limit > (100ull << 20)) {
    return Fail(ErrorCode::kValidationFailed, "--document-limit must be 1024 to 104857600 bytes",
                "document-limit", std::to_string(serve.document_limit));
  }
  if (serve.memory_budget_mb < kMinMemoryBudgetMb || serve.memory_budget_mb > kMaxMemoryBudgetMb) {
    return Fail(ErrorCode::kValidationFailed, "--memory-budget-mb must be 256 to 1048576",
                "memory-budget-mb", std::to_string(serve.memory_budget_mb));
  }
  if (!(serve.bulk_rate >= 1 && serve.bulk_rate <= 1000)) {
    return Fail(ErrorCode::kValidationFailed, "--bulk-rate must be 1 to 1000", "bulk-rate",
                std::to_string(serve.bulk_rate));
  }
  if (serve.document_uploads_per_hour < 1 || serve.document_uploads_per_hour > 100000) {
    return Fail(ErrorCode::kValidationFailed, "--document-uploads-per-hour must be 1 to 100000",
                "document-uploads-per-hour", std::to_string(serve.document_uploads_per_hour));
  }
  if (serve.smtp_user.empty() != serve.smtp_password_file.empty()) {
    return Fail(ErrorCode::kValidationFailed, "--smtp-user and --smtp-password-file go together",
                "smtp-user", "both or none");
  }
  if (!serve.public_base_url.empty() && !serve.public_base_url.starts_with("https://") &&
      !serve.public_base_url.starts_with("http://")) {
    return Fail(ErrorCode::kValidationFailed, "--public-url must be an http or https origin",
                "public-url", serve.public_base_url);
  }
  if (!(serve.rate_limit >= 0)) {
    return Fail(ErrorCode::kValidationFailed, "--rate-limit must be 0 or more", "rate-limit",
                std::to_string(serve.rate_limit));
  }
  for (auto [flag, value] :
       {std::pair{"token-failures-per-client", serve.token_failures_per_client},
        {"token-failures-per-address", serve.token_failures_per_address},
        {"link-rate-limit", serve.link_rate_limit},
        {"link-burst", serve.link_burst},
        {"link-address-rate-limit", serve.link_address_rate_limit},
        {"link-address-burst", serve.link_address_burst}}) {
    if (!(value >= 0)) {
      return Fail(ErrorCode::kValidationFailed, std::string("--") + flag + " must be 0 or more",
                  flag, std::to_string(value));
    }
  }
  if (serve.token_check_threads < 1 || serve.token_check_threads > 64) {
    return Fail(ErrorCode::kValidationFailed, "--token-check-threads must be 1..64",
                "token-check-threads", std::to_string(serve.token_check_threads));
  }
  if (serve.token_check_queue < 1 || serve.token_check_queue > 100000) {
    return Fail(ErrorCode::kValidationFailed, "--token-check-queue must be 1..100000",
                "token-check-queue", std::to_string(serve.token_check_queue));
  }
  if (serve.workers < 1 || serve.workers > 1024) {
    return Fail(ErrorCode::kValidationFailed, "--workers must be 1..1024", "workers",
                std::to_string(serve.workers));
  }
  return ParseListen(serve.listen, serve.server);
}

Status ParseClientsCreate(const std::vector<std::string>& args, Command& command) {
  ClientsCreateConfig& config = command.clients_create;
  std::string permissions;
  po::options_description options("contractd clients create");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&command.data_dir)->default_value("./data"), "data directory")(
      "org", po::value(&config.organization_id), "organization the client acts for")(
      "permissions", po::value(&permissions),
      "comma-separated permissions, e.g. contracts:read,contracts:create")(
      "name", po::value(&config.name), "a name for people to recognize the client by");
  po::variables_map vm;
  auto help = ParseOptions(
      args, options, nullptr,
      "contractd clients create --data-dir DIR --org ORG --permissions P1,P2 --name NAME", vm,
      command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (config.organization_id.empty()) return Missing("org");
  if (permissions.empty()) return Missing("permissions");
  if (config.name.empty()) return Missing("name");
  config.permissions = SplitList(permissions);
  return {};
}

Status ParseOrganizationsSet(const std::vector<std::string>& args, Command& command) {
  OrganizationsSetConfig& config = command.organizations_set;
  po::options_description options("contractd organizations set");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&command.data_dir)->default_value("./data"), "data directory")(
      "org", po::value(&config.organization_id), "the organization")(
      "email", po::value<std::string>(),
      "its notification address, the `owner` of e-mail settings (\"\" removes it)")(
      "name", po::value<std::string>(), "its name in the e-mails and on its signing pages")(
      "frame-origin", po::value(&config.frame_origins)->composing(),
      "an origin that may frame its embedded signing pages, e.g. https://app.example.com "
      "(repeat for more; \"none\" for none)")(
      "accent-color", po::value<std::string>(),
      "#RRGGBB for its signing pages and e-mails, with 4.5:1 contrast against white (\"\": the "
      "default)")("logo", po::value<std::string>(),
                  "a PNG or JPEG file of at most 256 KiB and 1024 x 1024 pixels (\"\" removes it)");
  po::variables_map vm;
  auto help = ParseOptions(args, options, nullptr,
                           "contractd organizations set --data-dir DIR --org ORG [--email ADDRESS] "
                           "[--name NAME] [--frame-origin ORIGIN ...] [--accent-color #RRGGBB] "
                           "[--logo FILE]",
                           vm, command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (config.organization_id.empty()) return Missing("org");
  const auto optional = [&](const char* name) -> std::optional<std::string> {
    if (vm.count(name) == 0) return std::nullopt;
    return vm[name].as<std::string>();
  };
  config.email = optional("email");
  config.name = optional("name");
  config.accent_color = optional("accent-color");
  config.logo_file = optional("logo");
  if (config.frame_origins.size() == 1 && config.frame_origins.front() == "none") {
    config.frame_origins.clear();
    config.clear_frame_origins = true;
  }
  if (!config.email && !config.name && config.frame_origins.empty() &&
      !config.clear_frame_origins && !config.accent_color && !config.logo_file) {
    return Fail(ErrorCode::kValidationFailed, "nothing to set", "email",
                "give at least one of --email, --name, --frame-origin, --accent-color, --logo");
  }
  return {};
}

Status ParseProvidersAdd(const std::vector<std::string>& args, Command& command) {
  ProvidersAddConfig& config = command.providers_add;
  po::options_description options("contractd providers add");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&command.data_dir)->default_value("./data"), "data directory")(
      "id", po::value(&config.id), "the provider's id, named by participants' providerConfigRef")(
      "secret", po::value(&config.secret), "the shared secret of its callbacks (16+ characters)")(
      "start-url", po::value(&config.start_url),
      "http URL the service posts new provider sessions to (optional)");
  po::variables_map vm;
  auto help = ParseOptions(
      args, options, nullptr,
      "contractd providers add --data-dir DIR --id ID --secret SECRET [--start-url URL]", vm,
      command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (config.id.empty()) return Missing("id");
  if (config.secret.empty()) return Missing("secret");
  return {};
}

Status ParseBackup(const std::vector<std::string>& args, Command& command) {
  po::options_description options("contractd backup");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&command.data_dir)->default_value("./data"), "data directory")(
      "to", po::value(&command.backup.target),
      "where the copy goes: a new or empty directory outside the data directory");
  po::variables_map vm;
  auto help =
      ParseOptions(args, options, nullptr, "contractd backup --data-dir DIR --to DIR", vm, command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (command.backup.target.empty()) return Missing("to");
  return {};
}

Status ParsePromote(const std::vector<std::string>& args, Command& command) {
  po::options_description options("contractd promote");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&command.data_dir)->default_value("./data"),
      "data directory of the running standby to promote");
  po::variables_map vm;
  auto help = ParseOptions(args, options, nullptr, "contractd promote --data-dir DIR", vm, command);
  if (!help) return Fail(help.error());
  return {};
}

Status ParseDispatcher(const std::vector<std::string>& args, Command& command) {
  DispatcherConfig& config = command.dispatcher;
  po::options_description options("contractd dispatcher");
  options.add_options()("help,h", "show this help")(
      "kafka-brokers", po::value(&config.kafka_brokers),
      "bootstrap servers HOST:PORT,... of the cluster contractd publishes to")(
      "secrets-dir", po::value(&config.secrets_dir),
      "contractd's <data-dir>/webhook-secrets (read only)")(
      "data-dir", po::value(&config.data_dir)->default_value(config.data_dir),
      "this dispatcher's own directory (its delivery records)")(
      "webhook-allow-loopback",
      po::value(&config.webhook_allow_loopback)
          ->default_value(config.webhook_allow_loopback)
          ->implicit_value(true),
      "let webhook endpoints be http(s) URLs on loopback, for development (true/false)");
  po::variables_map vm;
  auto help = ParseOptions(
      args, options, nullptr,
      "contractd dispatcher --kafka-brokers LIST --secrets-dir DIR [--data-dir DIR]", vm, command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (config.kafka_brokers.empty()) return Missing("kafka-brokers");
  if (config.secrets_dir.empty()) return Missing("secrets-dir");
  return {};
}

Status ParseTemplatesImport(const std::vector<std::string>& args, Command& command) {
  po::options_description options("contractd templates import");
  options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&command.data_dir)->default_value("./data"), "data directory");
  po::options_description all;
  all.add(options).add_options()("file", po::value(&command.templates_import.files));
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  auto help = ParseOptions(args, all, &positional,
                           "contractd templates import --data-dir DIR FILE...", vm, command);
  if (!help) return Fail(help.error());
  if (*help) return {};
  if (command.templates_import.files.empty()) {
    return Fail(ErrorCode::kValidationFailed, "name at least one template file", "file",
                "required");
  }
  return {};
}

// Every command: its words, what it does, and its parser (none for help and version). The first
// is the default.
struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  Status (*parse)(const std::vector<std::string>& args, Command& command);
};

constexpr std::array<CommandSpec, 10> kCommands{{
    {"serve", "run the service (the default command)", ParseServe},
    {"clients create", "provision a machine client and print its secret once", ParseClientsCreate},
    {"templates import", "import template files into the log", ParseTemplatesImport},
    {"organizations set",
     "set an organization's notification address, name, frame origins and branding",
     ParseOrganizationsSet},
    {"providers add", "configure a signing provider", ParseProvidersAdd},
    {"backup", "copy the data directory consistently, with the service running or not",
     ParseBackup},
    {"promote", "make the standby serving a data directory the writer", ParsePromote},
    {"dispatcher", "deliver webhooks in a process of its own, from Kafka", ParseDispatcher},
    // Answered by ParseCommandLine itself.
    {"help", "this list and the serve flags; `help COMMAND`: the command's flags", nullptr},
    {"version", "the version and the commit contractd was built from", nullptr},
}};

const CommandSpec* FindCommand(std::string_view name) {
  for (const auto& spec : kCommands) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// A group's first word alone (`contractd clients --help`): the group's commands; anything else
// is an unknown command, answered with the list of commands.
Result<Command> GroupHelpOrUnknown(const std::vector<std::string>& args, Command& command) {
  const std::string& group = args.front();
  const bool help = args.size() > 1 && (args[1] == "--help" || args[1] == "-h");
  std::string members;
  for (const auto& spec : kCommands) {
    if (spec.name.starts_with(group + " ")) {
      members.append("  ").append(spec.name).append("  ").append(spec.summary).append("\n");
    }
  }
  if (!members.empty() && help) {
    command.name = "help";
    command.usage = "usage: contractd " + group + " COMMAND [options]\n\ncommands:\n" + members +
                    "\nEach command has its own --help.\n";
    return command;
  }
  const bool in_group = !members.empty() && args.size() > 1 && !args[1].starts_with("-");
  const std::string named = in_group ? group + " " + args[1] : group;
  const std::string message = members.empty() || in_group
                                  ? "unknown command '" + named + "'\n" + CommandList()
                                  : "'" + group + "' needs a command:\n" + members;
  return Fail(ErrorCode::kValidationFailed, message, "command", named);
}

}  // namespace

Status ParseListen(const std::string& listen, http::ServerOptions& options) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Fail(ErrorCode::kValidationFailed, "--listen must be HOST:PORT", "listen", listen);
  }
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  unsigned port = 0;
  const char* begin = listen.data() + colon + 1;
  const char* end = listen.data() + listen.size();
  auto [ptr, ec] = std::from_chars(begin, end, port);
  if (ec != std::errc() || ptr != end || port > 65535) {
    return Fail(ErrorCode::kValidationFailed, "--listen port must be 0..65535", "listen", listen);
  }
  options.host = host;
  options.port = static_cast<uint16_t>(port);
  return {};
}

Result<Command> ParseCommandLine(int argc, const char* const argv[]) {
  Command command;
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::string first = args.empty() ? "" : args.front();
  if (first == "--version" || first == "version") {
    command.name = "version";
    return command;
  }
  if (first == "--help" || first == "-h" || first == "help") {
    // `help COMMAND...` is `COMMAND... --help`.
    if (first == "help" && args.size() > 1) {
      args.erase(args.begin());
      args.emplace_back("--help");
    } else {
      if (Status serve = ParseServe({"--help"}, command); !serve) return Fail(serve.error());
      command.name = "help";
      command.usage = "usage: contractd [COMMAND] [options]\n\n" + CommandList() +
                      "\nEach command has its own --help; without a command contractd serves.\n\n" +
                      command.usage;
      return command;
    }
  }
  // The longest command the leading words name; none: serve, with every argument a flag of it.
  const CommandSpec* spec = kCommands.data();
  size_t words = 0;
  if (!args.empty() && !args.front().starts_with("-")) {
    const std::string second = args.size() > 1 ? args[1] : "";
    spec = FindCommand(args.front() + " " + second);
    words = 2;
    if (spec == nullptr) {
      spec = FindCommand(args.front());
      words = 1;
    }
    if (spec == nullptr || spec->parse == nullptr) return GroupHelpOrUnknown(args, command);
  }
  args.erase(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(words));
  command.name = std::string(spec->name);
  if (Status parsed = spec->parse(args, command); !parsed) return Fail(parsed.error());
  return command;
}

std::string CommandList() {
  size_t width = 0;
  for (const auto& spec : kCommands) width = std::max(width, spec.name.size());
  std::string list = "commands:\n";
  for (const auto& spec : kCommands) {
    list.append("  ").append(spec.name).append(width + 2 - spec.name.size(), ' ');
    list.append(spec.summary).append("\n");
  }
  return list;
}

}  // namespace esign::app
