#include "eventstore/wal_files.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace esign::eventstore {
namespace {

// The same directory spelled one way: "db", "db/" and "db/." alike.
std::string NormalDir(const std::string& dir) {
  std::filesystem::path path = std::filesystem::path(dir).lexically_normal();
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();
  return path.string();
}

// RocksDB names its WAL files by number, in the WAL directory: 000042.log.
bool IsWalFile(const std::string& path, const std::string& wal_dir) {
  if (NormalDir(std::filesystem::path(path).parent_path().string()) != wal_dir) return false;
  const std::string name = std::filesystem::path(path).filename().string();
  constexpr std::string_view kSuffix = ".log";
  if (name.size() <= kSuffix.size() || !name.ends_with(kSuffix)) return false;
  return std::all_of(name.begin(), name.end() - kSuffix.size(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

struct WalFiles::Registry {
  explicit Registry(const std::string& dir) : wal_dir(NormalDir(dir)) {}
  const std::string wal_dir;
  std::mutex mutex;
  std::vector<TrackedFile*> open_files;  // guarded by mutex
  bool new_file = false;                 // guarded by mutex: created since the last sync
};

class WalFiles::TrackedFile final : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  TrackedFile(std::unique_ptr<rocksdb::FSWritableFile> file, std::shared_ptr<Registry> registry)
      : FSWritableFileOwnerWrapper(std::move(file)), registry_(std::move(registry)) {
    std::lock_guard lock(registry_->mutex);
    registry_->open_files.push_back(this);
  }
  ~TrackedFile() override { Forget(); }

  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override {
    return Written(target()->Append(data, options, dbg));
  }
  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           const rocksdb::DataVerificationInfo& info,
                           rocksdb::IODebugContext* dbg) override {
    return Written(target()->Append(data, options, info, dbg));
  }
  rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& data, uint64_t offset,
                                     const rocksdb::IOOptions& options,
                                     rocksdb::IODebugContext* dbg) override {
    return Written(target()->PositionedAppend(data, offset, options, dbg));
  }
  rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& data, uint64_t offset,
                                     const rocksdb::IOOptions& options,
                                     const rocksdb::DataVerificationInfo& info,
                                     rocksdb::IODebugContext* dbg) override {
    return Written(target()->PositionedAppend(data, offset, options, info, dbg));
  }
  // A closed file is no longer synced here: RocksDB closes a WAL file at the database's close or
  // once its contents are in table files.
  rocksdb::IOStatus Close(const rocksdb::IOOptions& options,
                          rocksdb::IODebugContext* dbg) override {
    Forget();
    return target()->Close(options, dbg);
  }

  // Called with the registry's mutex held, so Close waits for a sync under way. The flag is taken
  // before the sync and set after each write, so no write that returned before a sync began is
  // left out of it.
  rocksdb::IOStatus SyncIfWritten() {
    if (!written_.exchange(false, std::memory_order_acq_rel)) return rocksdb::IOStatus::OK();
    rocksdb::IOStatus synced = target()->Sync(rocksdb::IOOptions(), nullptr);
    if (!synced.ok()) written_.store(true, std::memory_order_release);
    return synced;
  }

 private:
  rocksdb::IOStatus Written(rocksdb::IOStatus status) {
    written_.store(true, std::memory_order_release);
    return status;
  }
  void Forget() {
    std::lock_guard lock(registry_->mutex);
    std::erase(registry_->open_files, this);
  }

  const std::shared_ptr<Registry> registry_;
  std::atomic<bool> written_{false};
};

class WalFiles::TrackingFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  TrackingFileSystem(const std::shared_ptr<rocksdb::FileSystem>& base,
                     std::shared_ptr<Registry> registry)
      : FileSystemWrapper(base), registry_(std::move(registry)) {}

  static const char* kClassName() { return "WalTrackingFileSystem"; }
  const char* Name() const override { return kClassName(); }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* file,
                                    rocksdb::IODebugContext* dbg) override {
    return Track(name, target()->NewWritableFile(name, options, file, dbg), file);
  }
  rocksdb::IOStatus ReopenWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                       std::unique_ptr<rocksdb::FSWritableFile>* file,
                                       rocksdb::IODebugContext* dbg) override {
    return Track(name, target()->ReopenWritableFile(name, options, file, dbg), file);
  }
  rocksdb::IOStatus ReuseWritableFile(const std::string& name, const std::string& old_name,
                                      const rocksdb::FileOptions& options,
                                      std::unique_ptr<rocksdb::FSWritableFile>* file,
                                      rocksdb::IODebugContext* dbg) override {
    return Track(name, target()->ReuseWritableFile(name, old_name, options, file, dbg), file);
  }

 private:
  rocksdb::IOStatus Track(const std::string& name, rocksdb::IOStatus opened,
                          std::unique_ptr<rocksdb::FSWritableFile>* file) {
    if (!opened.ok() || !IsWalFile(name, registry_->wal_dir)) return opened;
    *file = std::make_unique<TrackedFile>(std::move(*file), registry_);
    std::lock_guard lock(registry_->mutex);
    registry_->new_file = true;
    return opened;
  }

  const std::shared_ptr<Registry> registry_;
};

WalFiles::WalFiles(const std::shared_ptr<rocksdb::FileSystem>& base, const std::string& wal_dir)
    : registry_(std::make_shared<Registry>(wal_dir)),
      file_system_(std::make_shared<TrackingFileSystem>(base, registry_)) {}

WalFiles::~WalFiles() = default;

rocksdb::IOStatus WalFiles::SyncWritten() {
  std::lock_guard lock(registry_->mutex);
  for (TrackedFile* file : registry_->open_files) {
    if (rocksdb::IOStatus synced = file->SyncIfWritten(); !synced.ok()) return synced;
  }
  // A new WAL file is durable only once its directory entry is.
  if (!registry_->new_file) return rocksdb::IOStatus::OK();
  std::unique_ptr<rocksdb::FSDirectory> dir;
  rocksdb::IOStatus synced =
      file_system_->NewDirectory(registry_->wal_dir, rocksdb::IOOptions(), &dir, nullptr);
  if (synced.ok()) synced = dir->Fsync(rocksdb::IOOptions(), nullptr);
  if (synced.ok()) registry_->new_file = false;
  return synced;
}

}  // namespace esign::eventstore
