// contractd's configuration: command-line flags with CONTRACTD_* environment equivalents, filled
// in one place. Flags win over the environment, the environment over the defaults.
#pragma once

#include <string>
#include <vector>

#include "domain/result.h"
#include "http/server.h"

namespace esign::app {

struct ServeConfig {
  std::string data_dir = "./data";        // --data-dir / CONTRACTD_DATA_DIR
  std::string listen = "127.0.0.1:8080";  // --listen / CONTRACTD_LISTEN
  // --templates / CONTRACTD_TEMPLATES; empty = the example templates shipped with the source
  std::string templates_dir;
  http::ServerOptions server;  // host and port come from `listen`
};

struct Command {
  std::string name;  // "serve", "help", ...
  ServeConfig serve;
  std::string usage;  // set for "help"
};

// Parses argv (without the program name's meaning) and the environment.
Result<Command> ParseCommandLine(int argc, const char* const argv[]);

// "host:port" -> options.host/port; kValidationFailed when malformed.
Status ParseListen(const std::string& listen, http::ServerOptions& options);

}  // namespace esign::app
