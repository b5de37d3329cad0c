// Opening the data directory's store when another process may hold it. RocksDB admits one process
// per database (its LOCK file); contractd and its command line take turns: the command line holds
// the store only for one short command, and whoever finds it locked waits for it rather than
// failing at once.
// Thread safety: safe from any thread.
#pragma once

#include <chrono>
#include <memory>

#include "domain/result.h"
#include "eventstore/rocksdb_event_store.h"

namespace esign::app {

// True for the error RocksDB reports when another process holds the database.
bool IsLockedByAnotherProcess(const Error& error);

// RocksEventStore::Open, retried every 100 ms while another process holds the database, until
// `wait` has passed; then that error.
Result<std::unique_ptr<eventstore::RocksEventStore>> OpenStoreWaitingForLock(
    const eventstore::RocksStoreOptions& options, std::chrono::milliseconds wait);

}  // namespace esign::app
