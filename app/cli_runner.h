// The administrative command line: `contractd clients create`, `templates import`,
// `organizations set` and `backup`.
// A command works whether or not a service runs on the data directory: it first hands its
// request to a running service through <data-dir>/admin.sock; when no server answers there (no
// socket, or a stale one), it opens the store itself, runs the same command code
// (cli_commands.h) and closes the store again. While the database is locked by a service that
// is starting or stopping, it keeps trying both ways for a while.
//
// Output: one JSON line per result on `out`; errors on `err`. Exit codes: 0 success, 2 usage or
// validation error, 1 any other failure.
// Thread safety: one command at a time per process.
#pragma once

#include <chrono>
#include <ostream>

#include "app/config.h"

namespace esign::app {

struct CliOptions {
  // How long to keep trying while the database is locked and no server answers. Default: 30 s.
  std::chrono::milliseconds lock_wait{30'000};
  // How long to wait for a server's answer on the admin socket. Default: 120 s.
  std::chrono::milliseconds answer_wait{120'000};
  // The same for `backup`, which copies the whole data directory. Default: 1 h.
  std::chrono::milliseconds backup_answer_wait{3'600'000};
};

// `providers add`: installs the provider's file (no server involved); prints {providerId,
// startUrl} as JSON. Exit codes as for the other commands.
int RunProvidersAdd(const Command& command, std::ostream& out, std::ostream& err);

// `promote`: asks the standby serving the data directory to take over the replicated log, then
// waits (at most 60 s) until it writes; prints its replication status as JSON. Exit code 1 when
// no standby runs there or another node won the claim.
int RunPromote(const Command& command, std::ostream& out, std::ostream& err);

int RunAdminCommand(const Command& command, std::ostream& out, std::ostream& err,
                    const CliOptions& options = {});

}  // namespace esign::app
