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
  // verify-bundle without a trusted key: every check passed, but only with the key the bundle
  // carries, which anyone re-signing it could have put there (DESIGN 24). Never 0.
  kLedgerUntrusted = 2,
  kLedgerIoError = 3,
};

struct LedgerCommand {
  // "verify", "replay", "export", "prove", "verify-bundle", or "help" (usage holds the text).
  std::string name;
  std::string data_dir;        // verify-bundle: optional, for an evidence bundle's documents
  std::string out_dir;         // replay: where the fresh views go; empty: in memory
  uint64_t from = 0;           // export: the first position
  std::string contract_id;     // prove
  std::string bundle_file;     // verify-bundle
  std::string public_key;      // verify-bundle: the trusted key's file (PEM or JWK); optional
  std::string public_key_url;  // verify-bundle: the service to fetch the trusted key from
  std::string certificate;     // verify-bundle: the service's signing certificate (PEM); optional
  std::string tsa_ca;          // verify-bundle: the CA timestamps must chain to (PEM); optional
  std::string usage;
};

// `args` excludes the program name. kValidationFailed (exit 2) for an unknown subcommand, a
// missing required argument or an unknown option.
Result<LedgerCommand> ParseLedgerCommand(const std::vector<std::string>& args);

// The general usage text: subcommands and exit codes.
std::string LedgerUsage();

}  // namespace esign::app
