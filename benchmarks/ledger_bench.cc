// ledger_bench: the event store's own workloads, db_bench style, one line of figures each.
//
//   ledger_bench --benchmarks=append_seq,append_concurrent,read_all,prove [--num=N]
//                [--threads=64] [--db=DIR] [--sync=1] ...   (--help lists every flag)
//
// Workloads (all appends synced unless --sync=0):
//   append_seq             one thread, one event per append
//   append_concurrent      --threads threads, one event per append, one stream per thread
//   rocksdb_put_64threads  the ceiling without group commit: plain RocksDB synced single puts
//                          from 64 threads into a database of its own (always run beside the
//                          others)
//   read_all               the whole log through ReadAll in batches of --batch
//   prove                  inclusion proofs of random leaves of the full tree, --prove_threads
//   verify                 VerifyLog over the whole log (what `contract-ledger verify` runs): each
//                          event read on one thread, parsed and hashed on the others (one per
//                          core), the tree recomputed in order, the heads checked
//   start_check            CheckDataDirectory (what contractd checks before it opens the store),
//                          five runs on the full log with a signed head over it
// read_all, prove, verify and start_check first fill the log to --num events if it holds fewer (not
// timed).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <rocksdb/db.h>

#include "eventstore/rocksdb_event_store.h"
#include "eventstore/start_check.h"
#include "eventstore/verify_log.h"

namespace esign::eventstore {
namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  std::string benchmarks = "append_seq,append_concurrent,rocksdb_put_64threads,read_all,prove";
  uint64_t num = 1'000'000;        // append_concurrent appends; log size for read_all and prove
  uint64_t seq_num = 20'000;       // append_seq appends
  uint64_t ceiling_num = 200'000;  // rocksdb_put_64threads puts
  uint64_t proofs = 400'000;
  uint64_t recent_records = StartCheckOptions().recent_records;  // start_check
  int threads = 64;
  int prove_threads = 2;
  size_t batch = 1000;      // read_all batch
  size_t value_size = 200;  // bytes of event data
  bool sync = true;
  bool group_syncs = true;
  bool use_existing_db = false;
  int ledger_cache_min_level = -1;  // -1: the store's default
  uint64_t write_buffer_mb = 0;     // 0: the store's default
  std::string db = "/tmp/ledger_bench";
};

void Usage() {
  const Flags d;
  std::printf(
      "ledger_bench [flags]\n"
      "  --benchmarks=LIST        default %s\n"
      "  --num=N                  append_concurrent appends, log size for read_all/prove (%llu)\n"
      "  --seq_num=N              append_seq appends (%llu)\n"
      "  --ceiling_num=N          rocksdb_put_64threads puts (%llu)\n"
      "  --proofs=N               prove: proofs (%llu)\n"
      "  --threads=N              append_concurrent threads (%d)\n"
      "  --prove_threads=N        prove threads (%d)\n"
      "  --batch=N                read_all events per ReadAll (%zu)\n"
      "  --value_size=N           event data bytes (%zu)\n"
      "  --sync=0|1               sync every append (%d)\n"
      "  --group_syncs=0|1        RocksStoreOptions::group_syncs (%d)\n"
      "  --use_existing_db=0|1    keep the store in --db (%d)\n"
      "  --ledger_cache_min_level=N   RocksStoreOptions::ledger_cache_min_level\n"
      "  --write_buffer_mb=N      RocksStoreOptions::write_buffer_bytes in MiB\n"
      "  --recent_records=N       start_check: StartCheckOptions::recent_records\n"
      "  --db=DIR                 store directory (%s)\n",
      d.benchmarks.c_str(), static_cast<unsigned long long>(d.num),
      static_cast<unsigned long long>(d.seq_num), static_cast<unsigned long long>(d.ceiling_num),
      static_cast<unsigned long long>(d.proofs), d.threads, d.prove_threads, d.batch, d.value_size,
      d.sync, d.group_syncs, d.use_existing_db, d.db.c_str());
}

bool ParseFlags(int argc, char** argv, Flags& flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const size_t eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string_view::npos) {
      if (arg == "--help") Usage();
      return arg == "--help" ? false : (std::fprintf(stderr, "bad flag %s\n", argv[i]), false);
    }
    const std::string_view name = arg.substr(2, eq - 2);
    const std::string value(arg.substr(eq + 1));
    const auto number = [&] { return std::strtoull(value.c_str(), nullptr, 10); };
    if (name == "benchmarks")
      flags.benchmarks = value;
    else if (name == "num")
      flags.num = number();
    else if (name == "seq_num")
      flags.seq_num = number();
    else if (name == "ceiling_num")
      flags.ceiling_num = number();
    else if (name == "proofs")
      flags.proofs = number();
    else if (name == "recent_records")
      flags.recent_records = number();
    else if (name == "threads")
      flags.threads = static_cast<int>(number());
    else if (name == "prove_threads")
      flags.prove_threads = static_cast<int>(number());
    else if (name == "batch")
      flags.batch = number();
    else if (name == "value_size")
      flags.value_size = number();
    else if (name == "sync")
      flags.sync = number() != 0;
    else if (name == "group_syncs")
      flags.group_syncs = number() != 0;
    else if (name == "use_existing_db")
      flags.use_existing_db = number() != 0;
    else if (name == "ledger_cache_min_level")
      flags.ledger_cache_min_level = static_cast<int>(number());
    else if (name == "write_buffer_mb")
      flags.write_buffer_mb = number();
    else if (name == "db")
      flags.db = value;
    else {
      std::fprintf(stderr, "unknown flag --%.*s\n", static_cast<int>(name.size()), name.data());
      return false;
    }
  }
  return true;
}

// Per-operation latencies of one workload, in microseconds.
class Latencies {
 public:
  void Merge(std::vector<float>& part) { all_.insert(all_.end(), part.begin(), part.end()); }
  double Percentile(double p) {
    if (all_.empty()) return 0;
    const size_t k =
        std::min(all_.size() - 1, static_cast<size_t>(p * static_cast<double>(all_.size())));
    std::nth_element(all_.begin(), all_.begin() + static_cast<ptrdiff_t>(k), all_.end());
    return all_[k];
  }

 private:
  std::vector<float> all_;
};

void Report(const char* name, uint64_t ops, double seconds, Latencies& latencies,
            const std::string& note) {
  std::printf("%-22s: %10.0f ops/s %9.3f us/op   p50 %8.1f us   p99 %8.1f us   (%s)\n", name,
              static_cast<double>(ops) / seconds, seconds * 1e6 / static_cast<double>(ops),
              latencies.Percentile(0.50), latencies.Percentile(0.99), note.c_str());
  std::fflush(stdout);
}

float MicrosSince(Clock::time_point start) {
  return std::chrono::duration<float, std::micro>(Clock::now() - start).count();
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

[[noreturn]] void Die(const std::string& what, const Error& error) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), error.message.c_str());
  std::exit(1);
}

class Bench {
 public:
  explicit Bench(Flags flags) : flags_(std::move(flags)), payload_(flags_.value_size, 'x') {}

  void Open() {
    if (!flags_.use_existing_db) std::filesystem::remove_all(flags_.db);
    RocksStoreOptions options;
    options.data_dir = flags_.db + "/store";
    options.sync = flags_.sync;
    options.group_syncs = flags_.group_syncs;
    if (flags_.write_buffer_mb > 0) options.write_buffer_bytes = flags_.write_buffer_mb << 20;
    if (flags_.ledger_cache_min_level >= 0) {
      options.ledger_cache_min_level = static_cast<uint32_t>(flags_.ledger_cache_min_level);
    }
    Result<std::unique_ptr<RocksEventStore>> store = RocksEventStore::Open(options);
    if (!store) Die("open", store.error());
    store_ = std::move(*store);
    // Fresh ids for a reopened store too.
    next_id_ = store_->Size() + (uint64_t{1} << 40);
  }

  void Run(std::string_view name) {
    if (name == "append_seq") return AppendSeq();
    if (name == "append_concurrent") return AppendConcurrent();
    if (name == "rocksdb_put_64threads") return RocksPutCeiling();
    if (name == "read_all") return ReadAll();
    if (name == "prove") return Prove();
    if (name == "verify") return Verify();
    if (name == "start_check") return CheckOnStart();
    std::fprintf(stderr, "unknown benchmark %.*s\n", static_cast<int>(name.size()), name.data());
    std::exit(1);
  }

  void Close() { store_->Close(); }

 private:
  std::vector<NewEvent> OneEvent(const std::string& id) {
    NewEvent event;
    event.event_id = id;
    event.type = "contract.bench";
    event.data = R"({"payload":")" + payload_ + R"("})";
    event.actor = Actor{"cli_bench", "org_bench", "req_" + id, "192.0.2.10", "ledger_bench"};
    std::vector<NewEvent> events;
    events.push_back(std::move(event));
    return events;
  }

  // `threads` threads each append `per_thread` single-event appends to their own stream.
  void Appends(int threads, uint64_t per_thread, Latencies* latencies) {
    std::vector<std::thread> workers;
    workers.reserve(threads);
    std::vector<std::vector<float>> parts(threads);
    const uint64_t run = run_++;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        const std::string stream = "bench-" + std::to_string(run) + "-" + std::to_string(t);
        parts[t].reserve(latencies != nullptr ? per_thread : 0);
        char id[32];
        for (uint64_t i = 0; i < per_thread; ++i) {
          // Time-ordered like the service's ids ("evt_" then the time, then randomness).
          std::snprintf(id, sizeof id, "evt_%016llx",
                        static_cast<unsigned long long>(next_id_.fetch_add(1)));
          std::vector<NewEvent> events = OneEvent(id);
          const Clock::time_point start = Clock::now();
          Result<AppendResult> appended =
              store_->Append(stream, ExpectedVersion::Any(), std::move(events));
          if (latencies != nullptr) parts[t].push_back(MicrosSince(start));
          if (!appended) Die("append", appended.error());
        }
      });
    }
    for (std::thread& worker : workers) worker.join();
    if (latencies != nullptr) {
      for (std::vector<float>& part : parts) latencies->Merge(part);
    }
  }

  void AppendSeq() {
    Latencies latencies;
    const Clock::time_point start = Clock::now();
    Appends(1, flags_.seq_num, &latencies);
    Report("append_seq", flags_.seq_num, SecondsSince(start), latencies,
           std::to_string(flags_.seq_num) + " appends, 1 thread");
  }

  void AppendConcurrent() {
    Latencies latencies;
    const uint64_t per_thread = flags_.num / flags_.threads;
    const RocksEventStore::AppendStats before = store_->append_stats();
    const Clock::time_point start = Clock::now();
    Appends(flags_.threads, per_thread, &latencies);
    const double seconds = SecondsSince(start);
    const RocksEventStore::AppendStats after = store_->append_stats();
    const auto per = [](uint64_t appends, uint64_t count) {
      char text[32];
      std::snprintf(text, sizeof text, "%.1f",
                    count == 0 ? 0.0 : static_cast<double>(appends) / static_cast<double>(count));
      return std::string(text);
    };
    const uint64_t appends = after.appends - before.appends;
    Report("append_concurrent", per_thread * flags_.threads, seconds, latencies,
           std::to_string(per_thread * flags_.threads) + " appends, " +
               std::to_string(flags_.threads) + " threads, " +
               per(appends, after.syncs - before.syncs) + " per WAL sync, " +
               per(appends, after.batches - before.batches) + " per written batch");
  }

  void FillTo(uint64_t size) {
    if (store_->Size() >= size) return;
    const uint64_t missing = size - store_->Size();
    std::fprintf(stderr, "(filling the log with %llu events first)\n",
                 static_cast<unsigned long long>(missing));
    Appends(64, (missing + 63) / 64, nullptr);
  }

  void RocksPutCeiling() {
    const std::string dir = flags_.db + "/rocksdb_ceiling";
    std::filesystem::remove_all(dir);
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    const rocksdb::Status opened = rocksdb::DB::Open(options, dir, &raw);
    if (!opened.ok()) {
      std::fprintf(stderr, "open %s: %s\n", dir.c_str(), opened.ToString().c_str());
      std::exit(1);
    }
    std::unique_ptr<rocksdb::DB> db(raw);
    constexpr int kThreads = 64;
    const uint64_t per_thread = flags_.ceiling_num / kThreads;
    // About the size of a stored record of this run.
    const std::string value(flags_.value_size + 280, 'v');
    std::vector<std::vector<float>> parts(kThreads);
    std::vector<std::thread> workers;
    workers.reserve(kThreads);
    const Clock::time_point start = Clock::now();
    for (int t = 0; t < kThreads; ++t) {
      workers.emplace_back([&, t] {
        rocksdb::WriteOptions write;
        write.sync = flags_.sync;
        parts[t].reserve(per_thread);
        for (uint64_t i = 0; i < per_thread; ++i) {
          const std::string key = std::to_string(t) + "/" + std::to_string(i);
          const Clock::time_point put_start = Clock::now();
          const rocksdb::Status status = db->Put(write, key, value);
          parts[t].push_back(MicrosSince(put_start));
          if (!status.ok()) {
            std::fprintf(stderr, "put: %s\n", status.ToString().c_str());
            std::exit(1);
          }
        }
      });
    }
    for (std::thread& worker : workers) worker.join();
    const double seconds = SecondsSince(start);
    Latencies latencies;
    for (std::vector<float>& part : parts) latencies.Merge(part);
    Report("rocksdb_put_64threads", per_thread * kThreads, seconds, latencies,
           std::to_string(per_thread * kThreads) + " synced puts, 64 threads, no batching");
    db->Close().PermitUncheckedError();
  }

  void ReadAll() {
    FillTo(flags_.num);
    const uint64_t size = store_->Size();
    Latencies latencies;
    std::vector<float> part;
    uint64_t read = 0;
    const Clock::time_point start = Clock::now();
    while (read < size) {
      const Clock::time_point batch_start = Clock::now();
      Result<std::vector<EventRecord>> batch = store_->ReadAll(GlobalPosition(read), flags_.batch);
      if (!batch) Die("read_all", batch.error());
      if (batch->empty()) break;
      read += batch->size();
      // Per event: the batch's time spread over its events.
      part.push_back(MicrosSince(batch_start) / static_cast<float>(batch->size()));
    }
    const double seconds = SecondsSince(start);
    latencies.Merge(part);
    Report("read_all", read, seconds, latencies,
           std::to_string(read) + " events, batches of " + std::to_string(flags_.batch) +
               ", percentiles per event of a batch");
  }

  void Prove() {
    FillTo(flags_.num);
    const uint64_t size = store_->Size();
    const Ledger& ledger = store_->ledger();
    const Hash root = ledger.Root(size).value();
    const uint64_t per_thread = flags_.proofs / flags_.prove_threads;
    std::vector<std::vector<float>> parts(flags_.prove_threads);
    std::vector<std::thread> workers;
    workers.reserve(flags_.prove_threads);
    std::atomic<uint64_t> bad{0};
    const Clock::time_point start = Clock::now();
    for (int t = 0; t < flags_.prove_threads; ++t) {
      workers.emplace_back([&, t] {
        std::mt19937_64 random(t + 1);
        parts[t].reserve(per_thread);
        for (uint64_t i = 0; i < per_thread; ++i) {
          const uint64_t index = random() % size;
          const Clock::time_point proof_start = Clock::now();
          Result<std::vector<Hash>> proof = ledger.InclusionProof(index, size);
          parts[t].push_back(MicrosSince(proof_start));
          if (!proof) Die("prove", proof.error());
          // Spot-check that the proofs are right, outside the timed part.
          if (i % 1024 == 0 &&
              !VerifyInclusion(ledger.LeafHashAt(index).value(), index, size, *proof, root)) {
            ++bad;
          }
        }
      });
    }
    for (std::thread& worker : workers) worker.join();
    const double seconds = SecondsSince(start);
    if (bad > 0) std::fprintf(stderr, "%llu proofs did not verify\n", (unsigned long long)bad);
    Latencies latencies;
    for (std::vector<float>& part : parts) latencies.Merge(part);
    Report("prove", per_thread * flags_.prove_threads, seconds, latencies,
           std::to_string(per_thread * flags_.prove_threads) + " inclusion proofs, tree of " +
               std::to_string(size) + ", " + std::to_string(flags_.prove_threads) + " threads");
  }

  void Verify() {
    FillTo(flags_.num);
    if (Result<SignedTreeHead> head = store_->ledger().SignTreeHead(); !head) {
      Die("sign tree head", head.error());
    }
    const Clock::time_point start = Clock::now();
    Result<LogVerification> verified = VerifyLog(*store_);
    const double seconds = SecondsSince(start);
    if (!verified) Die("verify", verified.error());
    if (!verified->ok) std::fprintf(stderr, "the log did not verify\n");
    Latencies none;
    Report("verify", verified->size, seconds, none,
           std::to_string(verified->size) + " events, " + std::to_string(verified->heads_checked) +
               " heads, read on one thread, checked on " +
               std::to_string(std::max(1u, std::thread::hardware_concurrency())));
  }

  void CheckOnStart() {
    FillTo(flags_.num);
    if (Result<SignedTreeHead> head = store_->ledger().SignTreeHead(); !head) {
      Die("sign tree head", head.error());
    }
    constexpr int kRuns = 5;
    std::vector<float> runs;
    uint64_t checked = 0;
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < kRuns; ++i) {
      const Clock::time_point one = Clock::now();
      Result<StartCheck> check = CheckDataDirectory(
          flags_.db + "/store", StartCheckOptions{.recent_records = flags_.recent_records});
      if (!check) Die("start check", check.error());
      runs.push_back(MicrosSince(one));
      checked = check->records_checked;
    }
    const double seconds = SecondsSince(start);
    Latencies latencies;
    latencies.Merge(runs);
    Report("start_check", kRuns, seconds, latencies,
           "log of " + std::to_string(store_->Size()) + " events, the newest " +
               std::to_string(checked) + " hashed again");
  }

  const Flags flags_;
  const std::string payload_;
  std::unique_ptr<RocksEventStore> store_;
  uint64_t run_ = 0;
  std::atomic<uint64_t> next_id_{0};
};

}  // namespace
}  // namespace esign::eventstore

int main(int argc, char** argv) {
  esign::eventstore::Flags flags;
  if (!esign::eventstore::ParseFlags(argc, argv, flags)) return 2;
  std::vector<std::string> names;
  for (size_t begin = 0; begin <= flags.benchmarks.size();) {
    size_t end = flags.benchmarks.find(',', begin);
    if (end == std::string::npos) end = flags.benchmarks.size();
    if (end > begin) names.push_back(flags.benchmarks.substr(begin, end - begin));
    begin = end + 1;
  }
  // The ceiling is printed beside the store's figures in every run.
  if (std::find(names.begin(), names.end(), "rocksdb_put_64threads") == names.end()) {
    names.emplace_back("rocksdb_put_64threads");
  }
  std::printf("ledger_bench: sync=%d, %u cores, data %zu bytes per event, db %s\n", flags.sync,
              std::thread::hardware_concurrency(), flags.value_size, flags.db.c_str());
  esign::eventstore::Bench bench(flags);
  bench.Open();
  for (const std::string& name : names) bench.Run(name);
  // As contractd stops: the store flushes its memtables, so the directory keeps no WAL to replay.
  bench.Close();
  return 0;
}
