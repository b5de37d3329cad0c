#include "app/ledger_options.h"

#include <sstream>

#include <boost/program_options.hpp>

namespace esign::app {
namespace po = boost::program_options;
namespace {

constexpr char kExitCodes[] =
    "exit codes: 0 ok, 1 verification failed (or nothing to prove), 2 usage error (verify-bundle:\n"
    "also every check passed but no trusted key was given), 3 I/O error\n";

struct Subcommand {
  std::string_view name;
  std::string_view synopsis;
  std::string_view summary;
};

constexpr Subcommand kSubcommands[] = {
    {"verify", "verify --data-dir DIR",
     "recompute the Merkle tree from the stored events and check every signed tree head"},
    {"replay", "replay --data-dir DIR [--out DIR]",
     "rebuild every projection from the log and compare with the live views"},
    {"export", "export --data-dir DIR [--from N]", "the log as NDJSON on stdout"},
    {"prove", "prove --data-dir DIR CONTRACT_ID",
     "a proof bundle of a contract's events against a stored signed tree head"},
    {"verify-bundle",
     "verify-bundle FILE (--public-key FILE | --public-key-url URL) [--certificate PEM]\n"
     "                [--tsa-ca PEM] [--data-dir DIR]",
     "check a proof bundle, or an evidence bundle, against the service's published ledger key\n"
     "      (without one it says what it checked and exits 2, never 0; with --data-dir, an\n"
     "      evidence bundle's documents against that directory's stored ones)"},
};

}  // namespace

std::string LedgerUsage() {
  std::ostringstream usage;
  usage
      << "usage: contract-ledger SUBCOMMAND [options]   (contract-ledger SUBCOMMAND --help)\n"
      << "Works on a data directory (or a copy) opened read-only; the service may be running.\n\n";
  for (const Subcommand& sub : kSubcommands) {
    usage << "  " << sub.synopsis << "\n      " << sub.summary << "\n";
  }
  usage << "\n" << kExitCodes;
  return usage.str();
}

Result<LedgerCommand> ParseLedgerCommand(const std::vector<std::string>& args) {
  LedgerCommand command;
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.empty()) return Fail(ErrorCode::kValidationFailed, "a subcommand is required");
    command.name = "help";
    command.usage = LedgerUsage();
    return command;
  }
  const Subcommand* sub = nullptr;
  for (const Subcommand& candidate : kSubcommands) {
    if (candidate.name == args[0]) sub = &candidate;
  }
  if (sub == nullptr) {
    return Fail(ErrorCode::kValidationFailed, "unknown subcommand '" + args[0] + "'");
  }
  command.name = std::string(sub->name);

  po::options_description options("options");
  options.add_options()("help,h", "this text");
  po::positional_options_description positional;
  if (command.name == "verify-bundle") {
    options.add_options()("file", po::value(&command.bundle_file), "the bundle (JSON)")(
        "public-key", po::value(&command.public_key),
        "the trusted ledger key: a PEM file, a JWK, or the answer of GET "
        "/api/v1/ledger/public-key; the bundle's key must equal it")(
        "public-key-url", po::value(&command.public_key_url),
        "fetch the trusted key from the service: its URL, or its origin (then "
        "/api/v1/ledger/public-key is appended)")(
        "certificate", po::value(&command.certificate),
        "evidence bundles: PEM file of the service's signing certificate; the bundle's must "
        "equal it, and it must have made every PDF signature")(
        "tsa-ca", po::value(&command.tsa_ca),
        "PEM file of the timestamp authority's CA: every timestamp (the tree head's, each seal's) "
        "must chain to it")(
        "data-dir", po::value(&command.data_dir),
        "evidence bundles: check the documents against this data directory's stored ones");
    positional.add("file", 1);
  } else {
    options.add_options()("data-dir", po::value(&command.data_dir),
                          "the service's data directory (or a copy)");
    if (command.name == "replay") {
      options.add_options()("out", po::value(&command.out_dir),
                            "build the fresh views in a new RocksDB here (default: in memory)");
    } else if (command.name == "export") {
      options.add_options()("from", po::value(&command.from), "first position (default 0)");
    } else if (command.name == "prove") {
      options.add_options()("contract-id", po::value(&command.contract_id), "the contract");
      positional.add("contract-id", 1);
    }
  }
  po::variables_map vm;
  try {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    po::store(po::command_line_parser(rest).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Fail(ErrorCode::kValidationFailed, e.what());
  }
  if (vm.count("help") != 0) {
    std::ostringstream usage;
    usage << "usage: contract-ledger " << sub->synopsis << "\n"
          << sub->summary << "\n\n"
          << options << "\n"
          << kExitCodes;
    command.name = "help";
    command.usage = usage.str();
    return command;
  }
  if (command.name == "verify-bundle") {
    if (command.bundle_file.empty()) {
      return Fail(ErrorCode::kValidationFailed, "verify-bundle needs a bundle FILE");
    }
    if (!command.public_key.empty() && !command.public_key_url.empty()) {
      return Fail(ErrorCode::kValidationFailed,
                  "give the trusted key once: --public-key or --public-key-url");
    }
    return command;
  }
  if (command.data_dir.empty()) {
    return Fail(ErrorCode::kValidationFailed, command.name + " needs --data-dir");
  }
  if (command.name == "prove" && command.contract_id.empty()) {
    return Fail(ErrorCode::kValidationFailed, "prove needs a CONTRACT_ID");
  }
  return command;
}

}  // namespace esign::app
