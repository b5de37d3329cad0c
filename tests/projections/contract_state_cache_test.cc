// ContractStateCache against the full replay: whatever it has cached, evicted or checkpointed,
// and while other threads append to the stream, every state it answers (latest or at a version)
// equals Replay of the stream up to that version, with the stream's bytes.
#include "projections/contract_state_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "contract_world.h"
#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"

namespace esign::projections {
namespace {

constexpr std::string_view kMarker = "MARKER-VALUE";

// What the full replay of a stream's first v events gives, for every v: [v - 1].
struct Replayed {
  uint64_t version = 0;
  uint64_t stream_bytes = 0;
  std::string json;  // ContractToJson
};

std::vector<Replayed> FullReplays(const eventstore::EventStore& store, const std::string& id) {
  auto records = store.ReadStream(ContractStreamId(id), StreamVersion(1), SIZE_MAX);
  EXPECT_TRUE(records);
  std::vector<Replayed> out;
  ContractState state;
  uint64_t bytes = 0;
  for (const auto& record : *records) {
    auto event = eventstore::ToDomainEvent(record);
    EXPECT_TRUE(event);
    state = Apply(std::move(state), *event);
    bytes += record.data.size();
    out.push_back({state.version, bytes, boost::json::serialize(ContractToJson(state))});
  }
  return out;
}

void ExpectSame(const ContractSnapshot& cached, const std::vector<Replayed>& replays) {
  ASSERT_GE(cached.state.version, 1u);
  ASSERT_LE(cached.state.version, replays.size());
  const Replayed& replayed = replays[cached.state.version - 1];
  ASSERT_EQ(cached.state.version, replayed.version);
  EXPECT_EQ(cached.stream_bytes, replayed.stream_bytes) << "at version " << replayed.version;
  EXPECT_EQ(boost::json::serialize(ContractToJson(cached.state)), replayed.json)
      << "at version " << replayed.version;
}

class ContractStateCacheTest : public ::testing::Test {
 protected:
  // A services agreement with one edit whose value is kMarker; the edit's event data is the
  // pattern the writers append with other values.
  void SetUp() override {
    const Actor a1 = testing::Client("cli_a1", "org_a");
    id_ = world_.script().Create(a1, testing::ServicesBody("Cached", testing::Parties{}),
                                 "2026-01-01T10:00:00Z");
    ASSERT_TRUE(world_.script().RunJson(
        a1, id_, "UpdateData",
        R"({"fieldValues": [{"key": "clientName", "value": ")" + std::string(kMarker) + "\"}]}",
        "2026-01-01T11:00:00Z"));
    auto records = world_.store().ReadStream(ContractStreamId(id_), StreamVersion(1), 10);
    ASSERT_TRUE(records);
    for (const auto& record : *records) {
      if (record.type == event_type::kDataUpdated) edit_ = record.data;
    }
    ASSERT_NE(edit_.find(kMarker), std::string::npos);
    other_ = world_.script().Create(a1, testing::ServicesBody("Other", testing::Parties{}),
                                    "2026-01-01T12:00:00Z");
    base_ = world_.store().CurrentVersion(ContractStreamId(id_))->value();
  }

  // An edit of clientName to `value`, appended whatever the stream's version.
  void AppendEdit(const std::string& value) {
    std::string data = edit_;
    data.replace(data.find(kMarker), kMarker.size(), value);
    eventstore::NewEvent event{"evt_" + value, std::string(event_type::kDataUpdated), 1, data, {}};
    ASSERT_TRUE(world_.store().Append(ContractStreamId(id_), eventstore::ExpectedVersion::Any(),
                                      {std::move(event)}));
  }

  testing::ContractWorld world_;
  std::string id_;
  std::string other_;  // another contract, whose reads evict id_'s states from a small cache
  std::string edit_;
  uint64_t base_ = 0;  // id_'s version before the edits a test appends
};

TEST_F(ContractStateCacheTest, ManyEventsGiveTheFullReplayAtEveryVersion) {
  // A small interval and budget: many checkpoints, and evictions of whole contracts.
  const ContractStateCache cache(world_.store(), {.max_states = 64, .checkpoint_interval = 16});
  const ContractStateCache small(world_.store(), {.max_states = 3, .checkpoint_interval = 16});
  std::vector<ContractSnapshot> during;
  for (int i = 0; i < 600; ++i) {
    AppendEdit("edit-" + std::to_string(i) + std::string(i % 7, 'x'));
    if (i % 37 == 0) {
      auto latest = cache.Latest(id_);
      ASSERT_TRUE(latest);
      during.push_back(std::move(*latest));
    }
  }
  const std::vector<Replayed> replays = FullReplays(world_.store(), id_);
  const uint64_t last = replays.size();
  ASSERT_EQ(last, base_ + 600);
  for (const ContractSnapshot& seen : during) ExpectSame(seen, replays);
  auto latest = cache.Latest(id_);
  ASSERT_TRUE(latest);
  ASSERT_EQ(latest->state.version, last);
  ExpectSame(*latest, replays);
  // Every version, in orders that jump back and forth over the checkpoints.
  for (uint64_t step : {uint64_t{1}, uint64_t{7}, uint64_t{16}, uint64_t{61}}) {
    for (uint64_t version = last; version >= 1; version = version > step ? version - step : 0) {
      auto at = cache.AtVersion(id_, version);
      ASSERT_TRUE(at) << at.error().message;
      ExpectSame(*at, replays);
      if (version % 23 != 0) continue;
      // A cache that keeps almost nothing, its states of id_ evicted by another contract's.
      ASSERT_TRUE(small.Latest(other_));
      auto cold = small.AtVersion(id_, version);
      ASSERT_TRUE(cold) << cold.error().message;
      ExpectSame(*cold, replays);
    }
  }
  EXPECT_LE(small.Stats().states, 1 + last / 16);
  EXPECT_LE(small.Stats().contracts, 1u);
  // Warm, a version costs at most the interval's events.
  const uint64_t before = cache.Stats().events_applied;
  ASSERT_TRUE(cache.AtVersion(id_, last - 1));
  EXPECT_LT(cache.Stats().events_applied - before, 16u);
  EXPECT_EQ(cache.Stats().states, 1 + last / 16);

  auto beyond = cache.AtVersion(id_, last + 1);
  ASSERT_FALSE(beyond);
  EXPECT_EQ(beyond.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(cache.AtVersion(id_, 0));
  auto none = cache.Latest("ctr_none");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->state.exists());
}

TEST_F(ContractStateCacheTest, InterleavedWritersAndReadersSeeOnlyFullReplays) {
  const ContractStateCache cache(world_.store(), {.max_states = 64, .checkpoint_interval = 32});
  constexpr int kWriters = 2;
  constexpr int kEditsEach = 400;
  std::atomic<int> writing{kWriters};
  std::vector<ContractSnapshot> seen[2];
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kEditsEach; ++i) {
        AppendEdit("w" + std::to_string(w) + "-" + std::to_string(i));
      }
      --writing;
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      uint64_t n = 0;
      while (writing.load() > 0 || seen[r].size() < 50) {
        ++n;
        auto got = r == 0 || n % 3 != 0 ? cache.Latest(id_)
                                        : cache.AtVersion(id_, 1 + (n * 7919) % (2 + n));
        if (got) seen[r].push_back(std::move(*got));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const std::vector<Replayed> replays = FullReplays(world_.store(), id_);
  size_t checked = 0;
  for (const auto& answers : seen) {
    for (const ContractSnapshot& answer : answers) {
      ExpectSame(answer, replays);
      ++checked;
    }
  }
  EXPECT_GE(checked, 100u);
  auto latest = cache.Latest(id_);
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->state.version, base_ + kWriters * kEditsEach);
  ExpectSame(*latest, replays);
}

}  // namespace
}  // namespace esign::projections
