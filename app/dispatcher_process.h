// `contractd dispatcher`: a webhook dispatcher outside contractd. Several share the partitions of
// contract-events as members of the consumer group webhook-dispatcher (docs/webhooks.md).
// What contractd holds in its store, this process gets from Kafka and one shared directory:
//   - the endpoints: the topic webhook-endpoints (endpoint_feed.h);
//   - the controlling organization of a contract: in every message of contract-events;
//   - the signing secrets and the Kafka message key (webhooks/message_auth.h): contractd's
//     webhook-secrets directory, read only;
//   - its own delivery records: a RocksDB of its own (--data-dir), each change also written to
//     webhook-deliveries for contractd's deliveries list; disabling an endpoint is a request on
//     the same topic, carried out by contractd.
#pragma once

#include <csignal>
#include <ostream>

#include "app/config.h"

namespace esign::app {

// Runs until one of `stop_signals` arrives (they are blocked in every thread); the exit code.
int RunDispatcher(const DispatcherConfig& config, const sigset_t& stop_signals, std::ostream& err);

}  // namespace esign::app
