// contractd: the contract signing service.
#include <csignal>
#include <iostream>

#include <pthread.h>

#include "app/cli_runner.h"
#include "app/config.h"
#include "app/dispatcher_process.h"
#include "app/private_data_directory.h"
#include "app/service.h"
#include "base/build_info.h"
#include "webhooks/endpoint.h"

// jemalloc's settings, read at its start (MALLOC_CONF in the environment still wins): a
// background thread returns freed pages to the system within about a second instead of keeping
// them dirty for ten, so the resident size follows what is in use. Under benchmarks/soak.sh with
// --memory-budget-mb 512 the resident size levelled at 310 to 420 MiB (peak 454) instead of 440
// to 520 (peak 529), creates at 1,934 against 2,061 a second.
extern "C" {
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): the name jemalloc reads
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
}

namespace {

bool IsLoopbackHost(std::string_view host) {
  return host == "localhost" || esign::webhooks::IsLoopbackAddress(host);
}

}  // namespace

int main(int argc, char** argv) {
  esign::app::RestrictNewFilesToOwner();
  // Every thread started from here on inherits the blocked set, so the signals are taken only by
  // the sigwait below and shutdown runs on this thread, not inside a signal handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  // SIGUSR1: the service asks to change its role in the replicated log (service.h).
  sigset_t wait_signals = stop_signals;
  sigaddset(&wait_signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &wait_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  auto command = esign::app::ParseCommandLine(argc, argv);
  if (!command) {
    std::cerr << "contractd: " << command.error().message << "\n";
    return 2;
  }
  if (command->name == "help") {
    std::cout << command->usage;
    return 0;
  }
  if (command->name == "version") {
    std::cout << "contractd " << esign::BuildVersion() << " (commit " << esign::BuildCommit()
              << ")\n";
    return 0;
  }
  if (command->name == "providers add")
    return esign::app::RunProvidersAdd(*command, std::cout, std::cerr);
  if (command->name == "promote") return esign::app::RunPromote(*command, std::cout, std::cerr);
  if (command->name == "dispatcher") {
    return esign::app::RunDispatcher(command->dispatcher, stop_signals, std::cerr);
  }
  if (command->name != "serve") {
    // An administrative command is short: Ctrl-C simply ends it (an append is atomic).
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
    return esign::app::RunAdminCommand(*command, std::cout, std::cerr);
  }

  esign::app::ServeConfig serve = command->serve;
  std::string promotion_failed;
  while (true) {
    auto service = esign::app::Service::Start(serve, promotion_failed);
    if (!service && !serve.standby && serve.replicated && !command->serve.standby) {
      std::cerr << "contractd: " << service.error().message << "\n";
      return 1;
    }
    if (!service && !serve.standby && serve.replicated) {
      // A promotion that lost (another node claimed first, or the cluster did not answer): the
      // node goes on as a standby.
      promotion_failed = service.error().message;
      std::cerr << "contractd: the promotion failed: " << promotion_failed
                << "; serving as a standby again" << std::endl;
      serve.standby = true;
      continue;
    }
    if (!service) {
      std::cerr << "contractd: " << service.error().message << "\n";
      return 1;
    }
    std::cerr << "contractd: listening on http://" << serve.server.host << ":" << (*service)->port()
              << " (data directory " << serve.data_dir << ")" << std::endl;
    if (serve.public_base_url.empty() && !IsLoopbackHost(serve.server.host)) {
      std::cerr << "contractd: warning: listening beyond loopback without --public-url: signing "
                   "links name http://"
                << serve.server.host << ":" << (*service)->port()
                << "; give --public-url with the origin signers reach" << std::endl;
    }

    int signal = 0;
    esign::app::RoleChange change = esign::app::RoleChange::kNone;
    do {
      sigwait(&wait_signals, &signal);
      change = (*service)->role_change();
    } while (signal == SIGUSR1 && change == esign::app::RoleChange::kNone);
    if (signal == SIGUSR1) {
      const bool promote = change == esign::app::RoleChange::kPromote;
      std::cerr << "contractd: " << (promote ? "promoting this standby" : "stepping down")
                << ": stopping, then starting as the " << (promote ? "writer" : "standby")
                << std::endl;
      serve.claim_after_epoch = std::nullopt;
      if (promote) serve.claim_after_epoch = (*service)->log_epoch();
      (*service)->Stop();
      serve.standby = !promote;
      promotion_failed.clear();
      continue;
    }
    std::cerr << "contractd: " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << " received, stopping"
              << std::endl;
    (*service)->Stop();
    std::cerr << "contractd: stopped" << std::endl;
    return 0;
  }
}
