#include "app/cli_runner.h"

#include <filesystem>
#include <thread>
#include <vector>

#include "app/admin_socket.h"
#include "app/backup.h"
#include "app/cli_commands.h"
#include "app/cli_store.h"
#include "app/file_text.h"
#include "app/private_data_directory.h"
#include "app/provider_registry.h"
#include "base/base64.h"
#include "base/time_text.h"
#include "domain/clock.h"
#include "domain/id_generator.h"

namespace esign::app {
namespace {

int Report(const Error& error, std::ostream& err) {
  err << "contractd: " << error.message;
  for (const auto& d : error.details) err << " (" << d.field << ": " << d.issue << ")";
  err << "\n";
  return ExitCodeOf(error);
}

// organizations.set with the members the command line gave; a logo file goes as base64 with its
// media type (from its first bytes: the service checks the rest).
Result<boost::json::object> OrganizationsSetRequest(const OrganizationsSetConfig& config) {
  boost::json::object request{{"command", "organizations.set"},
                              {"organizationId", config.organization_id}};
  if (config.email) request["email"] = *config.email;
  if (config.name) request["name"] = *config.name;
  if (!config.frame_origins.empty() || config.clear_frame_origins) {
    boost::json::array origins;
    for (const auto& origin : config.frame_origins) origins.emplace_back(origin);
    request["frameOrigins"] = std::move(origins);
  }
  if (config.accent_color) request["accentColor"] = *config.accent_color;
  if (config.logo_file) {
    request["logo"] = "";
    if (!config.logo_file->empty()) {
      const Result<std::string> bytes = ReadWholeFile(*config.logo_file);
      if (!bytes) {
        return Fail(ErrorCode::kValidationFailed, "cannot read logo file " + *config.logo_file,
                    "logo", *config.logo_file);
      }
      request["logo"] = Base64Encode(*bytes);
      request["logoMediaType"] = bytes->starts_with("\x89PNG") ? "image/png" : "image/jpeg";
    }
  }
  return request;
}

// The requests of the command, in order. A template file that cannot be read is refused here,
// before anything is sent or stored.
Result<std::vector<boost::json::object>> BuildRequests(const Command& command) {
  std::vector<boost::json::object> requests;
  if (command.name == "clients create") {
    boost::json::array permissions;
    for (const auto& p : command.clients_create.permissions) permissions.emplace_back(p);
    requests.push_back(boost::json::object{
        {"command", "clients.create"},
        {"organizationId", command.clients_create.organization_id},
        {"name", command.clients_create.name},
        {"permissions", std::move(permissions)},
    });
    return requests;
  }
  if (command.name == "backup") {
    // Checked here too, so that a mistake is reported before a server is asked or the store
    // opened (which would create a missing data directory).
    const std::filesystem::path data_dir = command.data_dir;
    if (Status source = CheckIsDataDirectory(data_dir); !source) return Fail(source.error());
    if (Status target = CheckBackupTarget(data_dir, command.backup.target); !target) {
      return Fail(target.error());
    }
    // The server may run in another working directory.
    requests.push_back(boost::json::object{
        {"command", "backup"},
        {"to", std::filesystem::absolute(command.backup.target).string()},
    });
    return requests;
  }
  if (command.name == "organizations set") {
    auto request = OrganizationsSetRequest(command.organizations_set);
    if (!request) return std::unexpected(request.error());
    requests.push_back(std::move(*request));
    return requests;
  }
  for (const auto& file : command.templates_import.files) {
    const Result<std::string> text = ReadWholeFile(file);
    if (!text) {
      return Fail(ErrorCode::kTemplateInvalid, "cannot read template file " + file, "file", file);
    }
    // The server reads the text, not the path: it may run with another working directory.
    requests.push_back(boost::json::object{
        {"command", "templates.import"},
        {"file", std::filesystem::path(file).filename().string()},
        {"text", *text},
    });
  }
  return requests;
}

}  // namespace

int RunProvidersAdd(const Command& command, std::ostream& out, std::ostream& err) {
  const ProvidersAddConfig& config = command.providers_add;
  const std::string now = FormatTimestamp(SystemClock::Instance().NowMicros());
  if (auto added = AddProvider(command.data_dir,
                               ProviderConfig{config.id, config.secret, config.start_url, now});
      !added) {
    return Report(added.error(), err);
  }
  out << boost::json::serialize(
             boost::json::object{{"providerId", config.id}, {"startUrl", config.start_url}})
      << std::endl;
  return 0;
}

int RunPromote(const Command& command, std::ostream& out, std::ostream& err) {
  const std::filesystem::path socket = std::filesystem::path(command.data_dir) / kAdminSocketName;
  auto asked = AdminRequest(socket, R"({"command":"promote"})", std::chrono::seconds(10));
  if (!asked) return Report(asked.error(), err);
  if (!*asked) {
    return Report(Error::Of(ErrorCode::kNotFound, "no contractd serves " + command.data_dir), err);
  }
  if (auto accepted = DecodeAdminResponse(**asked); !accepted) return Report(accepted.error(), err);
  // The service stops as a standby and starts again as the writer: its socket goes away and
  // comes back.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto answer = AdminRequest(socket, R"({"command":"replication"})", std::chrono::seconds(5));
    if (!answer || !*answer) continue;
    auto status = DecodeAdminResponse(**answer);
    if (!status) continue;
    const auto* role = status->if_contains("role");
    if (role == nullptr || !role->is_string() || role->get_string() == "standby") {
      const auto* failed = status->if_contains("promotionFailed");
      if (failed != nullptr && failed->is_string()) {
        return Report(Error::Of(ErrorCode::kContractStateConflict,
                                "the promotion failed: " + std::string(failed->get_string())),
                      err);
      }
      continue;
    }
    out << boost::json::serialize(*status) << std::endl;
    return role->get_string() == "writer" ? 0 : 1;
  }
  return Report(Error::Of(ErrorCode::kUnavailable, "the standby did not become the writer in 60 s"),
                err);
}

int RunAdminCommand(const Command& command, std::ostream& out, std::ostream& err,
                    const CliOptions& options) {
  auto requests = BuildRequests(command);
  if (!requests) return Report(requests.error(), err);

  const std::filesystem::path data_dir = command.data_dir;
  const std::filesystem::path socket = data_dir / kAdminSocketName;
  const auto deadline = std::chrono::steady_clock::now() + options.lock_wait;
  std::unique_ptr<eventstore::RocksEventStore> store;
  std::unique_ptr<commands::ClientCommandHandler> local_clients;
  std::unique_ptr<AdminCommands> local;
  int status = 0;
  const auto answer_wait =
      command.name == "backup" ? options.backup_answer_wait : options.answer_wait;

  for (const auto& request : *requests) {
    const std::string line = boost::json::serialize(request);
    Result<boost::json::object> result;
    while (true) {
      if (!local) {
        auto answer = AdminRequest(socket, line, answer_wait);
        if (!answer) return Report(answer.error(), err);
        if (*answer) {
          result = DecodeAdminResponse(**answer);
          break;
        }
        // No server: the store is ours to open, unless a service is starting or stopping.
        if (Status private_dir = RequirePrivateDataDirectory(data_dir.string()); !private_dir) {
          return Report(private_dir.error(), err);
        }
        eventstore::RocksStoreOptions store_options;
        store_options.data_dir = data_dir.string();
        store_options.block_cache_bytes = size_t{8} << 20;  // one short command
        auto opened = eventstore::RocksEventStore::Open(store_options);
        if (!opened) {
          if (IsLockedByAnotherProcess(opened.error()) &&
              std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
          }
          return Report(opened.error(), err);
        }
        store = std::move(*opened);
        // No read side runs here: nothing waits for the directory.
        local_clients = std::make_unique<commands::ClientCommandHandler>(
            *store, nullptr, RandomIdGenerator::Instance(), SystemClock::Instance());
        local = std::make_unique<AdminCommands>(
            *store, *local_clients, nullptr,
            [&](const std::string& target) -> Result<boost::json::object> {
              auto summary = BackUpStopped(data_dir, *store, target);
              if (!summary) return Fail(summary.error());
              return BackupSummaryJson(*summary);
            });
      }
      result = local->Run(request);
      break;
    }
    if (!result) {
      status = Report(result.error(), err);
      break;
    }
    out << boost::json::serialize(*result) << std::endl;
  }
  local.reset();
  if (store) store->Close();
  return status;
}

}  // namespace esign::app
