#include "app/ledger_commands.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <rocksdb/db.h>
#include <boost/json.hpp>

#include "app/ledger_progress.h"
#include "app/ledger_trust.h"
#include "base/hex.h"
#include "base/sha256.h"
#include "documents/evidence_bundle.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "eventstore/ledger_key.h"
#include "eventstore/proof_bundle.h"
#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_log.h"
#include "eventstore/rocksdb_options.h"
#include "eventstore/store_keys.h"
#include "eventstore/verify_log.h"
#include "projections/bulk_send_index.h"
#include "projections/client_directory.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/rebuild.h"
#include "projections/rocksdb_view_store.h"
#include "projections/signing_session_index.h"
#include "projections/template_catalog.h"

namespace esign::app {
namespace json = boost::json;
namespace {

// Export reads and prints this many events between flushes.
constexpr uint64_t kExportBatch = 1024;

// Which families a command reads: verify needs the log, the ledger, the heads and the blobs only.
enum class Reads { kEverything, kLogAndLedger };

Result<std::unique_ptr<eventstore::RocksEventStore>> OpenReadOnly(
    const std::string& data_dir, Reads reads = Reads::kEverything) {
  eventstore::RocksStoreOptions options;
  options.data_dir = data_dir;
  options.read_only = true;
  // The open replays the WAL into memory for each family it opens; the stream and event-id
  // indexes and the views, which verify never reads, took about half of that replay.
  options.log_and_ledger_only = reads == Reads::kLogAndLedger;
  // Reads only: a small cache is enough and keeps the tool light beside a running service.
  options.block_cache_bytes = size_t{32} << 20;
  // verify scans the leaves itself and prove reads a few dozen nodes, so only the top of the tree
  // is worth holding: loading every node would cost the open about two seconds per million
  // events.
  options.ledger_cache_min_level = 16;
  return eventstore::RocksEventStore::Open(options);
}

int IoError(std::ostream& err, std::string_view what, const Error& error) {
  err << "contract-ledger: " << what << ": " << error.message << "\n";
  return kLedgerIoError;
}

// A scan that reads each key once: large reads, fewer system calls, and the block cache kept for
// what is read again.
rocksdb::ReadOptions ScanOnce() {
  rocksdb::ReadOptions read;
  read.readahead_size = size_t{2} << 20;
  read.fill_cache = false;
  return read;
}

// eventstore::VerifyLog's checks with the database read in order: the events family and the
// ledger's leaves (level 0 of ledger_nodes) scanned side by side with two iterators, instead of
// two lookups per position. A position missing from either family is reported as VerifyLog
// reports it. This thread only reads; the chunks it reads are hashed and parsed on the other
// cores (eventstore::ChunkedLogVerifier) while it reads the next ones.
Result<eventstore::LogVerification> VerifyByScanning(eventstore::RocksEventStore& store,
                                                     LedgerProgress& progress) {
  Result<std::vector<eventstore::SignedTreeHead>> heads = store.ledger().TreeHeads();
  if (!heads) return Fail(heads.error());
  eventstore::VerifyOptions options;
  options.public_key_pem = store.ledger().PublicKeyPem();
  options.heads = std::move(*heads);
  options.ledger = &store.ledger();
  const uint64_t size = store.Size();
  eventstore::ChunkedLogVerifier verifier(options, size);

  rocksdb::ReadOptions read = ScanOnce();
  const eventstore::U64Key events_end = eventstore::EncodeU64(size);
  const rocksdb::Slice events_bound(events_end.data(), events_end.size());
  read.iterate_upper_bound = &events_bound;
  std::unique_ptr<rocksdb::Iterator> events(
      store.db()->NewIterator(read, store.Family(eventstore::family::kEvents)));
  const eventstore::NodeKey leaves_end = eventstore::EncodeNodeKey({0, size});
  const rocksdb::Slice leaves_bound(leaves_end.data(), leaves_end.size());
  read.iterate_upper_bound = &leaves_bound;
  std::unique_ptr<rocksdb::Iterator> leaves(
      store.db()->NewIterator(read, store.Family(eventstore::family::kLedgerNodes)));
  events->SeekToFirst();
  const eventstore::NodeKey first_leaf = eventstore::EncodeNodeKey({0, 0});
  leaves->Seek(rocksdb::Slice(first_leaf.data(), first_leaf.size()));

  eventstore::VerifyChunk chunk;
  for (uint64_t position = 0; position < size; ++position) {
    Result<eventstore::Hash> leaf = Fail(ErrorCode::kNotFound, "no stored leaf");
    const bool leaf_here =
        leaves->Valid() &&
        eventstore::DecodeNodeKey(leaves->key().ToStringView()) == eventstore::NodeId{0, position};
    if (leaf_here) {
      if (std::optional<eventstore::Hash> hash =
              eventstore::DecodeNodeHash(leaves->value().ToStringView())) {
        leaf = *hash;
      } else {
        leaf = Fail(ErrorCode::kCorruption, "a stored leaf is not 32 bytes");
      }
    }
    const bool event_here =
        events->Valid() && eventstore::DecodeU64(events->key().ToStringView()) == position;
    if (event_here) {
      chunk.AddBytes(events->value().ToStringView(), std::move(leaf));
    } else {
      chunk.AddUnreadable(
          Error::Of(ErrorCode::kNotFound, "no event at position " + std::to_string(position)),
          std::move(leaf));
    }
    // An iterator moves on only past the position it held (even when its value is malformed), so
    // a gap or a bad value is reported once.
    if (event_here) events->Next();
    if (leaf_here) leaves->Next();
    if (chunk.entries.size() == eventstore::kVerifyChunkPositions) {
      verifier.Add(std::move(chunk));
      chunk = eventstore::VerifyChunk{.first = position + 1};
    }
    progress.Add(1);
  }
  if (!chunk.entries.empty()) verifier.Add(std::move(chunk));
  if (!events->status().ok()) return Fail(ErrorCode::kStorage, events->status().ToString());
  if (!leaves->status().ok()) return Fail(ErrorCode::kStorage, leaves->status().ToString());
  return std::move(verifier).Finish();
}

// Every stored blob (the documents and evidence bundles) must still hash to its key, which is the
// SHA-256 the events recorded.
struct BlobVerification {
  uint64_t checked = 0;
  std::map<std::string, std::string> bad;  // key -> what its bytes hash to now
};

Result<BlobVerification> VerifyBlobs(const eventstore::RocksEventStore& store) {
  BlobVerification result;
  rocksdb::ColumnFamilyHandle* family = store.Family(eventstore::family::kBlobs);
  if (family == nullptr) return result;
  std::unique_ptr<rocksdb::Iterator> it(store.db()->NewIterator(ScanOnce(), family));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++result.checked;
    const std::string actual =
        ToHex(Sha256(std::string_view(it->value().data(), it->value().size())));
    if (actual != it->key().ToStringView()) result.bad[it->key().ToString()] = actual;
  }
  if (!it->status().ok()) return Fail(ErrorCode::kStorage, it->status().ToString());
  return result;
}

// The events that recorded a changed blob's hash, which name the contract and the document:
// "contract.prepared of contract-ctr_... at position 3". One more pass over the log, made only
// when a blob is bad.
Result<std::map<std::string, std::vector<std::string>>> ReferencesTo(
    const eventstore::EventStore& store, const std::map<std::string, std::string>& keys) {
  std::map<std::string, std::vector<std::string>> out;
  for (uint64_t position = 0; position < store.Size(); ++position) {
    Result<std::string> raw = store.ReadRaw(GlobalPosition(position));
    if (!raw) return Fail(raw.error());
    for (const auto& [key, actual] : keys) {
      if (raw->find(key) == std::string::npos) continue;
      Result<eventstore::EventRecord> record = eventstore::ParseRecord(*raw);
      if (!record) continue;
      out[key].push_back(record->type + " of " + record->stream_id + " at position " +
                         std::to_string(position));
    }
  }
  return out;
}

int Verify(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  auto store = OpenReadOnly(command.data_dir, Reads::kLogAndLedger);
  if (!store) return IoError(err, "opening the event store", store.error());
  // The key file in the data directory is the service's; an auditor who holds the key out of
  // band checks bundles with verify-bundle --public-key.
  Result<eventstore::LogVerification> result = [&] {
    LedgerProgress progress(err, "verify", (*store)->Size());
    return VerifyByScanning(**store, progress);
  }();
  if (!result) return IoError(err, "reading the log", result.error());
  Result<BlobVerification> blobs = VerifyBlobs(**store);
  if (!blobs) return IoError(err, "reading the stored documents", blobs.error());
  out << "events: " << result->size << "\n"
      << "heads checked: " << result->heads_checked << "\n"
      << "root: " << ToHex(result->root) << "\n"
      << "documents checked: " << blobs->checked << "\n";
  if (result->ok && blobs->bad.empty()) {
    out << "verify: ok\n";
    return kLedgerOk;
  }
  for (const std::string& problem : result->problems) out << "problem: " << problem << "\n";
  if (!blobs->bad.empty()) {
    auto references = ReferencesTo(**store, blobs->bad);
    if (!references) return IoError(err, "reading the log", references.error());
    for (const auto& [key, actual] : blobs->bad) {
      out << "problem: stored document " << key << " now hashes to " << actual;
      for (const std::string& where : (*references)[key]) out << "; recorded by " << where;
      out << "\n";
    }
  }
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
  options.info_log = eventstore::MakeRocksLog();
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
  ServiceProjections(const eventstore::EventStore& log, const projections::ViewStore& views)
      : contract_views(log), text_index(log), sessions(views), bulk_sends(views) {}
  projections::TemplateCatalog catalog;
  projections::ContractViews contract_views;
  projections::ContractTextIndex text_index;
  projections::ClientDirectory directory;
  projections::SigningSessionIndex sessions;
  projections::BulkSendIndex bulk_sends;
  std::vector<projections::Projection*> All() {
    return {&catalog, &contract_views, &text_index, &directory, &sessions, &bulk_sends};
  }
};

Result<uint64_t> RebuildAll(const eventstore::EventStore& log, projections::ViewStore& target) {
  ServiceProjections fresh(log, target);
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
  Result<uint64_t> reached = [&] {
    LedgerProgress progress(err, "replay", (*store)->Size());
    ProgressLog log(**store, progress);
    return RebuildAll(log, *fresh);
  }();
  if (!reached) return IoError(err, "rebuilding the views", reached.error());

  // The live views may lag the log (the service projects after it appends, and may have been
  // stopped in between): then a copy of them is brought up to the same position first, so only
  // a real difference is reported.
  std::unique_ptr<const projections::RowReader> live_rows = (*live)->Snapshot();
  projections::MemoryViewStore caught_up;
  const projections::RowReader* compared = live_rows.get();
  bool lagging = false;
  projections::ViewCommit copy;
  ServiceProjections names(**store, **live);
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
    LedgerProgress progress(err, "replay (catching up the live views)", *reached);
    ProgressLog log(**store, progress);
    if (auto rebuilt = RebuildAll(log, caught_up); !rebuilt) {
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
  LedgerProgress progress(err, "export", size - std::min(size, command.from));
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
    record.get_object()["leafHash"] = ToHex(eventstore::LeafHash(*raw));
    line = json::serialize(record);
    line.push_back('\n');
    out << line;
    progress.Add(1);
    if ((position + 1) % kExportBatch == 0) out.flush();
  }
  out.flush();
  return out ? kLedgerOk : kLedgerIoError;
}

int Prove(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  auto store = OpenReadOnly(command.data_dir);
  if (!store) return IoError(err, "opening the event store", store.error());
  Result<json::object> bundle = [&] {
    const std::string stream = ContractStreamId(command.contract_id);
    // The stream's events are what a proof reads; short streams show no progress.
    Result<StreamVersion> events = (*store)->CurrentVersion(stream);
    LedgerProgress progress(err, "prove", events ? events->value() : 0);
    ProgressLog log(**store, progress);
    return eventstore::BuildProofBundle(log, stream);
  }();
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

// Each check as "pass NAME: detail" or "FAIL NAME: detail" (an evidence bundle's unproven parts
// as "note NAME: detail", which decide nothing), then the verdict, which names the first failed
// check. EvidenceCheck and BundleCheck alike. Without a trusted key the key check is a note too,
// and a bundle whose every check passed is not ok: anyone can re-sign a changed bundle with a key
// of their own and put that key in it.
template <typename Check>
int PrintChecks(const std::vector<Check>& checks, bool key_trusted, std::ostream& out) {
  const Check* failed = nullptr;
  for (const Check& check : checks) {
    bool note =
        !key_trusted && check.ok && (check.name == "publicKey" || check.name == "ledger.publicKey");
    if constexpr (requires { check.unproven; }) note = note || check.unproven;
    if (note) {
      out << "note " << check.name << ": " << check.detail << "\n";
      continue;
    }
    out << (check.ok ? "pass " : "FAIL ") << check.name << ": " << check.detail << "\n";
    if (!check.ok && failed == nullptr) failed = &check;
  }
  if (failed != nullptr) {
    out << "verify-bundle: FAILED (first failed check: " << failed->name << ")\n";
    return kLedgerVerificationFailed;
  }
  if (!key_trusted) {
    out << "verify-bundle: NOT TRUSTED: every check passed, but against the key the bundle "
           "carries; a bundle re-signed with any key passes them as well. Give the service's key "
           "with --public-key FILE or --public-key-url URL\n";
    return kLedgerUntrusted;
  }
  out << "verify-bundle: ok\n";
  return kLedgerOk;
}

// What verify-bundle trusts, each read from its PEM file when given (--public-key,
// --certificate, --tsa-ca); empty when not.
struct BundleTrust {
  std::string public_key;
  std::string certificate;
  std::string tsa_ca;
};

// An evidence bundle (documents/evidence_bundle.h): the checks of the service's verification
// report, with the same names. The documents are checked only against a data directory's stored
// ones (--data-dir); the PDF signatures are checked for integrity, and against the service's
// certificate when --certificate gives it.
int VerifyEvidence(const LedgerCommand& command, const json::object& bundle,
                   const BundleTrust& trust, std::ostream& out, std::ostream& err) {
  std::unique_ptr<eventstore::RocksEventStore> store;
  if (!command.data_dir.empty()) {
    auto opened = OpenReadOnly(command.data_dir);
    if (!opened) return IoError(err, "opening the event store", opened.error());
    store = std::move(*opened);
  }
  return PrintChecks(VerifyEvidenceBundle(bundle, store ? &store->blobs() : nullptr,
                                          trust.public_key, trust.certificate, trust.tsa_ca),
                     !trust.public_key.empty(), out);
}

// The key of --public-key or --public-key-url into `pem` (nothing when neither was given), its
// fingerprint and source on `err`. A file or service that cannot be read is an I/O error, what
// they hold when it is no Ed25519 key a usage error.
int LoadTrustedKey(const LedgerCommand& command, std::string& pem, std::ostream& err) {
  if (command.public_key.empty() && command.public_key_url.empty()) return kLedgerOk;
  const bool from_file = !command.public_key.empty();
  Result<std::string> key =
      from_file ? ReadLedgerKeyFile(command.public_key) : FetchLedgerKey(command.public_key_url);
  const std::string source =
      from_file ? command.public_key : PublicKeyRouteUrl(command.public_key_url);
  if (!key) {
    if (key.error().code == ErrorCode::kValidationFailed) {
      err << "contract-ledger: the trusted key from " << source << ": " << key.error().message
          << "\n";
      return kLedgerUsage;
    }
    return IoError(err, "reading the trusted key", key.error());
  }
  Result<eventstore::LedgerPublicKey> described = eventstore::DescribeLedgerKey(*key);
  if (described) {
    err << "trusted key: SHA-256 fingerprint " << described->fingerprint_sha256 << " from "
        << source << "\n";
  }
  pem = std::move(*key);
  return kLedgerOk;
}

int VerifyBundle(const LedgerCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::string> text = ReadWholeFile(command.bundle_file);
  if (!text) return IoError(err, "reading the bundle", text.error());
  BundleTrust trust;
  if (int loaded = LoadTrustedKey(command, trust.public_key, err); loaded != kLedgerOk) {
    return loaded;
  }
  const std::tuple<const std::string&, std::string&, std::string_view> anchors[] = {
      {command.certificate, trust.certificate, "reading the certificate"},
      {command.tsa_ca, trust.tsa_ca, "reading the timestamp authority's CA"}};
  for (const auto& [path, pem, what] : anchors) {
    if (path.empty()) continue;
    Result<std::string> read = ReadWholeFile(path);
    if (!read) return IoError(err, what, read.error());
    pem = std::move(*read);
  }
  boost::system::error_code ec;
  const json::value bundle = json::parse(*text, ec);
  if (ec) {
    out << "FAIL json: the bundle is not JSON (" << ec.message() << ")\nverify-bundle: FAILED\n";
    return kLedgerVerificationFailed;
  }
  // An evidence bundle carries its proof bundle under "ledger"; one whose format was changed is
  // still checked as one, and fails "format" by name.
  if (IsEvidenceBundle(bundle) || (bundle.is_object() && bundle.as_object().contains("ledger"))) {
    return VerifyEvidence(command, bundle.as_object(), trust, out, err);
  }
  Result<eventstore::BundleReport> report =
      eventstore::VerifyProofBundle(bundle, trust.public_key, trust.tsa_ca);
  if (!report) {
    out << "FAIL json: " << report.error().message << "\nverify-bundle: FAILED\n";
    return kLedgerVerificationFailed;
  }
  return PrintChecks(report->checks, !trust.public_key.empty(), out);
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
