// Where RocksDB's own log lines go: to the process's standard error, warnings and errors only,
// prefixed "rocksdb:", instead of LOG files inside the data directory. A LOG file is a write like
// any other: on a full disk its writer fails, and RocksDB 7.8 as Debian builds it (with
// assertions) aborts the process at the next line it logs (WritableFileWriter,
// sync_without_flush_called_), which a database that recovered from the full disk logs at its
// close. The service's own log (stderr) is where an operator looks anyway.
#pragma once

#include <memory>

#include <rocksdb/env.h>

namespace esign::eventstore {

// A logger for DBOptions::info_log.
std::shared_ptr<rocksdb::Logger> MakeRocksLog();

}  // namespace esign::eventstore
