// A contract's state as every command, hosted-page request and asOf read needs it (Google
// Benchmark), over the RocksDB event store, for a contract of 10 and of 10,000 events (an NDA
// created and then edited):
//   BM_FullReplay         what every such request did: read the whole stream and Apply it all
//   BM_CachedLatest       ContractStateCache::Latest once warm: the stream's tail, one copy
//   BM_CachedLatestAfter  the same with one new event since the last request (a command's read)
//   BM_CachedAtVersion    ContractStateCache::AtVersion just below a checkpoint (an asOf read's
//                         worst case: 255 Applies)
// Run: build/release/benchmarks/contract_state_bench
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "eventstore/rocksdb_event_store.h"
#include "projections/contract_state_cache.h"

namespace esign::projections {
namespace {

// The events of a created NDA (contract.created with two signers and its data) and one edit.
constexpr std::string_view kCreated =
    R"({"contractId":"ctr_bench","title":"Mutual NDA: Acme and Globex","templateId":"tpl_mutual_nda",)"
    R"("templateVersionId":"tpl_mutual_nda_v1","organizationSigningMode":"automatic",)"
    R"("organizationId":"org_bench","createdBy":"cli_bench","createdAt":"2026-03-01T00:00:00Z",)"
    R"("fieldValues":[{"key":"partyAName","value":"Acme GmbH"},{"key":"partyBName","value":"Globex Ltd"},)"
    R"({"key":"purpose","value":"Evaluating a joint venture in renewable storage"}],)"
    R"("participants":[{"participantId":"prt_a","action":"sign","recipientType":"individual",)"
    R"("name":"Ada Lovelace","email":"ada@acme.example","executionChannel":"platform_hosted",)"
    R"("templateRoleId":"party_a_signatory"},{"participantId":"prt_b","action":"sign",)"
    R"("recipientType":"individual","name":"Grace Hopper","email":"grace@globex.example",)"
    R"("executionChannel":"integrator_managed","templateRoleId":"party_b_signatory"}]})";

std::string Edit(int n) {
  return R"({"fieldValues":[{"key":"purpose","value":"Evaluating a joint venture, revision )" +
         std::to_string(n) + R"("}],"updatedAt":"2026-03-01T00:00:00Z"})";
}

// One store per process, holding the contract "ctr_<events>" for each size asked for.
class Store {
 public:
  static Store& Instance() {
    static Store store;
    return store;
  }
  eventstore::EventStore& log() { return *store_; }

  std::string ContractOf(int64_t events) {
    const std::string id = "ctr_bench_" + std::to_string(events);
    if (store_->CurrentVersion(ContractStreamId(id))->value() > 0) return id;
    std::vector<eventstore::NewEvent> batch;
    batch.push_back({"evt_" + id + "_0",
                     std::string(event_type::kContractCreated),
                     1,
                     std::string(kCreated),
                     {}});
    for (int64_t i = 1; i < events; ++i) {
      batch.push_back({"evt_" + id + "_" + std::to_string(i),
                       std::string(event_type::kDataUpdated),
                       1,
                       Edit(static_cast<int>(i)),
                       {}});
      if (batch.size() == 1000 || i + 1 == events) {
        (void)store_->Append(ContractStreamId(id), eventstore::ExpectedVersion::Any(),
                             std::move(batch));
        batch.clear();
      }
    }
    if (!batch.empty()) {
      (void)store_->Append(ContractStreamId(id), eventstore::ExpectedVersion::Any(),
                           std::move(batch));
    }
    return id;
  }

 private:
  Store() {
    dir_ = std::filesystem::temp_directory_path() /
           ("contract_state_bench-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    eventstore::RocksStoreOptions options;
    options.data_dir = dir_.string();
    options.sync = false;
    store_ = std::move(*eventstore::RocksEventStore::Open(options));
  }
  ~Store() {
    store_->Close();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;
  std::unique_ptr<eventstore::RocksEventStore> store_;
};

void BM_FullReplay(benchmark::State& state) {
  Store& store = Store::Instance();
  const std::string id = store.ContractOf(state.range(0));
  for (auto _ : state) {
    auto records = store.log().ReadStream(ContractStreamId(id), StreamVersion(1), SIZE_MAX);
    auto events = eventstore::ToDomainEvents(*records);
    ContractState replayed = Replay(*events);
    benchmark::DoNotOptimize(replayed);
  }
}

void BM_CachedLatest(benchmark::State& state) {
  Store& store = Store::Instance();
  const std::string id = store.ContractOf(state.range(0));
  const ContractStateCache cache(store.log());
  (void)cache.Latest(id);
  for (auto _ : state) benchmark::DoNotOptimize(cache.Latest(id));
}

void BM_CachedLatestAfter(benchmark::State& state) {
  Store& store = Store::Instance();
  const std::string id = store.ContractOf(state.range(0)) + "_after";
  // A contract of its own, since this one grows.
  std::vector<eventstore::NewEvent> created{
      {"evt_" + id, std::string(event_type::kContractCreated), 1, std::string(kCreated), {}}};
  (void)store.log().Append(ContractStreamId(id), eventstore::ExpectedVersion::Any(),
                           std::move(created));
  for (int64_t i = 1; i < state.range(0); ++i) {
    (void)store.log().Append(ContractStreamId(id), eventstore::ExpectedVersion::Any(),
                             {{"evt_" + id + std::to_string(i),
                               std::string(event_type::kDataUpdated),
                               1,
                               Edit(static_cast<int>(i)),
                               {}}});
  }
  const ContractStateCache cache(store.log());
  (void)cache.Latest(id);
  int64_t n = state.range(0);
  for (auto _ : state) {
    state.PauseTiming();
    (void)store.log().Append(ContractStreamId(id), eventstore::ExpectedVersion::Any(),
                             {{"evt_" + id + std::to_string(n),
                               std::string(event_type::kDataUpdated),
                               1,
                               Edit(static_cast<int>(n)),
                               {}}});
    ++n;
    state.ResumeTiming();
    benchmark::DoNotOptimize(cache.Latest(id));
  }
}

void BM_CachedAtVersion(benchmark::State& state) {
  Store& store = Store::Instance();
  const std::string id = store.ContractOf(state.range(0));
  const ContractStateCache cache(store.log());
  (void)cache.Latest(id);
  const uint64_t version =
      state.range(0) > 256 ? (state.range(0) / 256) * 256 - 1 : state.range(0) - 1;
  for (auto _ : state) benchmark::DoNotOptimize(cache.AtVersion(id, version));
}

BENCHMARK(BM_FullReplay)->Arg(10)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CachedLatest)->Arg(10)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CachedLatestAfter)->Arg(10)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CachedAtVersion)->Arg(10)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace esign::projections

BENCHMARK_MAIN();
