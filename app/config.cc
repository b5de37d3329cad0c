#include "app/config.h"

#include <charconv>
#include <cstdlib>
#include <sstream>

#include <boost/program_options.hpp>

namespace esign::app {
namespace po = boost::program_options;
namespace {

// CONTRACTD_DATA_DIR -> "data-dir" for the options this command knows.
std::string EnvToOption(const std::string& env, const po::options_description& known) {
  constexpr std::string_view kPrefix = "CONTRACTD_";
  if (env.rfind(kPrefix, 0) != 0) return "";
  std::string name = env.substr(kPrefix.size());
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return known.find_nothrow(name, false) ? name : "";
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
  ServeConfig& serve = command.serve;

  po::options_description serve_options("contractd serve");
  serve_options.add_options()("help,h", "show this help")(
      "data-dir", po::value(&serve.data_dir)->default_value(serve.data_dir),
      "data directory (RocksDB, keys)")(
      "listen", po::value(&serve.listen)->default_value(serve.listen), "HOST:PORT to listen on")(
      "templates", po::value(&serve.templates_dir),
      "directory of template JSON files imported at start (default: the examples)")(
      "threads", po::value(&serve.server.threads)->default_value(0),
      "HTTP I/O threads (0 = one per core)")(
      "body-limit", po::value(&serve.server.body_limit)->default_value(serve.server.body_limit),
      "largest request body in bytes");

  std::vector<std::string> args(argv + 1, argv + argc);
  command.name = "serve";
  if (!args.empty() && !args.front().starts_with("-")) {
    command.name = args.front();
    args.erase(args.begin());
  }
  if (command.name != "serve") {
    return Fail(ErrorCode::kValidationFailed, "unknown command '" + command.name + "'", "command",
                "one of: serve");
  }

  try {
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(serve_options).run(), vm);
    po::store(
        po::parse_environment(
            serve_options, [&](const std::string& env) { return EnvToOption(env, serve_options); }),
        vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::ostringstream usage;
      usage << "usage: contractd [serve] [options]\n" << serve_options;
      command.name = "help";
      command.usage = usage.str();
      return command;
    }
  } catch (const po::error& e) {
    return Fail(ErrorCode::kValidationFailed, e.what());
  }
  if (auto status = ParseListen(serve.listen, serve.server); !status) {
    return std::unexpected(status.error());
  }
  return command;
}

}  // namespace esign::app
