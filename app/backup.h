// `contractd backup`: a consistent copy of a data directory, made while the service runs (through
// the admin socket, by the service's own open databases) or while it does not (by the command
// line, which opens them). The copy is a data directory the service starts from and that
// `contract-ledger verify` accepts (docs/operations.md).
//
// What is copied, and how:
//   db/                  the event store: log, indexes, Merkle ledger, signed tree heads, blobs and
//                        the views, one RocksDB database with column families, so one checkpoint
//                        (eventstore/rocksdb_checkpoint.h) copies them all as of one moment
//   webhook-deliveries/  the delivery records (delivery/delivery_store.h), checkpointed before
//   mail/                the event store, so that they never refer to a position the copied log
//                        lacks; a restored outbox then sends again, at worst, what the source sent
//                        between the two checkpoints
//   every other file     keys, the service certificate, secrets, provider files, the .eml outbox:
//                        copied with their permission bits (0600 stays 0600), synced together at
//                        the end (syncfs)
// Left out: the admin socket and hidden files (a secret being written under a temporary name).
// Another RocksDB database found in the directory is refused rather than copied file by file,
// which would not be consistent.
//
// The copy is assembled beside the target under a hidden name and renamed into place at the end,
// so the target holds either nothing or a complete copy (and cannot be a mount point); nothing is
// ever written to the source's data.
//
// Thread safety: one backup at a time per data directory; the databases may be in use meanwhile.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "delivery/delivery_store.h"
#include "domain/result.h"
#include "eventstore/rocksdb_event_store.h"

namespace esign::app {

// The open databases of a data directory.
struct BackupSources {
  std::filesystem::path data_dir;
  eventstore::RocksEventStore* store = nullptr;  // required
  // The delivery records, <data-dir>/webhook-deliveries, <data-dir>/mail and
  // <data-dir>/provider-notices; null when the directory holds none (one present but not given
  // here fails the backup).
  const delivery::DeliveryStore* webhook_deliveries = nullptr;
  const delivery::DeliveryStore* mail_records = nullptr;
  const delivery::DeliveryStore* provider_notices = nullptr;
};

struct BackupSummary {
  std::filesystem::path target;
  uint64_t events = 0;          // the copied log's size
  uint64_t tree_head_size = 0;  // events covered by the copy's newest signed tree head
  std::vector<std::string> databases;
  size_t files = 0;  // files copied besides the databases
  std::chrono::milliseconds duration{0};
};

// kValidationFailed unless `data_dir` holds an event store (db/ and ledger-key.pem).
Status CheckIsDataDirectory(const std::filesystem::path& data_dir);

// kValidationFailed unless `target` is absent or an empty directory, outside `data_dir`.
Status CheckBackupTarget(const std::filesystem::path& data_dir,
                         const std::filesystem::path& target);

// Copies the data directory to `target` (an absolute path).
Result<BackupSummary> BackUp(const BackupSources& sources, const std::filesystem::path& target);

// BackUp for a data directory no service holds: opens its delivery records itself. `store` is the
// directory's store, opened by the caller.
Result<BackupSummary> BackUpStopped(const std::filesystem::path& data_dir,
                                    eventstore::RocksEventStore& store,
                                    const std::filesystem::path& target);

// {"backup","events","lastPosition","treeHeadSize","databases","files","durationMs"};
// lastPosition is null for an empty log.
boost::json::object BackupSummaryJson(const BackupSummary& summary);

}  // namespace esign::app
