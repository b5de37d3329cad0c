// The subcommands of contract-ledger, the auditor's offline tool (docs/ledger-tool.md). Each opens
// the data directory's event store read-only (no lock: the service may keep running, and nothing
// is ever written to it), writes its findings to `out` and its diagnostics to `err`, and returns
// the exit code (LedgerExit in ledger_options.h).
// Thread safety: each call runs on the caller's thread and shares nothing with another call.
#pragma once

#include <ostream>

#include "app/ledger_options.h"

namespace esign::app {

int RunLedgerCommand(const LedgerCommand& command, std::ostream& out, std::ostream& err);

}  // namespace esign::app
