// What a start checks of a data directory before the service opens its event store for writing:
// a quick look that refuses a damaged log without changing a byte of it. It opens the database
// read-only (no lock, no new files, nothing replayed into it) and checks:
//   - the database opens, and the log and its ledger cover the same events;
//   - the ledger key exists whenever the log holds events or signed tree heads, and so does each
//     of `required_files` once the log holds a stream it serves (a fresh key would make the
//     stored heads or secrets worthless);
//   - the newest signed tree head verifies with the ledger key and equals the root the stored
//     ledger gives for its size;
//   - the stored bytes of the newest `recent_records` events still hash to the ledger's leaves.
// It does not recompute the whole tree from every event: `contract-ledger verify` does, and
// finds a changed event anywhere in the log.
// A torn WAL tail (what a crash during a write leaves) is reported, not refused: see
// StartCheck::torn_wal.
//
// Thread safety: a function of the files it reads; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/result.h"

namespace esign::eventstore {

// A file of the data directory that the records of some streams depend on.
struct RequiredFile {
  std::string name;
  // Required once the log holds a stream whose id starts with this.
  std::string stream_prefix;
};

struct StartCheckOptions {
  // The newest events whose stored bytes are hashed again. Default: 100,000 (about 0.1 s).
  uint64_t recent_records = 100'000;
  std::vector<RequiredFile> required_files;
};

struct StartCheck {
  // No database yet: the start creates one (and its keys).
  bool fresh = false;
  uint64_t size = 0;             // events in the log
  uint64_t records_checked = 0;  // of the newest ones
  // When the WAL ends in a torn or damaged record: RocksDB's account of it. Opening the store
  // for writing drops that tail (kPointInTimeRecovery) and deletes the WAL file after recovery.
  std::optional<std::string> torn_wal;
};

// kCorruption naming the first problem found (and changing nothing); kStorage when the files
// cannot be read.
Result<StartCheck> CheckDataDirectory(const std::string& data_dir,
                                      const StartCheckOptions& options = {});

// Copies every WAL file of <data_dir>/db into a new directory <data_dir>/<name> (mode 0700) so
// that the records a recovery drops stay available; returns its path.
Result<std::string> KeepWalFiles(const std::string& data_dir, const std::string& name);

}  // namespace esign::eventstore
