// The events an end-to-end test wrote, kept for the schema check. When ESIGN_EVENT_SAMPLES_DIR is
// set (CTest sets it for the end-to-end tests), a test's log is written there as NDJSON of
// canonical records before its data directory is removed, and so are the Kafka messages the
// tests read; tests/openapi/event_schemas_check.mjs then validates every event against the
// published schemas (GET /api/v1/events/schemas).
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <boost/json.hpp>
#include <vector>

#include "eventstore/rocksdb_event_store.h"

namespace esign::testing {

// A file of its own in the samples directory, or nothing when samples are not kept.
inline std::ofstream SamplesFile(std::string_view kind) {
  const char* samples_dir = std::getenv("ESIGN_EVENT_SAMPLES_DIR");
  if (samples_dir == nullptr) return {};
  static std::atomic<int> counter{0};
  std::error_code ec;
  std::filesystem::create_directories(samples_dir, ec);
  return std::ofstream(std::filesystem::path(samples_dir) /
                       (std::to_string(::getpid()) + "-" + std::to_string(++counter) + "." +
                        std::string(kind) + ".ndjson"));
}

// Messages read from the Kafka topic, one JSON object each.
inline void KeepKafkaSamples(const std::vector<boost::json::object>& messages) {
  std::ofstream out = SamplesFile("kafka");
  if (!out.is_open()) return;
  for (const auto& message : messages) out << boost::json::serialize(message) << '\n';
}

inline void KeepEventSamples(const std::filesystem::path& data_dir) {
  std::error_code ec;
  if (std::getenv("ESIGN_EVENT_SAMPLES_DIR") == nullptr ||
      !std::filesystem::is_directory(data_dir, ec)) {
    return;
  }
  eventstore::RocksStoreOptions options;
  options.data_dir = data_dir.string();
  options.read_only = true;
  options.log_and_ledger_only = true;
  auto store = eventstore::RocksEventStore::Open(options);
  if (!store) return;  // not a data directory of contractd (a test of refused starts)
  std::ofstream out = SamplesFile("log");
  for (uint64_t position = 0; position < (*store)->Size(); ++position) {
    auto raw = (*store)->ReadRaw(GlobalPosition(position));
    if (raw) out << *raw << '\n';
  }
}

}  // namespace esign::testing
