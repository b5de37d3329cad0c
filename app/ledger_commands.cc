#include "app/ledger_commands.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <boost/json.hpp>

#include "eventstore/domain_events.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/rocksdb_event_store.h"
#include "eventstore/verify_log.h"
#include "projections/client_directory.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/rebuild.h"
#include "projections/rocksdb_view_store.h"
#include "projections/template_catalog.h"

namespace esign::app {
namespace json = boost::json;
namespace {

// Export reads and prints this many events between progress updates.
constexpr uint64_t kExportBatch = 1024;

// A progress line only on a terminal, and only for runs long enough to need one: a pipe or a log
// file must not collect carriage returns.
class Progress {
 public:
  Progress(std::ostream& err, std::string_view what, uint64_t total)
      : err_(err), what_(what), total_(total), shown_(total >= 10000 && isatty(STDERR_FILENO)) {}
  ~Progress() {
    if (shown_) err_ << "\r" << std::string(what_.size() + 48, ' ') << "\r" << std::flush;
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void Update(uint64_t done) {
    if (shown_) err_ << "\r" << what_ << ": " << done << " / " << total_ << std::flush;
  }

 private:
  std::ostream& err_;
  std::string what_;
  uint64_t total_;
  bool shown_;
};

Result<std::unique_ptr<eventstore::RocksEventStore>> OpenReadOnly(const std::string& data_dir) {
  eventstore::RocksStoreOptions options;
  options.data_dir = data_dir;
  options.read_only = true;
  // Reads only: a small cache is enough and keeps the tool light beside a running service.
  options.block_cache_bytes = size_t{32} << 20;
  return eventstore::RocksEventStore::Open(options);
}

int IoError(std::ostream& err, std::string_view what, const Error& error) {
  err << "contract-ledger: " << what << ": " << error.message << "\n";
  return kLedgerIoError;
}

int Verify(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  auto store = OpenReadOnly(command.data_dir);
  if (!store) return IoError(err, "opening the event store", store.error());
  if (isatty(STDERR_FILENO)) err << "verifying " << (*store)->Size() << " events...\n";
  // The key file in the data directory is the service's; an auditor who holds the key out of
  // band checks bundles with verify-bundle --public-key.
  Result<eventstore::LogVerification> result = eventstore::VerifyLog(**store);
  if (!result) return IoError(err, "reading the log", result.error());
  out << "events: " << result->size << "\n"
      << "heads checked: " << result->heads_checked << "\n"
      << "root: " << eventstore::ToHex(result->root) << "\n";
  if (result->ok) {
    out << "verify: ok\n";
    return kLedgerOk;
  }
  for (const std::string& problem : result->problems) out << "problem: " << problem << "\n";
  if (result->first_bad_position) {
    out << "first bad position: " << *result->first_bad_position << "\n";
  }
  out << "verify: FAILED\n";
  return kLedgerVerificationFailed;
}

// A fresh RocksDB with the two view families, for replay --out.
struct OutViews {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  std::unique_ptr<projections::RocksViewStore> views;
  ~OutViews() {
    views.reset();
    for (rocksdb::ColumnFamilyHandle* family : families) {
      if (db) db->DestroyColumnFamilyHandle(family).PermitUncheckedError();
    }
  }
};

Result<std::unique_ptr<OutViews>> OpenOutViews(const std::string& dir) {
  std::error_code error;
  if (std::filesystem::exists(dir, error) && !std::filesystem::is_empty(dir, error)) {
    return Fail(ErrorCode::kValidationFailed, "--out " + dir + " must be absent or empty");
  }
  rocksdb::DBOptions options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  const std::vector<rocksdb::ColumnFamilyDescriptor> descriptors{
      {rocksdb::kDefaultColumnFamilyName, {}}, {"projections", {}}, {"checkpoints", {}}};
  auto out = std::make_unique<OutViews>();
  rocksdb::DB* db = nullptr;
  const rocksdb::Status opened = rocksdb::DB::Open(options, dir, descriptors, &out->families, &db);
  if (!opened.ok()) return Fail(ErrorCode::kStorage, "opening " + dir + ": " + opened.ToString());
  out->db.reset(db);
  auto views = projections::RocksViewStore::Open(db, out->families[1], out->families[2]);
  if (!views) return Fail(views.error());
  out->views = std::move(*views);
  return out;
}

// The projections the service runs (app/service.cc), as fresh objects.
struct ServiceProjections {
  explicit ServiceProjections(const eventstore::EventStore& log) : contract_views(log) {}
  projections::TemplateCatalog catalog;
  projections::ContractViews contract_views;
  projections::ClientDirectory directory;
  std::vector<projections::Projection*> All() { return {&catalog, &contract_views, &directory}; }
};

Result<uint64_t> RebuildAll(const eventstore::EventStore& log, projections::ViewStore& target) {
  ServiceProjections fresh(log);
  return projections::Rebuild(log, fresh.All(), target);
}

int Replay(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  auto store = OpenReadOnly(command.data_dir);
  if (!store) return IoError(err, "opening the event store", store.error());
  auto live = projections::RocksViewStore::Open(**store);
  if (!live) return IoError(err, "opening the live views", live.error());

  projections::MemoryViewStore memory;
  std::unique_ptr<OutViews> out_views;
  projections::ViewStore* fresh = &memory;
  if (!command.out_dir.empty()) {
    auto opened = OpenOutViews(command.out_dir);
    if (!opened) {
      if (opened.error().code == ErrorCode::kValidationFailed) {
        err << "contract-ledger: " << opened.error().message << "\n";
        return kLedgerUsage;
      }
      return IoError(err, "creating the fresh views", opened.error());
    }
    out_views = std::move(*opened);
    fresh = out_views->views.get();
  }
  if (isatty(STDERR_FILENO)) err << "replaying " << (*store)->Size() << " events...\n";
  Result<uint64_t> reached = RebuildAll(**store, *fresh);
  if (!reached) return IoError(err, "rebuilding the views", reached.error());

  // The live views may lag the log (the service projects after it appends, and may have been
  // stopped in between): then a copy of them is brought up to the same position first, so only
  // a real difference is reported.
  std::unique_ptr<const projections::RowReader> live_rows = (*live)->Snapshot();
  projections::MemoryViewStore caught_up;
  const projections::RowReader* compared = live_rows.get();
  bool lagging = false;
  projections::ViewCommit copy;
  ServiceProjections names(**store);
  for (const projections::Projection* projection : names.All()) {
    const std::string_view name = projection->Name();
    Result<uint64_t> checkpoint = (*live)->Checkpoint(name);
    if (!checkpoint) return IoError(err, "reading the live checkpoints", checkpoint.error());
    if (*checkpoint != *reached) lagging = true;
    copy.checkpoints[std::string(name)] = *checkpoint;
  }
  if (lagging) {
    out << "live views lag the log (at " << *reached << " events): caught up in memory first\n";
    Status scanned = live_rows->Scan("", "", false, [&](std::string_view key, std::string_view v) {
      copy.rows[std::string(key)] = std::string(v);
      return true;
    });
    if (!scanned) return IoError(err, "reading the live views", scanned.error());
    if (Status committed = caught_up.Commit(copy); !committed) {
      return IoError(err, "copying the live views", committed.error());
    }
    if (auto rebuilt = RebuildAll(**store, caught_up); !rebuilt) {
      return IoError(err, "catching up the live views", rebuilt.error());
    }
    compared = &caught_up;
  }
  Result<std::optional<std::string>> difference = projections::FirstDifference(*compared, *fresh);
  if (!difference) return IoError(err, "comparing the views", difference.error());
  out << "events replayed: " << *reached << "\n";
  if (*difference) {
    out << "first differing key: " << **difference << "\nreplay: DIFFERENT\n";
    return kLedgerVerificationFailed;
  }
  out << "replay: equal\n";
  return kLedgerOk;
}

int Export(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  auto store = OpenReadOnly(command.data_dir);
  if (!store) return IoError(err, "opening the event store", store.error());
  const uint64_t size = (*store)->Size();
  Progress progress(err, "export", size);
  std::string line;
  for (uint64_t position = command.from; position < size; ++position) {
    // The stored bytes, so what is exported is what the ledger hashed.
    Result<std::string> raw = (*store)->ReadRaw(GlobalPosition(position));
    if (!raw) return IoError(err, "reading position " + std::to_string(position), raw.error());
    boost::system::error_code ec;
    json::value record = json::parse(*raw, ec);
    if (ec || !record.is_object()) {
      err << "contract-ledger: the event at position " << position << " is not a JSON object\n";
      return kLedgerVerificationFailed;
    }
    record.get_object()["leafHash"] = eventstore::ToHex(eventstore::LeafHash(*raw));
    line = json::serialize(record);
    line.push_back('\n');
    out << line;
    if ((position + 1) % kExportBatch == 0) {
      out.flush();
      progress.Update(position + 1);
    }
  }
  out.flush();
  return out ? kLedgerOk : kLedgerIoError;
}

int Prove(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  auto store = OpenReadOnly(command.data_dir);
  if (!store) return IoError(err, "opening the event store", store.error());
  Result<json::object> bundle =
      eventstore::BuildProofBundle(**store, eventstore::ContractStreamId(command.contract_id));
  if (!bundle) {
    if (bundle.error().code == ErrorCode::kNotFound) {
      err << "contract-ledger: cannot prove " << command.contract_id << ": "
          << bundle.error().message << "\n";
      return kLedgerVerificationFailed;
    }
    return IoError(err, "building the bundle", bundle.error());
  }
  out << json::serialize(*bundle) << "\n";
  return kLedgerOk;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kStorage, "cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Fail(ErrorCode::kStorage, "cannot read " + path);
  return text.str();
}

int VerifyBundle(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::string> text = ReadFile(command.bundle_file);
  if (!text) return IoError(err, "reading the bundle", text.error());
  std::string trusted_key;
  if (!command.public_key.empty()) {
    Result<std::string> key = ReadFile(command.public_key);
    if (!key) return IoError(err, "reading the public key", key.error());
    trusted_key = std::move(*key);
  }
  boost::system::error_code ec;
  const json::value bundle = json::parse(*text, ec);
  if (ec) {
    out << "FAIL json: the bundle is not JSON (" << ec.message() << ")\nverify-bundle: FAILED\n";
    return kLedgerVerificationFailed;
  }
  Result<eventstore::BundleReport> report = eventstore::VerifyProofBundle(bundle, trusted_key);
  if (!report) {
    out << "FAIL json: " << report.error().message << "\nverify-bundle: FAILED\n";
    return kLedgerVerificationFailed;
  }
  for (const eventstore::BundleCheck& check : report->checks) {
    out << (check.ok ? "pass " : "FAIL ") << check.name << ": " << check.detail << "\n";
  }
  if (const eventstore::BundleCheck* failed = report->first_failure()) {
    out << "verify-bundle: FAILED (first failed check: " << failed->name << ")\n";
    return kLedgerVerificationFailed;
  }
  out << "verify-bundle: ok\n";
  return kLedgerOk;
}

}  // namespace

int RunLedgerCommand(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  if (command.name == "help") {
    out << command.usage;
    return kLedgerOk;
  }
  if (command.name == "verify") return Verify(command, out, err);
  if (command.name == "replay") return Replay(command, out, err);
  if (command.name == "export") return Export(command, out, err);
  if (command.name == "prove") return Prove(command, out, err);
  if (command.name == "verify-bundle") return VerifyBundle(command, out, err);
  err << "contract-ledger: unknown subcommand " << command.name << "\n";
  return kLedgerUsage;
}

}  // namespace esign::app
