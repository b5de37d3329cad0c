// The replicated log on a three-broker mock cluster in this process: a writer and standbys, each
// a RocksDB store of its own, driven through the store's API.
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "base/sha256.h"
#include "eventstore/rocksdb_options.h"
#include "replication/replicated_log.h"
#include "tests/eventstore/store_test_support.h"
#include "webhooks/embedded_kafka.h"

namespace esign::replication {
namespace {

using eventstore::ExpectedVersion;
using eventstore::RocksEventStore;
using eventstore::testing::Event;
using eventstore::testing::MustOpen;
using eventstore::testing::TempDir;
using eventstore::testing::TestRocksOptions;

const std::string kKey(32, 'r');
// The Kafka protocol's key of Produce requests (rdkafka_mock.h takes it as a number).
constexpr int16_t kProduceApiKey = 0;

// One node: its data directory, its replicated log and its store (closed before the log).
struct Node {
  TempDir dir;
  std::unique_ptr<ReplicatedLog> log;
  std::unique_ptr<RocksEventStore> store;

  ~Node() { Close(); }
  void Close() {
    if (log) log->Stop();
    store.reset();
  }
};

class ReplicatedLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto kafka = webhooks::EmbeddedKafka::Start(
        {.topics = {LogTopicOf("main")}, .partitions = 1, .brokers = 3});
    ASSERT_TRUE(kafka) << kafka.error().message;
    kafka_ = std::move(*kafka);
  }

  // A node on `dir`; a standby copies the writer's ledger key, as a backup would give it.
  std::unique_ptr<Node> Start(const std::string& name, const Node* key_from = nullptr,
                              std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    auto node = std::make_unique<Node>();
    if (key_from != nullptr) {
      std::filesystem::copy_file(key_from->dir.path() + "/ledger-key.pem",
                                 node->dir.path() + "/ledger-key.pem");
    }
    auto log = ReplicatedLog::Open(
        {.brokers = kafka_->bootstraps(),
         .key = kKey,
         .node_name = name,
         .timeout = timeout,
         .log = [name](const std::string& line) { std::cerr << name << ": " << line << "\n"; }});
    EXPECT_TRUE(log) << log.error().message;
    if (!log) return nullptr;
    node->log = std::move(*log);
    eventstore::RocksStoreOptions options = TestRocksOptions(node->dir.path());
    options.replication = node->log.get();
    node->store = MustOpen(options);
    if (!node->store) return nullptr;
    EXPECT_TRUE(node->log->Attach(*node->store));
    return node;
  }

  static bool WaitForSize(const RocksEventStore& store, uint64_t size) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (store.Size() < size && std::chrono::steady_clock::now() < deadline) {
      store.WaitForSizeAbove(store.Size(), std::chrono::milliseconds(100));
    }
    return store.Size() == size;
  }

  // Every key and value of a family, in order.
  static std::vector<std::pair<std::string, std::string>> Contents(const RocksEventStore& store,
                                                                   const char* family) {
    std::vector<std::pair<std::string, std::string>> rows;
    std::unique_ptr<rocksdb::Iterator> it(
        store.db()->NewIterator(rocksdb::ReadOptions(), store.Family(family)));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      rows.emplace_back(it->key().ToString(), it->value().ToString());
    }
    return rows;
  }

  static void ExpectSameLog(const RocksEventStore& a, const RocksEventStore& b) {
    namespace f = eventstore::family;
    for (const char* family :
         {f::kEvents, f::kStreams, f::kEventIds, f::kLedgerNodes, f::kTreeHeads, f::kBlobs}) {
      EXPECT_TRUE(Contents(a, family) == Contents(b, family)) << "family " << family << " differs";
    }
  }

  std::unique_ptr<webhooks::EmbeddedKafka> kafka_;
};

TEST_F(ReplicatedLogTest, AStandbyHoldsTheWritersLogLedgerHeadsAndBlobsByteForByte) {
  auto writer = Start("writer");
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->log->Claim());
  EXPECT_EQ(writer->log->status().role, LogRole::kWriter);
  // Written before the standby follows: it catches up from the start of the topic.
  ASSERT_TRUE(writer->store->Append("s-0", ExpectedVersion::NoStream(), {Event("early")}));
  auto standby = Start("standby", writer.get());
  ASSERT_TRUE(standby);
  ASSERT_TRUE(standby->log->Follow());

  // Four threads: appends to 12 streams, a third with an exact version (some conflict), retries
  // of earlier ids (replays), blobs and heads now and then.
  std::atomic<uint64_t> acknowledged{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      for (int i = 0; i < 60; ++i) {
        const std::string stream = "s-" + std::to_string(random() % 12);
        const std::string id = "e-" + std::to_string(t) + "-" + std::to_string(i);
        ExpectedVersion expected = ExpectedVersion::Any();
        if (random() % 3 == 0) {
          auto version = writer->store->CurrentVersion(stream);
          if (version) expected = ExpectedVersion::Exactly(*version);
        }
        std::vector<eventstore::NewEvent> events{Event(id), Event(id + "-b")};
        if (writer->store->Append(stream, expected, events)) ++acknowledged;
        if (i % 7 == 0) {
          // The same ids again: answered from the log, nothing written.
          (void)writer->store->Append(stream, ExpectedVersion::Any(),
                                      {Event(id), Event(id + "-b")});
        }
        if (i % 20 == 5) {
          EXPECT_TRUE(writer->store->blobs().Put("blob " + id));
        }
        if (i % 25 == 10) {
          EXPECT_TRUE(writer->store->ledger().SignTreeHead());
        }
      }
    });
  }
  // Three chunks. (librdkafka's mock cluster keeps only the newest 5 MiB of a partition: the
  // whole workload stays below that, so that a standby that lags still finds every entry.)
  std::string large((5 << 20) / 2, 'p');
  large[12345] = 'q';
  const auto large_name = writer->store->blobs().Put(large);
  ASSERT_TRUE(large_name);
  for (auto& thread : threads) thread.join();
  const auto small = writer->store->blobs().Put("to be deleted");
  ASSERT_TRUE(small);
  ASSERT_TRUE(writer->store->blobs().Delete(*small));
  ASSERT_TRUE(writer->store->ledger().SignTreeHead());
  EXPECT_GT(acknowledged.load(), 100u);

  ASSERT_TRUE(WaitForSize(*standby->store, writer->store->Size()))
      << standby->store->Size() << " of " << writer->store->Size() << ", offset "
      << standby->log->status().next_offset << " of " << writer->log->status().next_offset;
  // The head and blobs come after the last batch: wait until the standby read as far.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (standby->log->status().next_offset < writer->log->status().next_offset &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(standby->log->status().next_offset, writer->log->status().next_offset);
  EXPECT_EQ(standby->store->ledger().NewestTreeHead()->size, writer->store->Size());
  auto copied = standby->store->blobs().Get(*large_name);
  ASSERT_TRUE(copied);
  EXPECT_EQ(*copied, large);
  EXPECT_FALSE(*standby->store->blobs().Contains(*small));
  // A standby takes no writes.
  const auto refused = standby->store->Append("s-x", ExpectedVersion::Any(), {Event("nope")});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(refused.error().message.find("writer"), std::string::npos) << refused.error().message;

  standby->log->Stop();
  ExpectSameLog(*writer->store, *standby->store);
  EXPECT_EQ(*standby->store->ReadLogMark(), *writer->store->ReadLogMark());
}

TEST_F(ReplicatedLogTest, APromotedStandbyFencesTheOldWriterWhichAcknowledgesNothingMore) {
  auto old_writer = Start("old");
  ASSERT_TRUE(old_writer);
  ASSERT_TRUE(old_writer->log->Claim());
  ASSERT_TRUE(old_writer->store->Append("s", ExpectedVersion::Any(), {Event("a1")}));
  auto standby = Start("new", old_writer.get());
  ASSERT_TRUE(standby);
  ASSERT_TRUE(standby->log->Follow());
  ASSERT_TRUE(WaitForSize(*standby->store, 1));
  const eventstore::Hash old_root = *old_writer->store->ledger().Root(1);

  // Promotion: stop following, apply to the end, claim.
  standby->log->Stop();
  ASSERT_TRUE(standby->log->Claim());
  EXPECT_EQ(standby->log->status().epoch, 2u);

  // The old writer still believes it writes: its next append is not acknowledged, and it steps
  // down for good.
  const auto late = old_writer->store->Append("s", ExpectedVersion::Any(), {Event("late")});
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ErrorCode::kUnavailable);
  const auto later = old_writer->store->Append("s", ExpectedVersion::Any(), {Event("later")});
  ASSERT_FALSE(later);
  EXPECT_EQ(old_writer->log->status().role, LogRole::kFenced);
  EXPECT_EQ(old_writer->store->Size(), 1u);

  // The new writer continues the same ledger.
  ASSERT_TRUE(standby->store->Append("s", ExpectedVersion::Any(), {Event("b1")}));
  EXPECT_EQ(standby->store->Size(), 2u);
  EXPECT_EQ(*standby->store->ledger().Root(1), old_root);
  EXPECT_FALSE(*standby->store->CurrentVersion("s") == StreamVersion(0));
  EXPECT_FALSE(standby->store->ReadStream("s", StreamVersion(1), 10)->empty());
  auto events = standby->store->ReadAll(GlobalPosition(0), 10);
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1].event_id, "b1");
}

TEST_F(ReplicatedLogTest, OfTwoSimultaneousPromotionsExactlyOneWins) {
  auto writer = Start("first");
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->log->Claim());
  ASSERT_TRUE(writer->store->Append("s", ExpectedVersion::Any(), {Event("a")}));
  auto b = Start("b", writer.get());
  auto c = Start("c", writer.get());
  ASSERT_TRUE(b && c);
  Status b_claim;
  Status c_claim;
  // Each promotion takes over from the epoch its standby followed (contractd promote does too).
  std::thread tb([&] { b_claim = b->log->Claim(1); });
  std::thread tc([&] { c_claim = c->log->Claim(1); });
  tb.join();
  tc.join();
  EXPECT_NE(bool(b_claim), bool(c_claim)) << (b_claim ? "" : b_claim.error().message) << " / "
                                          << (c_claim ? "" : c_claim.error().message);
  Node& winner = b_claim ? *b : *c;
  Node& loser = b_claim ? *c : *b;
  EXPECT_EQ(loser.log->status().role, LogRole::kStandby);
  EXPECT_FALSE(loser.store->Append("s", ExpectedVersion::Any(), {Event("x")}));
  EXPECT_TRUE(winner.store->Append("s", ExpectedVersion::Any(), {Event("y")}));
  EXPECT_FALSE(writer->store->Append("s", ExpectedVersion::Any(), {Event("z")}));
}

TEST_F(ReplicatedLogTest, WithTheBrokersDownNothingIsAcknowledgedAndWritesResumeAfter) {
  auto writer = Start("writer", nullptr, std::chrono::milliseconds(1500));
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->log->Claim());
  ASSERT_TRUE(writer->store->Append("s", ExpectedVersion::Any(), {Event("before")}));
  for (int32_t broker = 1; broker <= 3; ++broker) {
    rd_kafka_mock_broker_set_down(kafka_->cluster(), broker);
  }
  const auto refused = writer->store->Append("s", ExpectedVersion::Any(), {Event("during")});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kUnavailable) << refused.error().message;
  EXPECT_EQ(writer->store->Size(), 1u);
  // The next one first reads the topic again, which fails too, in a bounded time (librdkafka's
  // watermark query, once used here, waited for as long as the brokers were down).
  const auto asked = std::chrono::steady_clock::now();
  const auto again = writer->store->Append("s", ExpectedVersion::Any(), {Event("during, again")});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kUnavailable) << again.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(10));
  EXPECT_EQ(writer->store->Size(), 1u);
  for (int32_t broker = 1; broker <= 3; ++broker) {
    rd_kafka_mock_broker_set_up(kafka_->cluster(), broker);
  }
  // The refused batch may or may not be in the topic: the writer reads it again first, and a
  // retry with the same ids settles it.
  Result<eventstore::AppendResult> retried = Fail(ErrorCode::kUnavailable, "not yet");
  for (int i = 0; i < 20 && !retried; ++i) {
    retried = writer->store->Append("s", ExpectedVersion::Any(), {Event("during")});
    if (!retried) std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  ASSERT_TRUE(retried) << retried.error().message;
  ASSERT_TRUE(writer->store->Append("s", ExpectedVersion::Any(), {Event("after")}));
  EXPECT_EQ(writer->store->Size(), 3u);

  auto standby = Start("standby", writer.get());
  ASSERT_TRUE(standby);
  ASSERT_TRUE(standby->log->Follow());
  ASSERT_TRUE(WaitForSize(*standby->store, 3));
  standby->log->Stop();
  ExpectSameLog(*writer->store, *standby->store);
}

TEST_F(ReplicatedLogTest, ALeaderMovedAndRefusedProducesNeverAcknowledgeWhatTheStandbyLacks) {
  auto writer = Start("writer", nullptr, std::chrono::milliseconds(2000));
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->log->Claim());
  auto standby = Start("standby", writer.get());
  ASSERT_TRUE(standby);
  ASSERT_TRUE(standby->log->Follow());
  std::vector<std::string> acknowledged;
  for (int i = 0; i < 60; ++i) {
    if (i == 20) {
      rd_kafka_mock_partition_set_leader(kafka_->cluster(), LogTopicOf("main").c_str(), 0, 2);
    }
    if (i == 40) {
      // The cluster refuses the next produce requests (not enough replicas), which the producer
      // retries, and then one it cannot retry.
      rd_kafka_mock_push_request_errors(
          kafka_->cluster(), kProduceApiKey, 3, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS,
          RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, RD_KAFKA_RESP_ERR_INVALID_RECORD);
    }
    const std::string id = "e" + std::to_string(i);
    if (writer->store->Append("s", ExpectedVersion::Any(), {Event(id)})) acknowledged.push_back(id);
  }
  EXPECT_GE(acknowledged.size(), 50u);
  ASSERT_TRUE(WaitForSize(*standby->store, writer->store->Size()));
  for (const std::string& id : acknowledged) {
    // Every acknowledged id is in the standby's log (a replay answers it without a write).
    auto again = standby->store->ReadAll(GlobalPosition(0), 1000);
    ASSERT_TRUE(again);
    bool found = false;
    for (const auto& record : *again) found = found || record.event_id == id;
    EXPECT_TRUE(found) << id;
  }
  standby->log->Stop();
  ExpectSameLog(*writer->store, *standby->store);
}

}  // namespace
}  // namespace esign::replication
