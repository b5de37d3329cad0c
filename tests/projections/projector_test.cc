// The projector: batches committed with their checkpoints, restart from the checkpoint, waits
// woken by appends, prompt stops, and a failing projection that stops everything visibly.
#include "projections/projector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "contract_script.h"
#include "eventstore/memory_event_store.h"
#include "eventstore/rocksdb_event_store.h"
#include "projections/key_codec.h"
#include "projections/memory_view_store.h"
#include "projections/rocksdb_view_store.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

using std::chrono::milliseconds;

// Writes one row per event and counts what it applied; fails at `fail_at` if set.
class RecordingProjection final : public Projection {
 public:
  explicit RecordingProjection(std::string name) : name_(std::move(name)) {}
  std::string_view Name() const override { return name_; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override {
    if (fail_at && event.position.value() == *fail_at) {
      return Fail(ErrorCode::kInternal, "refused on purpose");
    }
    batch.Put("e/" + HexU64(event.position.value()), event.event_id);
    applied.fetch_add(1);
    return {};
  }
  void Committed() override { commits.fetch_add(1); }
  Status Load(const ViewReader& /*rows*/) override {
    loads.fetch_add(1);
    return {};
  }

  std::optional<uint64_t> fail_at;
  std::atomic<int> applied{0};
  std::atomic<int> commits{0};
  std::atomic<int> loads{0};

 private:
  std::string name_;
};

eventstore::NewEvent Event(const std::string& id) {
  eventstore::NewEvent event;
  event.event_id = id;
  event.type = "test.happened";
  event.data = "{}";
  return event;
}

void AppendEvents(eventstore::EventStore& store, const std::string& prefix, int count) {
  std::vector<eventstore::NewEvent> events;
  for (int i = 0; i < count; ++i) events.push_back(Event(prefix + std::to_string(i)));
  ASSERT_TRUE(store.Append("s-" + prefix, eventstore::ExpectedVersion::Any(), std::move(events)));
}

size_t RowsOf(const ViewStore& views, const std::string& name) {
  size_t rows = 0;
  EXPECT_TRUE(views.Scan(name + "/", "", false, [&](std::string_view, std::string_view) {
    ++rows;
    return true;
  }));
  return rows;
}

class ProjectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
  }
  void TearDown() override { store_->Close(); }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  MemoryViewStore views_;
};

TEST_F(ProjectorTest, AppliesEveryEventAndCheckpointsWithTheRows) {
  AppendEvents(*store_, "a", 10);
  RecordingProjection projection("rec");
  Projector projector(*store_, views_, {&projection}, ProjectorOptions{.batch_size = 4});
  ASSERT_TRUE(projector.Start());
  EXPECT_EQ(projection.loads.load(), 1);
  ASSERT_TRUE(projector.WaitFor(10, milliseconds(5000)));
  EXPECT_EQ(projection.applied.load(), 10);
  EXPECT_EQ(*views_.Checkpoint("rec"), 10u);
  EXPECT_EQ(RowsOf(views_, "rec"), 10u);
  EXPECT_EQ(projection.commits.load(), 3);  // 4 + 4 + 2
  EXPECT_EQ(projector.position(), 10u);
  EXPECT_TRUE(projector.health());
}

TEST_F(ProjectorTest, WaitForIsWokenByAppends) {
  RecordingProjection projection("rec");
  // A long stop latency: only an append can wake the projector in time.
  Projector projector(*store_, views_, {&projection},
                      ProjectorOptions{.idle_wait = milliseconds(60000)});
  ASSERT_TRUE(projector.Start());
  EXPECT_TRUE(projector.WaitFor(0, milliseconds(0)));
  EXPECT_FALSE(projector.WaitFor(1, milliseconds(20)));
  std::thread writer([&] {
    std::this_thread::sleep_for(milliseconds(50));
    AppendEvents(*store_, "w", 3);
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(projector.WaitFor(3, milliseconds(10000)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(5000));
  writer.join();
  EXPECT_EQ(projection.applied.load(), 3);
  store_->Close();  // ends the projector's long wait
  projector.Stop();
}

TEST_F(ProjectorTest, StopEndsPromptly) {
  RecordingProjection projection("rec");
  Projector projector(*store_, views_, {&projection});
  ASSERT_TRUE(projector.Start());
  std::this_thread::sleep_for(milliseconds(20));
  const auto start = std::chrono::steady_clock::now();
  projector.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(1000));
  EXPECT_FALSE(projector.running());
  EXPECT_FALSE(projector.WaitFor(1, milliseconds(1000)));  // released at once, not after 1 s
  projector.Stop();                                        // idempotent
}

TEST_F(ProjectorTest, AStoreClosedFirstLeavesTheProjectorIdleUntilStopped) {
  AppendEvents(*store_, "a", 3);
  RecordingProjection projection("rec");
  Projector projector(*store_, views_, {&projection});
  ASSERT_TRUE(projector.Start());
  ASSERT_TRUE(projector.WaitFor(3, milliseconds(5000)));
  store_->Close();
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_TRUE(projector.running());
  EXPECT_TRUE(projector.health());
  const auto start = std::chrono::steady_clock::now();
  projector.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(1000));
  EXPECT_EQ(projection.applied.load(), 3);
}

TEST_F(ProjectorTest, AFailingProjectionStopsEverythingAndCommitsNothingOfTheBatch) {
  AppendEvents(*store_, "a", 8);
  RecordingProjection good("good");
  RecordingProjection bad("bad");
  bad.fail_at = 5;
  Projector projector(*store_, views_, {&good, &bad}, ProjectorOptions{.batch_size = 4});
  ASSERT_TRUE(projector.Start());
  EXPECT_FALSE(projector.WaitFor(8, milliseconds(5000)));
  EXPECT_FALSE(projector.running());
  ASSERT_FALSE(projector.health());
  EXPECT_NE(projector.health().error().message.find("refused on purpose"), std::string::npos);
  EXPECT_NE(projector.health().error().message.find("position 5"), std::string::npos);
  // The first batch [0, 4) is committed for both; of the second, nothing.
  EXPECT_EQ(projector.position(), 4u);
  EXPECT_EQ(*views_.Checkpoint("good"), 4u);
  EXPECT_EQ(*views_.Checkpoint("bad"), 4u);
  EXPECT_EQ(RowsOf(views_, "good"), 4u);
  EXPECT_EQ(RowsOf(views_, "bad"), 4u);
}

TEST_F(ProjectorTest, ANewProjectionCatchesUpWhileTheOthersOnlyGetNewEvents) {
  AppendEvents(*store_, "a", 5);
  {
    RecordingProjection old_one("old");
    Projector projector(*store_, views_, {&old_one});
    ASSERT_TRUE(projector.Start());
    ASSERT_TRUE(projector.WaitFor(5, milliseconds(5000)));
  }
  AppendEvents(*store_, "b", 2);
  RecordingProjection old_again("old");
  RecordingProjection fresh("fresh");
  Projector projector(*store_, views_, {&old_again, &fresh}, ProjectorOptions{.batch_size = 3});
  ASSERT_TRUE(projector.Start());
  ASSERT_TRUE(projector.WaitFor(7, milliseconds(5000)));
  EXPECT_EQ(old_again.applied.load(), 2);
  EXPECT_EQ(fresh.applied.load(), 7);
  EXPECT_EQ(*views_.Checkpoint("old"), 7u);
  EXPECT_EQ(*views_.Checkpoint("fresh"), 7u);
  EXPECT_EQ(RowsOf(views_, "old"), 7u);
}

TEST(ProjectorRocksTest, RestartResumesFromTheCheckpointWithoutReapplying) {
  testing::TempDir dir;
  {
    auto store = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(dir.path()));
    ASSERT_TRUE(store);
    auto views = RocksViewStore::Open(**store);
    ASSERT_TRUE(views);
    RecordingProjection projection("rec");
    Projector projector(**store, **views, {&projection});
    ASSERT_TRUE(projector.Start());
    AppendEvents(**store, "a", 6);
    ASSERT_TRUE(projector.WaitFor(6, milliseconds(5000)));
    EXPECT_EQ(projection.applied.load(), 6);
    projector.Stop();
    AppendEvents(**store, "b", 4);  // appended while no projector runs
    views->reset();
    (*store)->Close();
  }
  auto store = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(dir.path()));
  ASSERT_TRUE(store);
  auto views = RocksViewStore::Open(**store);
  ASSERT_TRUE(views);
  EXPECT_EQ(*(*views)->Checkpoint("rec"), 6u);
  RecordingProjection projection("rec");
  Projector projector(**store, **views, {&projection});
  ASSERT_TRUE(projector.Start());
  ASSERT_TRUE(projector.WaitFor(10, milliseconds(5000)));
  EXPECT_EQ(projection.applied.load(), 4);  // only the events after the checkpoint
  EXPECT_EQ(*(*views)->Checkpoint("rec"), 10u);
  EXPECT_EQ(RowsOf(**views, "rec"), 10u);
  projector.Stop();
  views->reset();
  (*store)->Close();
}

TEST(ProjectorRocksTest, KeepsUpWithConcurrentWriters) {
  testing::TempDir dir;
  auto store = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(dir.path()));
  ASSERT_TRUE(store);
  auto views = RocksViewStore::Open(**store);
  ASSERT_TRUE(views);
  RecordingProjection projection("rec");
  Projector projector(**store, **views, {&projection});
  ASSERT_TRUE(projector.Start());
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 25; ++i) {
        auto appended =
            (*store)->Append("s-" + std::to_string(w), eventstore::ExpectedVersion::Any(),
                             {Event("w" + std::to_string(w) + "-" + std::to_string(i))});
        ASSERT_TRUE(appended);
        // Read-your-writes, as a command handler does.
        EXPECT_TRUE(projector.WaitFor(appended->first_position.value() + appended->count,
                                      milliseconds(5000)));
        auto row = (*views)->Get("rec/e/" + HexU64(appended->first_position.value()));
        ASSERT_TRUE(row);
        EXPECT_TRUE(row->has_value());
      }
    });
  }
  for (auto& writer : writers) writer.join();
  EXPECT_TRUE(projector.WaitFor(100, milliseconds(5000)));
  EXPECT_EQ(projection.applied.load(), 100);
  projector.Stop();
  views->reset();
  (*store)->Close();
}

}  // namespace
}  // namespace esign::projections

namespace esign::projections {
namespace {

TEST(ProjectorStopTest, StopsPromptlyWhenIdleWithoutPolling) {
  auto store = eventstore::MemoryEventStore::Create();
  ASSERT_TRUE(store);
  MemoryViewStore views;
  class Ignore final : public Projection {
   public:
    std::string_view Name() const override { return "ignore"; }
    Status Apply(const eventstore::EventRecord&, ViewBatch&) override { return {}; }
  } projection;
  // The idle wait is a minute: only the stop request can end it in time.
  Projector projector(**store, views, {&projection});
  ASSERT_TRUE(projector.Start());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto start = std::chrono::steady_clock::now();
  projector.Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_FALSE(projector.running());
}

}  // namespace
}  // namespace esign::projections
