// contractd: the contract signing service.
#include <csignal>
#include <iostream>

#include <pthread.h>

#include "app/cli_runner.h"
#include "app/config.h"
#include "app/dispatcher_process.h"
#include "app/private_data_directory.h"
#include "app/service.h"
#include "webhooks/endpoint.h"

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
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
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
  if (command->name == "providers add")
    return esign::app::RunProvidersAdd(*command, std::cout, std::cerr);
  if (command->name == "dispatcher") {
    return esign::app::RunDispatcher(command->dispatcher, stop_signals, std::cerr);
  }
  if (command->name != "serve") {
    // An administrative command is short: Ctrl-C simply ends it (an append is atomic).
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
    return esign::app::RunAdminCommand(*command, std::cout, std::cerr);
  }

  auto service = esign::app::Service::Start(command->serve);
  if (!service) {
    std::cerr << "contractd: " << service.error().message << "\n";
    return 1;
  }
  std::cerr << "contractd: listening on http://" << command->serve.server.host << ":"
            << (*service)->port() << " (data directory " << command->serve.data_dir << ")"
            << std::endl;
  const esign::app::ServeConfig& serve = command->serve;
  if (serve.public_base_url.empty() && !IsLoopbackHost(serve.server.host)) {
    std::cerr << "contractd: warning: listening beyond loopback without --public-url: signing "
                 "links name http://"
              << serve.server.host << ":" << (*service)->port()
              << "; give --public-url with the origin signers reach" << std::endl;
  }

  int signal = 0;
  sigwait(&stop_signals, &signal);
  std::cerr << "contractd: " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << " received, stopping"
            << std::endl;
  (*service)->Stop();
  std::cerr << "contractd: stopped" << std::endl;
  return 0;
}
