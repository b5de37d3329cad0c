// Writes admitted at the rate the views follow: the appender of a real RocksDB store waits at the
// gate while a slow projection falls behind, and a read side that is not running holds nothing.
#include "projections/view_lag_gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "projections/memory_view_store.h"
#include "tests/eventstore/store_test_support.h"

namespace esign::projections {
namespace {

using eventstore::testing::Event;
using eventstore::testing::MustOpen;
using eventstore::testing::TempDir;
using eventstore::testing::TestRocksOptions;

// Takes 2 ms an event: far slower than the appends below.
class SlowProjection final : public Projection {
 public:
  std::string_view Name() const override { return "slow"; }
  Status Apply(const eventstore::EventRecord&, ViewBatch&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return {};
  }
};

// 8 threads append 25 events each, one event an append; the largest lag of the views behind the
// log seen right after an append.
uint64_t LargestLagOfABurst(eventstore::RocksEventStore& store, const Projector& projector) {
  std::atomic<uint64_t> largest{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        const std::string id = std::to_string(t) + "-" + std::to_string(i);
        ASSERT_TRUE(store.Append("s-" + id, eventstore::ExpectedVersion::NoStream(), {Event(id)}));
        const uint64_t size = store.Size();
        const uint64_t applied = projector.position();
        const uint64_t lag = size > applied ? size - applied : 0;
        uint64_t seen = largest.load();
        while (lag > seen && !largest.compare_exchange_weak(seen, lag)) {
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  return largest.load();
}

TEST(ViewLagGateTest, ABurstOfWritesWaitsForTheViewsInsteadOfOutrunningThem) {
  for (const bool gated : {false, true}) {
    const TempDir dir;
    std::unique_ptr<eventstore::RocksEventStore> store = MustOpen(TestRocksOptions(dir.path()));
    ASSERT_NE(store, nullptr);
    MemoryViewStore views;
    SlowProjection projection;
    Projector projector(*store, views, {&projection});
    ASSERT_TRUE(projector.Start());
    const ViewLagGate gate(projector, /*max_lag_events=*/16, std::chrono::seconds(5));
    if (gated) store->SetAppendGate(&gate);
    const uint64_t lag = LargestLagOfABurst(*store, projector);
    // Gated: at most 16 behind when a batch starts, plus that batch (one append a writer).
    if (gated) {
      EXPECT_LE(lag, 16u + 8u);
    } else {
      EXPECT_GT(lag, 100u);  // the burst outruns the views by most of its 200 events
    }
    ASSERT_TRUE(projector.WaitFor(store->Size(), std::chrono::seconds(10)));
    store->SetAppendGate(nullptr);
    projector.Stop();
  }
}

// Applies at once.
class FastProjection final : public Projection {
 public:
  std::string_view Name() const override { return "fast"; }
  Status Apply(const eventstore::EventRecord&, ViewBatch&) override { return {}; }
};

TEST(ViewLagGateTest, AFollowedProjectorHoldsTheWritesWithItsOwnLag) {
  const TempDir dir;
  std::unique_ptr<eventstore::RocksEventStore> store = MustOpen(TestRocksOptions(dir.path()));
  ASSERT_NE(store, nullptr);
  MemoryViewStore views;
  FastProjection fast;
  SlowProjection slow;
  // As the views and the text index: two projectors, the slow one followed with a lag of its own.
  Projector views_projector(*store, views, {&fast});
  Projector slow_projector(*store, views, {&slow});
  ASSERT_TRUE(views_projector.Start());
  ASSERT_TRUE(slow_projector.Start());
  ViewLagGate gate(views_projector, /*max_lag_events=*/1024, std::chrono::seconds(5));
  gate.Follow(slow_projector, /*max_lag_events=*/16);
  store->SetAppendGate(&gate);
  EXPECT_LE(LargestLagOfABurst(*store, slow_projector), 16u + 8u);
  ASSERT_TRUE(slow_projector.WaitFor(store->Size(), std::chrono::seconds(10)));
  store->SetAppendGate(nullptr);
  slow_projector.Stop();
  views_projector.Stop();
}

TEST(ViewLagGateTest, AReadSideThatIsNotRunningHoldsNothing) {
  const TempDir dir;
  std::unique_ptr<eventstore::RocksEventStore> store = MustOpen(TestRocksOptions(dir.path()));
  ASSERT_NE(store, nullptr);
  MemoryViewStore views;
  SlowProjection projection;
  const Projector projector(*store, views, {&projection});  // never started
  const ViewLagGate gate(projector, /*max_lag_events=*/1, std::chrono::seconds(30));
  store->SetAppendGate(&gate);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(store->Append("s", eventstore::ExpectedVersion::Any(), {Event(std::to_string(i))}));
  }
  EXPECT_EQ(store->Size(), 20u);
  // Far less than one wait of the gate: nothing waited.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  store->SetAppendGate(nullptr);
}

}  // namespace
}  // namespace esign::projections
