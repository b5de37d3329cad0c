// EmbeddedKafka: librdkafka's mock cluster, in this process, listening on loopback, for the
// embedded default (no --kafka-brokers). It speaks enough of the protocol for the relay's
// idempotent producer, for consumer groups with committed offsets, and for kcat; it keeps every
// message in memory, so its topic starts empty at every start (the relay then publishes the log
// again from the beginning, see docs/events.md).
// Thread safety: bootstraps() may be called from any thread; destroy it after every client of it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include "domain/result.h"
#include "domain/stream_kinds.h"
#include "webhooks/kafka_config.h"

namespace esign::webhooks {

struct EmbeddedKafkaOptions {
  // Topics created at start, with `partitions` each. Default: contract-events, webhook-endpoints.
  std::vector<std::string> topics{std::string(kContractEventsTopic), std::string(kEndpointsTopic)};
  // Partitions of each topic (also of topics created later by their first use). Default: 4.
  int partitions = 4;
  // Brokers of the cluster; each topic is replicated on all of them (at most 3). Default: 1.
  int brokers = 1;
};

class EmbeddedKafka {
 public:
  static Result<std::unique_ptr<EmbeddedKafka>> Start(const EmbeddedKafkaOptions& options = {});
  ~EmbeddedKafka();
  EmbeddedKafka(const EmbeddedKafka&) = delete;
  EmbeddedKafka& operator=(const EmbeddedKafka&) = delete;

  // "127.0.0.1:PORT": what clients pass as bootstrap.servers.
  const std::string& bootstraps() const { return bootstraps_; }
  // For tests that take the broker down and up again.
  rd_kafka_mock_cluster_t* cluster() const { return cluster_; }

 private:
  EmbeddedKafka() = default;
  KafkaHandle host_;  // the client whose threads run the mock cluster
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
  std::string bootstraps_;
};

}  // namespace esign::webhooks
