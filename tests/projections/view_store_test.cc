// Both view stores against the same tests: point reads, prefix scans in both directions from a
// start key, atomic commits of rows with checkpoints, snapshots, and the prefixed adapters.
#include <gtest/gtest.h>

#include <memory>

#include "contract_script.h"
#include "eventstore/rocksdb_event_store.h"
#include "projections/memory_view_store.h"
#include "projections/rocksdb_view_store.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

struct MemoryViews {
  ViewStore& Open() { return store; }
  MemoryViewStore store;
};

struct RocksViews {
  ViewStore& Open() {
    auto opened = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(dir.path()));
    EXPECT_TRUE(opened);
    log = std::move(*opened);
    auto views = RocksViewStore::Open(*log);
    EXPECT_TRUE(views);
    store = std::move(*views);
    return *store;
  }
  ~RocksViews() {
    store.reset();
    if (log) log->Close();
  }
  testing::TempDir dir;
  std::unique_ptr<eventstore::RocksEventStore> log;
  std::unique_ptr<RocksViewStore> store;
};

template <class Harness>
class ViewStoreTest : public ::testing::Test {
 protected:
  ViewStore& views() {
    if (views_ == nullptr) views_ = &harness_.Open();
    return *views_;
  }
  void Put(std::initializer_list<std::pair<std::string, std::string>> rows,
           std::map<std::string, uint64_t, std::less<>> checkpoints = {}) {
    ViewCommit commit;
    for (const auto& [key, value] : rows) commit.rows.insert_or_assign(key, value);
    commit.checkpoints = std::move(checkpoints);
    ASSERT_TRUE(views().Commit(commit));
  }
  std::vector<std::string> Keys(std::string_view prefix, std::string_view start, bool reverse,
                                const RowReader* reader = nullptr) {
    std::vector<std::string> keys;
    const RowReader& rows = reader != nullptr ? *reader : views();
    EXPECT_TRUE(rows.Scan(prefix, start, reverse, [&](std::string_view key, std::string_view) {
      keys.emplace_back(key);
      return true;
    }));
    return keys;
  }

  Harness harness_;
  ViewStore* views_ = nullptr;
};

using Harnesses = ::testing::Types<MemoryViews, RocksViews>;
TYPED_TEST_SUITE(ViewStoreTest, Harnesses);

using Keys = std::vector<std::string>;

TYPED_TEST(ViewStoreTest, GetAndDelete) {
  this->Put({{"p/a", "1"}, {"p/b", "2"}});
  EXPECT_EQ(*this->views().Get("p/a"), "1");
  EXPECT_EQ(*this->views().Get("p/c"), std::nullopt);
  ViewCommit commit;
  commit.rows.insert_or_assign("p/a", std::nullopt);
  ASSERT_TRUE(this->views().Commit(commit));
  EXPECT_EQ(*this->views().Get("p/a"), std::nullopt);
  EXPECT_EQ(*this->views().Get("p/b"), "2");
}

TYPED_TEST(ViewStoreTest, ScansStayInsideThePrefix) {
  this->Put({{"a/x", ""}, {"b/1", ""}, {"b/2", ""}, {"b/3", ""}, {"b0", ""}, {"c/1", ""}});
  EXPECT_EQ(this->Keys("b/", "", false), (Keys{"b/1", "b/2", "b/3"}));
  EXPECT_EQ(this->Keys("b/", "", true), (Keys{"b/3", "b/2", "b/1"}));
  EXPECT_EQ(this->Keys("b/", "b/2", false), (Keys{"b/2", "b/3"}));
  EXPECT_EQ(this->Keys("b/", "b/2", true), (Keys{"b/2", "b/1"}));
  EXPECT_EQ(this->Keys("b/", "b/25", true), (Keys{"b/2", "b/1"}));
  EXPECT_EQ(this->Keys("b/", "b/9", true), (Keys{"b/3", "b/2", "b/1"}));
  EXPECT_EQ(this->Keys("b/", "b/0", true), Keys{});
  EXPECT_EQ(this->Keys("b/", "a", false), (Keys{"b/1", "b/2", "b/3"}));
  EXPECT_EQ(this->Keys("d/", "", true), Keys{});
  EXPECT_EQ(this->Keys("", "", false).size(), 6u);
}

TYPED_TEST(ViewStoreTest, RowsWrittenOnceCommitInKeyOrderWithTheOthers) {
  this->Put({{"one/a", "old"}, {"one/c", "gone"}, {"two/x", "kept"}});
  ViewCommit commit;
  PrefixedBatch batch(commit, this->views(), "one");
  batch.PutOnce("d", "4");
  batch.Put("b", "2");
  batch.PutOnce("a", "1");
  batch.DeleteOnce("c");
  batch.PutOnce("e", "");
  EXPECT_TRUE(commit.rows.size() == 1 && commit.once_rows.size() == 4);
  EXPECT_EQ(*batch.Get("a"), "old");  // a row written once is not read back
  commit.checkpoints["one"] = 9;
  ASSERT_TRUE(this->views().Commit(commit));
  EXPECT_EQ(this->Keys("", "", false), (Keys{"one/a", "one/b", "one/d", "one/e", "two/x"}));
  EXPECT_EQ(*this->views().Get("one/a"), "1");
  EXPECT_EQ(*this->views().Get("one/e"), "");
  EXPECT_EQ(*this->views().Checkpoint("one"), 9u);
}

TYPED_TEST(ViewStoreTest, DeletePrefixDeletesExactlyThePrefixsRows) {
  this->Put({{"a/gt/x", ""},
             {"b/gt", ""},
             {"b/gt/1", ""},
             {"b/gt/2/3", ""},
             {"b/gt0", ""},
             {"b/gs/1", ""}});
  ASSERT_TRUE(this->views().DeletePrefix("b/gt/"));
  EXPECT_EQ(this->Keys("", "", false), (Keys{"a/gt/x", "b/gs/1", "b/gt", "b/gt0"}));
  ASSERT_TRUE(this->views().DeletePrefix("c/"));  // nothing to delete
  EXPECT_EQ(this->Keys("", "", false).size(), 4u);
}

TYPED_TEST(ViewStoreTest, ScanStopsWhenTheVisitorSaysSo) {
  this->Put({{"p/1", ""}, {"p/2", ""}, {"p/3", ""}});
  int seen = 0;
  ASSERT_TRUE(this->views().Scan("p/", "", true,
                                 [&](std::string_view, std::string_view) { return ++seen < 2; }));
  EXPECT_EQ(seen, 2);
}

TYPED_TEST(ViewStoreTest, CheckpointsCommitWithRows) {
  EXPECT_EQ(*this->views().Checkpoint("p"), 0u);
  this->Put({{"p/a", "1"}}, {{"p", 7}, {"q", 3}});
  EXPECT_EQ(*this->views().Checkpoint("p"), 7u);
  EXPECT_EQ(*this->views().Checkpoint("q"), 3u);
  this->Put({}, {{"p", 9}});
  EXPECT_EQ(*this->views().Checkpoint("p"), 9u);
  EXPECT_EQ(*this->views().Checkpoint("q"), 3u);
}

TYPED_TEST(ViewStoreTest, SnapshotDoesNotSeeLaterCommits) {
  this->Put({{"p/a", "1"}});
  {
    std::unique_ptr<const RowReader> snapshot = this->views().Snapshot();
    EXPECT_EQ(*snapshot->Get("p/a"), "1");
    if constexpr (std::is_same_v<TypeParam, RocksViews>) {
      // The memory twin holds commits back while a snapshot lives; RocksDB does not.
      this->Put({{"p/a", "2"}, {"p/b", "3"}});
      EXPECT_EQ(*snapshot->Get("p/a"), "1");
      EXPECT_EQ(this->Keys("p/", "", false, snapshot.get()), Keys{"p/a"});
    }
  }
  this->Put({{"p/a", "2"}});
  EXPECT_EQ(*this->views().Get("p/a"), "2");
}

TYPED_TEST(ViewStoreTest, PrefixedAdaptersKeepProjectionsApart) {
  this->Put({{"one/k", "mine"}, {"one2/k", "other"}, {"two/k", "theirs"}});
  PrefixedReader one(this->views(), "one");
  EXPECT_EQ(*one.Get("k"), "mine");
  std::vector<std::string> keys;
  ASSERT_TRUE(one.Scan("", "", false, [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  }));
  EXPECT_EQ(keys, Keys{"k"});

  ViewCommit commit;
  RowWrites& writes = commit.rows;
  PrefixedBatch batch(commit, this->views(), "one");
  EXPECT_FALSE(batch.touched());
  EXPECT_EQ(*batch.Get("k"), "mine");  // committed
  batch.Put("k", "new");
  batch.Put("j", std::string("added"));
  EXPECT_EQ(*batch.Get("k"), "new");  // the batch's own write first
  batch.Delete("j");
  EXPECT_EQ(*batch.Get("j"), std::nullopt);
  EXPECT_TRUE(batch.touched());
  EXPECT_EQ(writes.size(), 2u);
  EXPECT_TRUE(writes.contains("one/k"));
  EXPECT_EQ(*this->views().Get("one/k"), "mine");  // nothing committed yet
}

// Where a backward cursor lands from each seek and step; "-" when it is not valid.
std::vector<std::string> Walk(RowCursor& cursor, std::string_view seek, int steps) {
  std::vector<std::string> landed;
  EXPECT_TRUE(cursor.SeekAtOrBelow(seek));
  for (int i = 0;; ++i) {
    landed.emplace_back(cursor.Valid() ? std::string(cursor.key()) : "-");
    if (i == steps || !cursor.Valid()) break;
    EXPECT_TRUE(cursor.Prev());
  }
  return landed;
}

TYPED_TEST(ViewStoreTest, CursorsMoveBackwardsInsideThePrefix) {
  this->Put({{"o/z", "1"}, {"p/a", "2"}, {"p/b", "3"}, {"p/c", "4"}, {"p0", "5"}, {"q/x", "6"}});
  std::unique_ptr<RowCursor> cursor = this->views().OpenCursor("p/");
  EXPECT_EQ(Walk(*cursor, "", 9), (Keys{"p/c", "p/b", "p/a", "-"}));
  EXPECT_EQ(Walk(*cursor, "p/bb", 0), Keys{"p/b"});
  EXPECT_EQ(cursor->value(), "3");
  EXPECT_EQ(Walk(*cursor, "p/b", 1), (Keys{"p/b", "p/a"}));  // at or below
  EXPECT_EQ(Walk(*cursor, "p/", 0), Keys{"-"});              // below every key
  EXPECT_EQ(Walk(*cursor, "p/zz", 0), Keys{"p/c"});
  EXPECT_EQ(Walk(*cursor, "q/x", 0), Keys{"p/c"});  // past the prefix: its greatest key
  EXPECT_EQ(Walk(*this->views().OpenCursor("r/"), "", 0), Keys{"-"});

  // Through a snapshot and through a projection's reader (keys without the projection's name).
  std::unique_ptr<const RowReader> snapshot = this->views().Snapshot();
  EXPECT_EQ(Walk(*snapshot->OpenCursor("p/"), "p/c", 1), (Keys{"p/c", "p/b"}));
  snapshot.reset();
  PrefixedReader p(this->views(), "p");
  EXPECT_EQ(Walk(*p.OpenCursor(""), "b", 9), (Keys{"b", "a", "-"}));
  std::unique_ptr<RowCursor> in_p = p.OpenCursor("");
  ASSERT_TRUE(in_p->SeekAtOrBelow("a"));
  EXPECT_EQ(in_p->value(), "2");
  EXPECT_EQ(Walk(*p.OpenCursor(""), "", 0), Keys{"c"});
}

}  // namespace
}  // namespace esign::projections
