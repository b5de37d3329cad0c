// Runs a shell command for the tests that check the service with outside tools (pdfsig, qpdf,
// kcat, node, curl, the ledger tool): its standard output and exit status. Append " 2>&1" to the
// command to capture standard error as well.
#pragma once

#include <string>

namespace esign::testing {

struct ShellResult {
  int exit_code = -1;  // -1 when the command could not run or did not exit normally
  std::string out;
};

ShellResult RunShell(const std::string& command);

}  // namespace esign::testing
