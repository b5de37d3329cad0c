#include "eventstore/start_check.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_options.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"

namespace esign::eventstore {
namespace {

namespace fs = std::filesystem;

constexpr char kLedgerKeyFile[] = "ledger-key.pem";

// Every read-only open of the check: no ledger node is cached (none is read twice) and the block
// cache stays small, since the service opens the store again right after.
RocksStoreOptions ReadOnlyOptions(const std::string& data_dir) {
  RocksStoreOptions options;
  options.data_dir = data_dir;
  options.read_only = true;
  options.ledger_cache_min_level = 64;
  options.block_cache_bytes = size_t{8} << 20;
  return options;
}

// Whether the log holds events or heads, read without the ledger key.
Result<bool> HoldsEvidence(const std::string& data_dir) {
  const RocksStoreOptions options = ReadOnlyOptions(data_dir);
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  rocksdb::DB* raw = nullptr;
  const std::string db_dir = (fs::path(data_dir) / "db").string();
  const rocksdb::Status opened = rocksdb::DB::OpenForReadOnly(
      StoreDBOptions(options), db_dir, StoreFamilies(options), &families, &raw);
  if (!opened.ok()) return FailFromRocks(opened, "opening " + db_dir);
  std::unique_ptr<rocksdb::DB> db(raw);
  bool evidence = false;
  const std::vector<std::string> names = StoreFamilyNames();
  rocksdb::Status status;
  for (size_t i = 0; i < names.size() && status.ok(); ++i) {
    if (names[i] != family::kEvents && names[i] != family::kTreeHeads) continue;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), families[i]));
    it->SeekToFirst();
    evidence = evidence || it->Valid();
    status = it->status();
  }
  for (rocksdb::ColumnFamilyHandle* family : families) {
    db->DestroyColumnFamilyHandle(family).PermitUncheckedError();
  }
  if (!status.ok()) return FailFromRocks(status, "reading " + db_dir);
  return evidence;
}

// A WAL that does not read to its end fails the strict open; the lenient one (the store's own
// recovery) then tells whether the log up to the damage opens. The torn WAL's account, if any.
Result<std::unique_ptr<RocksEventStore>> OpenReadOnly(const std::string& data_dir,
                                                      std::optional<std::string>& torn_wal) {
  RocksStoreOptions options = ReadOnlyOptions(data_dir);
  options.strict_wal = true;
  Result<std::unique_ptr<RocksEventStore>> strict = RocksEventStore::Open(options);
  if (strict || strict.error().code != ErrorCode::kCorruption) return strict;
  Result<std::unique_ptr<RocksEventStore>> lenient =
      RocksEventStore::Open(ReadOnlyOptions(data_dir));
  if (lenient) torn_wal = strict.error().message;
  return lenient;
}

std::unexpected<Error> Damaged(std::string what) {
  return Fail(ErrorCode::kCorruption, std::move(what));
}

Status CheckNewestHead(RocksEventStore& store, const std::string& key_path) {
  Result<std::vector<SignedTreeHead>> heads = store.ledger().TreeHeads();
  if (!heads) return Fail(heads.error());
  if (heads->empty()) return {};
  const SignedTreeHead& newest = heads->back();
  const std::string name = "the newest signed tree head (size " + std::to_string(newest.size) + ")";
  if (!VerifyTreeHead(newest, store.ledger().PublicKeyPem())) {
    return Damaged(name + " does not verify with " + key_path);
  }
  Result<Hash> root = store.ledger().Root(newest.size);
  if (!root)
    return Damaged("the ledger cannot give the root " + name + " signed: " + root.error().message);
  if (*root != newest.root) return Damaged("the ledger's root differs from " + name);
  return {};
}

// Walks the events and the level-0 ledger nodes side by side from `first`.
Result<uint64_t> CheckRecentRecords(RocksEventStore& store, uint64_t recent) {
  const uint64_t size = store.Size();
  const uint64_t first = size > recent ? size - recent : 0;
  rocksdb::DB& db = *store.db();
  std::unique_ptr<rocksdb::Iterator> events(
      db.NewIterator(rocksdb::ReadOptions(), store.Family(family::kEvents)));
  std::unique_ptr<rocksdb::Iterator> leaves(
      db.NewIterator(rocksdb::ReadOptions(), store.Family(family::kLedgerNodes)));
  const U64Key first_event = EncodeU64(first);
  const NodeKey first_leaf = EncodeNodeKey(NodeId{0, first});
  events->Seek(rocksdb::Slice(first_event.data(), first_event.size()));
  leaves->Seek(rocksdb::Slice(first_leaf.data(), first_leaf.size()));
  for (uint64_t position = first; position < size; ++position, events->Next(), leaves->Next()) {
    const std::string at = "the event log is damaged at position " + std::to_string(position);
    if (!events->Valid() || DecodeU64(events->key().ToStringView()) != position) {
      if (!events->status().ok()) return FailFromRocks(events->status(), "reading the log");
      return Damaged(at + ": the event is missing");
    }
    if (!leaves->Valid() || DecodeNodeKey(leaves->key().ToStringView()) != NodeId{0, position}) {
      if (!leaves->status().ok()) return FailFromRocks(leaves->status(), "reading the ledger");
      return Damaged(at + ": its ledger leaf is missing");
    }
    const std::optional<Hash> leaf = DecodeNodeHash(leaves->value().ToStringView());
    if (!leaf) return Damaged(at + ": its ledger leaf is not 32 bytes");
    if (LeafHash(events->value().ToStringView()) != *leaf) {
      return Damaged(at + ": its stored bytes no longer hash to the ledger's leaf");
    }
  }
  return size - first;
}

Result<bool> HoldsStream(RocksEventStore& store, const std::string& prefix) {
  rocksdb::ReadOptions read;
  read.total_order_seek = true;  // a bare prefix is outside the family's prefix extractor
  std::unique_ptr<rocksdb::Iterator> it(
      store.db()->NewIterator(read, store.Family(family::kStreams)));
  it->Seek(prefix);
  if (!it->status().ok()) return FailFromRocks(it->status(), "reading the streams");
  return it->Valid() && it->key().starts_with(prefix);
}

Status SyncFile(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  if (!synced) return Fail(ErrorCode::kStorage, "cannot sync " + path.string());
  return {};
}

}  // namespace

Result<StartCheck> CheckDataDirectory(const std::string& data_dir,
                                      const StartCheckOptions& options) {
  const fs::path dir(data_dir);
  const fs::path db_dir = dir / "db";
  const std::string key_path = (dir / kLedgerKeyFile).string();
  std::error_code error;
  const bool has_key = fs::exists(key_path, error);
  if (!fs::exists(db_dir / "CURRENT", error)) {
    // A log that was never created, or one whose database is gone: only the first may start.
    if (!fs::is_empty(db_dir, error) && !error) {
      return Damaged(db_dir.string() + " holds files but no CURRENT file");
    }
    if (has_key) {
      return Damaged(key_path + " exists but the database " + db_dir.string() + " does not");
    }
    return StartCheck{.fresh = true};
  }

  if (!has_key) {
    Result<bool> evidence = HoldsEvidence(data_dir);
    if (!evidence) return Fail(evidence.error());
    if (*evidence) {
      return Damaged(key_path +
                     " is missing but the log already holds events or signed tree "
                     "heads; a new key would not match them");
    }
    return StartCheck{.fresh = true};
  }

  std::optional<std::string> torn_wal;
  Result<std::unique_ptr<RocksEventStore>> store = OpenReadOnly(data_dir, torn_wal);
  if (!store) return Fail(store.error());
  StartCheck check{.size = (*store)->Size(), .torn_wal = std::move(torn_wal)};
  for (const RequiredFile& file : options.required_files) {
    if (fs::exists(dir / file.name, error)) continue;
    Result<bool> needed = HoldsStream(**store, file.stream_prefix);
    if (!needed) return Fail(needed.error());
    if (*needed) {
      return Damaged((dir / file.name).string() + " is missing but the log already holds " +
                     file.stream_prefix + "* streams; a new one would not match them");
    }
  }
  if (Status head = CheckNewestHead(**store, key_path); !head) return Fail(head.error());
  Result<uint64_t> checked = CheckRecentRecords(**store, options.recent_records);
  if (!checked) return Fail(checked.error());
  check.records_checked = *checked;
  return check;
}

Result<std::string> KeepWalFiles(const std::string& data_dir, const std::string& name) {
  const fs::path db_dir = fs::path(data_dir) / "db";
  const fs::path target = fs::path(data_dir) / name;
  std::error_code error;
  if (!fs::create_directory(target, error) || error) {
    return Fail(ErrorCode::kStorage, "cannot create " + target.string() +
                                         (error ? ": " + error.message() : ": it exists"));
  }
  fs::permissions(target, fs::perms::owner_all, error);
  for (const fs::directory_entry& entry : fs::directory_iterator(db_dir, error)) {
    if (entry.path().extension() != ".log") continue;
    const fs::path copy = target / entry.path().filename();
    if (!fs::copy_file(entry.path(), copy, error) || error) {
      return Fail(ErrorCode::kStorage, "cannot copy " + entry.path().string() + " to " +
                                           target.string() + ": " + error.message());
    }
    if (Status synced = SyncFile(copy); !synced) return Fail(synced.error());
  }
  if (error)
    return Fail(ErrorCode::kStorage, "cannot list " + db_dir.string() + ": " + error.message());
  if (Status synced = SyncFile(target); !synced) return Fail(synced.error());
  return target.string();
}

}  // namespace esign::eventstore
