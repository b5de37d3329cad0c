#include "app/cli_store.h"

#include <thread>

namespace esign::app {

bool IsLockedByAnotherProcess(const Error& error) {
  // RocksDB: "IO error: While lock file: <dir>/LOCK: Resource temporarily unavailable".
  return error.message.find("lock file") != std::string::npos ||
         error.message.find("/LOCK") != std::string::npos;
}

Result<std::unique_ptr<eventstore::RocksEventStore>> OpenStoreWaitingForLock(
    const eventstore::RocksStoreOptions& options, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    auto store = eventstore::RocksEventStore::Open(options);
    if (store || !IsLockedByAnotherProcess(store.error()) ||
        std::chrono::steady_clock::now() >= deadline) {
      return store;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace esign::app
