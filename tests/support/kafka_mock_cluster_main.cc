// kafka-mock-cluster: librdkafka's mock cluster as a process of its own, for tests that need a
// Kafka cluster outside the service's process (a writer and a standby sharing one, a cluster
// that outlives a killed writer). It prints one line, "bootstrap <host:port,...>", once the
// brokers listen (on stderr), and serves until SIGTERM or SIGINT. Everything is kept in memory.
//   kafka-mock-cluster [--brokers N (1..3, default 3)] [--partitions P (default 1)] [TOPIC...]
#include <pthread.h>
#include <csignal>
#include <cstdlib>

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "webhooks/embedded_kafka.h"

int main(int argc, char** argv) {
  esign::webhooks::EmbeddedKafkaOptions options{.topics = {}, .partitions = 1, .brokers = 3};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if ((arg == "--brokers" || arg == "--partitions") && i + 1 < argc) {
      const int value = std::atoi(argv[++i]);
      (arg == "--brokers" ? options.brokers : options.partitions) = value;
    } else {
      options.topics.emplace_back(arg);
    }
  }
  if (options.brokers < 1 || options.brokers > 3 || options.partitions < 1) {
    std::cerr << "usage: kafka-mock-cluster [--brokers 1..3] [--partitions P] [TOPIC...]\n";
    return 2;
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  // Blocked before the cluster's threads start, so only sigwait below receives them.
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  auto kafka = esign::webhooks::EmbeddedKafka::Start(options);
  if (!kafka) {
    std::cerr << "kafka-mock-cluster: " << kafka.error().message << "\n";
    return 1;
  }
  std::cerr << "bootstrap " << (*kafka)->bootstraps() << std::endl;
  int signal = 0;
  sigwait(&stop, &signal);
  return 0;
}
