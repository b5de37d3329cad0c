#include "app/backup.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <system_error>

#include "app/admin_socket.h"
#include "domain/id_generator.h"
#include "eventstore/rocksdb_checkpoint.h"
#include "eventstore/secret_file.h"

namespace esign::app {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStoreDirName = "db";
constexpr std::string_view kLedgerKeyName = "ledger-key.pem";

// The delivery records a data directory may hold; the mail records and the provider notices are
// outboxes (they keep their indexes).
struct RecordDatabase {
  std::string_view name;
  bool outbox;
  const delivery::DeliveryStore* BackupSources::*source;
};
constexpr RecordDatabase kRecordDatabases[] = {
    {"webhook-deliveries", false, &BackupSources::webhook_deliveries},
    {"mail", true, &BackupSources::mail_records},
    {"provider-notices", true, &BackupSources::provider_notices}};

std::unexpected<Error> FsError(const std::string& what, const fs::path& path,
                               const std::error_code& ec) {
  return Fail(ErrorCode::kStorage, what + " " + path.string() + ": " + ec.message());
}

// An absolute path with symbolic links resolved as far as it exists, and no trailing separator.
fs::path Resolved(const fs::path& path, std::error_code& ec) {
  fs::path resolved = fs::weakly_canonical(fs::absolute(path), ec);
  if (!resolved.has_filename() && resolved.has_relative_path()) resolved = resolved.parent_path();
  return resolved;
}

bool LooksLikeRocksDb(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "CURRENT", ec) && fs::is_regular_file(dir / "IDENTITY", ec);
}

Status MakePrivateDirectory(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return Fail(ErrorCode::kStorage, "cannot create " + dir.string() + ": " + std::strerror(errno));
  }
  return {};
}

// Copies the tree under `from` into `to` (which exists): files with their owner's permission bits
// only, directories 0700, symbolic links as links. `skip` names top-level entries copied
// otherwise (the databases). Counts the files copied into `files`.
Status CopyTree(const fs::path& from, const fs::path& to, const std::vector<std::string>& skip,
                size_t& files) {
  std::error_code ec;
  for (fs::directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& source = it->path();
    const std::string name = source.filename().string();
    if (name.starts_with(".") || std::ranges::find(skip, name) != skip.end()) continue;
    const fs::path target = to / name;
    const fs::file_status status = it->symlink_status(ec);
    if (ec) return FsError("cannot read", source, ec);
    if (fs::is_symlink(status)) {
      fs::copy_symlink(source, target, ec);
      if (ec) return FsError("cannot copy the link", source, ec);
    } else if (fs::is_directory(status)) {
      if (LooksLikeRocksDb(source)) {
        return Fail(ErrorCode::kStorage,
                    "the data directory holds a database the backup does not know: " +
                        source.string() + " (a file-by-file copy would not be consistent)");
      }
      // Owner-only until filled: the final mode may let others list what is being copied.
      if (Status made = MakePrivateDirectory(target); !made) return made;
      if (Status copied = CopyTree(source, target, {}, files); !copied) return copied;
    } else if (fs::is_regular_file(status)) {
      auto bytes = eventstore::ReadFileIfPresent(source.string());
      if (!bytes) return Fail(bytes.error());
      if (!*bytes) continue;  // removed meanwhile
      // Synced all at once at the end (SyncFilesystem): one fsync per file costs minutes for
      // an outbox of many .eml files.
      // Owner-only, whatever the source's mode: a copy is as private as the data directory.
      if (Status written = eventstore::WriteNewFile(
              target.string(), **bytes, static_cast<unsigned>(status.permissions()) & 0700U,
              eventstore::FileSync::kByCaller);
          !written) {
        return written;
      }
      ++files;
    }
    // Sockets (admin.sock) and other special files are no data.
  }
  if (ec) return FsError("cannot list", from, ec);
  return {};
}

// Writes out every file and directory of the filesystem `dir` lies on (syncfs(2)).
Status SyncFilesystem(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || ::syncfs(fd) != 0) {
    const std::string error = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return Fail(ErrorCode::kStorage, "cannot sync " + dir.string() + ": " + error);
  }
  ::close(fd);
  return {};
}

// Removes the hidden directory a backup is assembled in unless it was renamed into place.
class Staging {
 public:
  explicit Staging(fs::path path) : path_(std::move(path)) {}
  ~Staging() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  const fs::path& path() const { return path_; }
  void Release() { path_.clear(); }

 private:
  fs::path path_;
};

// What the copy holds, read back from it as the auditor's tool would.
Status Describe(const fs::path& copy, BackupSummary& summary) {
  eventstore::RocksStoreOptions options;
  options.data_dir = copy.string();
  options.read_only = true;
  options.block_cache_bytes = size_t{8} << 20;
  auto store = eventstore::RocksEventStore::Open(options);
  if (!store) {
    return Fail(store.error().code, "the copy does not open: " + store.error().message);
  }
  summary.events = (*store)->Size();
  auto heads = (*store)->ledger().TreeHeads();
  if (!heads) return Fail(heads.error());
  summary.tree_head_size = heads->empty() ? 0 : heads->back().size;
  return {};
}

}  // namespace

Status CheckIsDataDirectory(const fs::path& data_dir) {
  std::error_code ec;
  if (!fs::is_directory(data_dir / kStoreDirName, ec) ||
      !fs::is_regular_file(data_dir / kLedgerKeyName, ec)) {
    return Fail(ErrorCode::kValidationFailed,
                "not a data directory: " + data_dir.string() + " (it must hold db/ and " +
                    std::string(kLedgerKeyName) + ")",
                "data-dir", data_dir.string());
  }
  return {};
}

Status CheckBackupTarget(const fs::path& data_dir, const fs::path& target) {
  std::error_code ec;
  const fs::path source = Resolved(data_dir, ec);
  if (ec) return FsError("cannot resolve", data_dir, ec);
  const fs::path copy = Resolved(target, ec);
  if (ec) return FsError("cannot resolve", target, ec);
  if (std::mismatch(source.begin(), source.end(), copy.begin(), copy.end()).first == source.end()) {
    return Fail(ErrorCode::kValidationFailed,
                "the backup target " + target.string() + " lies inside the data directory", "to",
                target.string());
  }
  if (!fs::exists(copy, ec)) return {};
  if (!fs::is_directory(copy, ec) || !fs::is_empty(copy, ec)) {
    return Fail(ErrorCode::kValidationFailed,
                "the backup target " + target.string() + " exists and is not an empty directory",
                "to", target.string());
  }
  return {};
}

Result<BackupSummary> BackUp(const BackupSources& sources, const fs::path& given_target) {
  const auto started = std::chrono::steady_clock::now();
  if (sources.store == nullptr) return Fail(ErrorCode::kInternal, "no event store to back up");
  if (!given_target.is_absolute()) {
    return Fail(ErrorCode::kValidationFailed, "the backup target must be an absolute path", "to",
                given_target.string());
  }
  if (Status checked = CheckBackupTarget(sources.data_dir, given_target); !checked) {
    return Fail(checked.error());
  }
  std::error_code ec;
  const fs::path target = Resolved(given_target, ec);
  if (ec) return FsError("cannot resolve", given_target, ec);
  for (const auto& known : kRecordDatabases) {
    if (sources.*known.source == nullptr && LooksLikeRocksDb(sources.data_dir / known.name)) {
      return Fail(ErrorCode::kInternal, "the records in " +
                                            (sources.data_dir / known.name).string() +
                                            " are not open for the backup");
    }
  }

  const fs::path parent = target.parent_path();
  fs::create_directories(parent, ec);
  if (ec) return FsError("cannot create", parent, ec);
  // Beside the target, so that the final rename stays on one filesystem.
  Staging staging(parent / ("." + target.filename().string() + ".incomplete-" +
                            RandomIdGenerator::Instance().Next("").substr(10)));
  if (Status made = MakePrivateDirectory(staging.path()); !made) return Fail(made.error());

  // The records first: the log copied after them covers every position they name.
  std::vector<std::string> databases;
  for (const auto& known : kRecordDatabases) {
    const delivery::DeliveryStore* records = sources.*known.source;
    if (records == nullptr) continue;
    if (Status copied = records->CopyTo((staging.path() / known.name).string()); !copied) {
      return Fail(copied.error());
    }
    databases.emplace_back(known.name);
  }
  if (Status copied = eventstore::CheckpointDatabase(*sources.store->db(),
                                                     (staging.path() / kStoreDirName).string());
      !copied) {
    return Fail(copied.error());
  }
  databases.emplace_back(kStoreDirName);

  BackupSummary summary;
  std::vector<std::string> skip = databases;
  skip.emplace_back(kAdminSocketName);
  if (Status copied = CopyTree(sources.data_dir, staging.path(), skip, summary.files); !copied) {
    return Fail(copied.error());
  }
  if (Status described = Describe(staging.path(), summary); !described) {
    return Fail(described.error());
  }
  // The copy stays 0700 (MakePrivateDirectory): it holds what the data directory does.
  if (Status synced = SyncFilesystem(staging.path()); !synced) return Fail(synced.error());
  // rename(2) replaces an empty directory, and only an empty one.
  fs::rename(staging.path(), target, ec);
  if (ec == std::errc::device_or_resource_busy || ec == std::errc::cross_device_link) {
    return Fail(ErrorCode::kStorage, "cannot move the copy to " + target.string() +
                                         ", which is a mount point: name a directory below it");
  }
  if (ec) return FsError("cannot move the copy to", target, ec);
  staging.Release();
  if (Status synced = eventstore::SyncDirectory(parent.string()); !synced) {
    return Fail(synced.error());
  }
  summary.target = target;
  summary.databases = std::move(databases);
  summary.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  return summary;
}

Result<BackupSummary> BackUpStopped(const fs::path& data_dir, eventstore::RocksEventStore& store,
                                    const fs::path& target) {
  std::vector<std::unique_ptr<delivery::DeliveryStore>> opened;
  BackupSources sources{.data_dir = data_dir, .store = &store};
  for (const auto& known : kRecordDatabases) {
    // Opening creates a missing database: only one that exists is opened.
    if (!LooksLikeRocksDb(data_dir / known.name)) continue;
    auto records = delivery::DeliveryStore::Open(data_dir.string(), known.name, known.outbox);
    if (!records) return Fail(records.error());
    sources.*known.source = records->get();
    opened.push_back(std::move(*records));
  }
  return BackUp(sources, target);
}

boost::json::object BackupSummaryJson(const BackupSummary& summary) {
  boost::json::array databases;
  for (const auto& name : summary.databases) databases.emplace_back(name);
  boost::json::value last = nullptr;
  if (summary.events > 0) last = summary.events - 1;
  return boost::json::object{
      {"backup", summary.target.string()},      {"events", summary.events},
      {"lastPosition", std::move(last)},        {"treeHeadSize", summary.tree_head_size},
      {"databases", std::move(databases)},      {"files", summary.files},
      {"durationMs", summary.duration.count()},
  };
}

}  // namespace esign::app
