// Projection throughput, for measuring rather than checking: contract creations projected per
// second into the RocksDB view store. Disabled by default; run with
//   projections_tests --gtest_also_run_disabled_tests --gtest_filter='*Throughput*'
// (a Release build gives the meaningful figure). PROJECTION_THROUGHPUT_CONTRACTS sets the number
// of creations (default 20,000), e.g. a few thousand for a run under callgrind.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "contract_script.h"
#include "eventstore/rocksdb_event_store.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/rebuild.h"
#include "projections/rocksdb_view_store.h"
#include "projections/template_catalog.h"

namespace esign::projections {
namespace {

TEST(ProjectionThroughputTest, DISABLED_ContractCreations) {
  const char* count = std::getenv("PROJECTION_THROUGHPUT_CONTRACTS");
  const int kContracts = count != nullptr ? std::stoi(count) : 20000;
  testing::TempDir dir;
  eventstore::RocksStoreOptions options = testing::SmallRocksOptions(dir.path());
  options.sync = false;  // only the projection is measured
  options.block_cache_bytes = size_t{64} << 20;
  options.write_buffer_bytes = size_t{64} << 20;
  auto store = eventstore::RocksEventStore::Open(options);
  ASSERT_TRUE(store);

  // One creation decided by the domain, then copied under new contract ids.
  testing::ContractScript script(**store);
  script.ImportTemplate("services-agreement.json");
  const std::string first =
      script.Create(testing::Client("cli_a1", "org_a"),
                    testing::ServicesBody("Bench", testing::Parties{}), "2026-01-01T10:00:00Z");
  auto records = (*store)->ReadStream("contract-" + first, StreamVersion(1), 10);
  ASSERT_TRUE(records);
  ASSERT_EQ(records->size(), 1u);
  const std::string data = records->front().data;
  const auto append = [&](int i) {
    char id[32];
    std::snprintf(id, sizeof(id), "ctr_b%07d", i);
    std::string copy = data;
    copy.replace(copy.find(first), first.size(), id);
    eventstore::NewEvent event;
    event.event_id = std::string("evt_b") + id;
    event.type = "contract.created";
    event.data = std::move(copy);
    event.actor = records->front().actor;
    return (*store)->Append(std::string("contract-") + id, eventstore::ExpectedVersion::NoStream(),
                            {std::move(event)});
  };
  std::vector<std::thread> writers;
  for (int w = 0; w < 8; ++w) {
    writers.emplace_back([&, w] {
      for (int i = w; i < kContracts; i += 8) ASSERT_TRUE(append(i));
    });
  }
  for (auto& writer : writers) writer.join();
  std::printf("appended %d creations\n", kContracts);
  std::fflush(stdout);

  auto views = RocksViewStore::Open(**store);
  ASSERT_TRUE(views);
  TemplateCatalog catalog;
  ContractViews contracts(**store);
  ContractTextIndex text_index(**store);  // the whole read side of a creation, as before it split
  const auto start = std::chrono::steady_clock::now();
  auto reached = Rebuild(**store, {&catalog, &contracts, &text_index}, **views);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(reached) << reached.error().message;
  std::printf("projected %d contract creations in %.3f s: %.0f/s\n", kContracts, seconds,
              kContracts / seconds);
  views->reset();
  (*store)->Close();
}

}  // namespace
}  // namespace esign::projections
