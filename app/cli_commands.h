// The administrative commands of the command line, as JSON requests, run by the same code whether
// the command line opened the store itself or handed the request to a running service through the
// admin socket (admin_socket.h).
//
// Requests (one JSON object each):
//   {"command":"clients.create","organizationId":"...","name":"...","permissions":["..."]}
//       -> {"clientId","clientSecret","organizationId","permissions"}
//   {"command":"templates.import","file":"<file name>","text":"<the file's content>"}
//       -> {"templateId","file","changed"}
//   {"command":"organizations.set","organizationId":"...","email":"...","name":"..."}
//       -> the same fields (the organization's notification address; "" removes it)
//   {"command":"backup","to":"<absolute path>"}
//       -> {"backup","events","lastPosition","treeHeadSize","databases","files","durationMs"}
//       (app/backup.h); the data directory is the store's
//   {"command":"ping"} -> {}
// Responses: {"ok":true,"result":{...}} or {"ok":false,"error":{"code","message","details"}}.
//
// Thread safety: as the EventStore's.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "commands/client_commands.h"
#include "domain/result.h"
#include "eventstore/event_store.h"
#include "projections/client_directory.h"

namespace esign::app {

class AdminCommands {
 public:
  // True once the service's projections have applied the log up to a size; null for the command
  // line's own store, which has no projections running.
  using WaitApplied = std::function<bool(uint64_t size)>;
  // Copies the data directory to an absolute path (app/backup.h), by whoever holds its databases:
  // the service, or the command line. Null: "backup" is refused.
  using Backup = std::function<Result<boost::json::object>(const std::string& target)>;

  // `store` and `clients` (the client command handler on the same store) must outlive the
  // commands.
  AdminCommands(eventstore::EventStore& store, commands::ClientCommandHandler& clients,
                WaitApplied wait_applied = nullptr, Backup backup = nullptr)
      : store_(store),
        clients_(clients),
        wait_applied_(std::move(wait_applied)),
        backup_(std::move(backup)) {}

  Result<boost::json::object> Run(const boost::json::object& request);
  // Parses a request line, runs it and encodes the response line.
  std::string HandleLine(std::string_view line);

 private:
  Result<boost::json::object> CreateClient(const boost::json::object& request);
  Result<boost::json::object> ImportTemplate(const boost::json::object& request);
  Result<boost::json::object> SetOrganization(const boost::json::object& request);
  Result<boost::json::object> BackUp(const boost::json::object& request);

  eventstore::EventStore& store_;
  commands::ClientCommandHandler& clients_;
  WaitApplied wait_applied_;
  Backup backup_;
};

std::string EncodeAdminResponse(const Result<boost::json::object>& result);
// The result, or the error the response carries; kInternal for a malformed response.
Result<boost::json::object> DecodeAdminResponse(std::string_view line);

// 2 for usage and validation errors (kValidationFailed, kTemplateInvalid), 1 for the rest.
int ExitCodeOf(const Error& error);

// When the directory holds no client yet, creates "the demo client": every permission, for the
// organization "org_demo", which is named "Demo organization" (what its mails and documents call
// it) unless it has a name already. std::nullopt when some client exists.
Result<std::optional<commands::CreatedClient>> CreateDemoClientIfNone(
    commands::ClientCommandHandler& clients, const projections::ClientDirectory& directory,
    eventstore::EventStore& store);

// The block contractd prints on stderr for the demo client: its credentials (shown this once)
// and a curl command line that obtains a token from the server at host:port.
std::string DemoClientBanner(const commands::CreatedClient& client, std::string_view host,
                             uint16_t port);

// What contractd prints on stderr instead when clients exist already: the `contractd clients
// create` command line that makes a client like the demo client for `data_dir`, for an operator
// who lost the demo secret.
std::string NewClientHint(const std::filesystem::path& data_dir);

}  // namespace esign::app
