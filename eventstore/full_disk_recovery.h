// How a RocksDB database of the data directory comes back from a full disk without a restart.
//
// A write that finds the disk full fails with NoSpace before anything of it is applied, and
// RocksDB then refuses every write (a background error) until a recovery flushes the memtables to
// new files. RocksDB's own recovery (its SstFileManager) waits for free space of a whole write
// buffer (64 MiB by default) before it tries, and while it waits a manual Resume() is refused, so
// a small disk would never recover. FullDiskRecovery turns that one off (its listener) and asks for
// a recovery by hand, before a write, at most once per interval and only once a few MiB are free,
// so that the recovery's flush of the memtables (small next to that margin: each write is in the
// WAL already, and the flush writes them compressed) does not run out of space again at once.
// RocksDB's own log lines must not go to a file on the same disk (rocksdb_log.h).
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include <rocksdb/db.h>
#include <rocksdb/listener.h>

namespace esign::eventstore {

class FullDiskRecovery {
 public:
  static constexpr auto kResumeInterval = std::chrono::seconds(1);
  static constexpr uint64_t kResumeMinFreeBytes = uint64_t{2} << 20;

  // `db_dir`: the database's directory, whose filesystem's free space is looked at.
  explicit FullDiskRecovery(std::string db_dir);

  // To add to the database's options before it opens: marks the disk full whoever's write (or
  // flush) found it so, and keeps RocksDB's own recovery off for a full disk.
  std::shared_ptr<rocksdb::EventListener> MakeListener();

  // Before a write: when the disk was found full, asks RocksDB to resume, at most once per
  // kResumeInterval and only with kResumeMinFreeBytes free. The write that follows tells whether
  // it worked (it fails fast while RocksDB still refuses writes).
  void BeforeWrite(rocksdb::DB& db) const;
  // After a write: a NoSpace marks the disk full, a success marks it writable again.
  void AfterWrite(const rocksdb::Status& status);

  bool out_of_space() const { return out_of_space_.load(std::memory_order_acquire); }

 private:
  class NoSpaceListener;

  const std::string db_dir_;
  std::atomic<bool> out_of_space_{false};
  mutable std::mutex resume_mutex_;
  mutable std::chrono::steady_clock::time_point last_resume_;  // guarded by resume_mutex_
};

}  // namespace esign::eventstore
