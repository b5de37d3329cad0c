// A consistent copy of an open RocksDB database (rocksdb::Checkpoint), for backups: every column
// family as of one moment, the memtables flushed first so the copy needs no WAL replay beyond
// what the checkpoint carries. Files are hard-linked when the target is on the same filesystem,
// copied otherwise. The database keeps serving reads and writes meanwhile.
// Thread safety: safe from any thread while the database is open.
#pragma once

#include <string>

#include <rocksdb/db.h>

#include "domain/result.h"

namespace esign::eventstore {

// Writes the copy to `target_dir`, which must not exist (its parent must). kStorage on failure;
// a partial `target_dir` may then remain for the caller to remove.
Status CheckpointDatabase(rocksdb::DB& db, const std::string& target_dir);

}  // namespace esign::eventstore
