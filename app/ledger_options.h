// The command line of contract-ledger, the auditor's offline tool: which subcommand, on which
// data directory, with which arguments. Parsing only; ledger_commands.h runs the command.
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/result.h"

namespace esign::app {

// The tool's exit codes, documented in --help and docs/ledger-tool.md.
enum LedgerExit : int {
  kLedgerOk = 0,
  kLedgerVerificationFailed = 1,
  kLedgerUsage = 2,
  kLedgerIoError = 3,
};

struct LedgerCommand {
  // "verify", "replay", "export", "prove", "verify-bundle", or "help" (usage holds the text).
  std::string name;
  std::string data_dir;     // verify-bundle: optional, for an evidence bundle's documents
  std::string out_dir;      // replay: where the fresh views go; empty: in memory
  uint64_t from = 0;        // export: the first position
  std::string contract_id;  // prove
  std::string bundle_file;  // verify-bundle
  std::string public_key;   // verify-bundle: a PEM file the bundle's key must match; optional
  std::string certificate;  // verify-bundle: the service's signing certificate (PEM); optional
  std::string tsa_ca;       // verify-bundle: the CA timestamps must chain to (PEM); optional
  std::string usage;
};

// `args` excludes the program name. kValidationFailed (exit 2) for an unknown subcommand, a
// missing required argument or an unknown option.
Result<LedgerCommand> ParseLedgerCommand(const std::vector<std::string>& args);

// The general usage text: subcommands and exit codes.
std::string LedgerUsage();

}  // namespace esign::app
