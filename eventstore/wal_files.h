// The write-ahead log files of the event store's database, which the store's syncer makes durable
// itself instead of through rocksdb::DB::SyncWAL.
//
// Why: SyncWAL in RocksDB 7.8 meets a WAL file that some write failed on with an assertion, and
// Debian builds RocksDB with assertions on, so the process aborts. A full disk is enough: a view's
// commit refused between an append's write and its sync took contractd down. Yet the appended
// batch is whole in the file, ahead of the record that failed, and an fdatasync makes it durable:
// RocksDB replays a WAL up to its first torn record. So the syncer syncs the files itself: every
// WAL file written since its last sync, and the WAL directory when a WAL file was created since
// (as SyncWAL does for a new file). RocksDB's own syncs (a synced write, a flush) are unchanged.
//
// Thread safety: SyncWritten from one thread at a time; the file system from any.
#pragma once

#include <memory>
#include <string>

#include <rocksdb/file_system.h>
#include <rocksdb/io_status.h>

namespace esign::eventstore {

class WalFiles {
 public:
  // Tracks the WAL files (NNNNNN.log) that RocksDB creates in `wal_dir` (the database's
  // directory) through file_system(), which passes everything else on to `base`. A file of that
  // name elsewhere (a checkpoint's copy of a WAL file) is not the database's.
  WalFiles(const std::shared_ptr<rocksdb::FileSystem>& base, const std::string& wal_dir);
  ~WalFiles();
  WalFiles(const WalFiles&) = delete;
  WalFiles& operator=(const WalFiles&) = delete;

  // For the database's Env (rocksdb::NewCompositeEnv).
  const std::shared_ptr<rocksdb::FileSystem>& file_system() const { return file_system_; }

  // Syncs the data of every WAL file written since the last call, and the directory of any WAL
  // file created since. Every write that returned before the call is durable when it returns OK.
  rocksdb::IOStatus SyncWritten();

 private:
  struct Registry;
  class TrackedFile;
  class TrackingFileSystem;

  std::shared_ptr<Registry> registry_;
  std::shared_ptr<rocksdb::FileSystem> file_system_;
};

}  // namespace esign::eventstore
