// contract-ledger: the auditor's offline tool over a data directory of contractd (or a copy).
// Subcommands, exit codes and formats: docs/ledger-tool.md.
#include <iostream>
#include <string>
#include <vector>

#include "app/ledger_commands.h"
#include "app/ledger_options.h"
#include "app/private_data_directory.h"

int main(int argc, char** argv) {
  esign::app::RestrictNewFilesToOwner();  // exports and copies hold what the data directory does
  std::ios::sync_with_stdio(false);
  const std::vector<std::string> args(argv + 1, argv + argc);
  esign::Result<esign::app::LedgerCommand> command = esign::app::ParseLedgerCommand(args);
  if (!command) {
    std::cerr << "contract-ledger: " << command.error().message << "\n\n"
              << esign::app::LedgerUsage();
    return esign::app::kLedgerUsage;
  }
  return esign::app::RunLedgerCommand(*command, std::cout, std::cerr);
}
