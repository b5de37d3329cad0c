// The RocksDB configuration of the event store: its column families and their tuning. Kept apart
// so that tools opening the database directly use the same families.
#pragma once

#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/options.h>

namespace esign::eventstore {

struct RocksStoreOptions;

namespace family {
inline constexpr char kEvents[] = "events";
inline constexpr char kStreams[] = "streams";
inline constexpr char kEventIds[] = "event_ids";
inline constexpr char kLedgerNodes[] = "ledger_nodes";
inline constexpr char kTreeHeads[] = "tree_heads";
inline constexpr char kBlobs[] = "blobs";
inline constexpr char kProjections[] = "projections";
inline constexpr char kCheckpoints[] = "checkpoints";
}  // namespace family

// Every family, the default one first (RocksDB requires it; the store leaves it empty).
std::vector<std::string> StoreFamilyNames();

rocksdb::DBOptions StoreDBOptions(const RocksStoreOptions& options);
// The families an open with `options` opens: every one, or a subset for a read-only open with
// log_and_ledger_only. In StoreFamilyNames() order, the default family first.
std::vector<std::string> OpenedFamilyNames(const RocksStoreOptions& options);
// One descriptor per OpenedFamilyNames() entry, in that order.
std::vector<rocksdb::ColumnFamilyDescriptor> StoreFamilies(const RocksStoreOptions& options);

}  // namespace esign::eventstore
