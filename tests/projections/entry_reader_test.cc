// EntryReader against the grant rows it reads: whatever the order and spacing of the ids asked
// (neighbours, far apart, rising), each read gives that contract's entry, and a contract without
// a grant row is corruption.
#include <gtest/gtest.h>

#include <string>

#include "projections/contract_index.h"
#include "projections/entry_reader.h"
#include "projections/memory_view_store.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

std::string Id(int i) {
  std::string id = std::to_string(i);
  return "ctr_" + std::string(4 - id.size(), '0') + id;
}

class EntryReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ViewCommit commit;
    for (int i = 0; i < 200; ++i) {
      if (i % 50 == 7) continue;  // no grant row
      commit.rows.insert_or_assign("contracts/" + GrantPrefix("org_a") + Id(i), "entry " + Id(i));
    }
    commit.rows.insert_or_assign("contracts/" + GrantPrefix("org_b") + Id(7), "other org");
    ASSERT_TRUE(views_.Commit(commit));
  }

  // Reads the ids in the given order; every one must give its own entry.
  void ExpectEntries(EntryReader& reader, const std::vector<int>& ids) {
    for (const int i : ids) {
      if (i % 50 == 7) continue;  // no grant row
      Result<std::string_view> entry = reader.Read(Id(i));
      ASSERT_TRUE(entry) << Id(i) << ": " << entry.error().message;
      EXPECT_EQ(*entry, "entry " + Id(i));
    }
  }

  MemoryViewStore views_;
  PrefixedReader rows_{views_, "contracts"};
};

TEST_F(EntryReaderTest, NeighboursFarApartAndRisingIdsAllReadTheirOwnEntry) {
  EntryReader reader(rows_, "org_a");
  std::vector<int> ids;
  for (int i = 199; i >= 150; --i) ids.push_back(i);    // neighbours, walked
  for (int i = 149; i >= 0; i -= 13) ids.push_back(i);  // far apart: misses, point reads
  for (int i = 8; i < 199; i += 31) ids.push_back(i);   // rising
  for (int i = 120; i >= 100; --i) ids.push_back(i);    // neighbours again
  ExpectEntries(reader, ids);
}

TEST_F(EntryReaderTest, AMissingGrantRowIsCorruptionWhileWalkingAndWhenReadingPoints) {
  for (const int before : {9, 200}) {  // 9: walking from next door; 200: the first read
    EntryReader reader(rows_, "org_a");
    if (before < 200) ExpectEntries(reader, {before, before - 1});
    Result<std::string_view> missing = reader.Read(Id(7));
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::kCorruption);
    EXPECT_NE(missing.error().message.find(Id(7)), std::string::npos);
  }
}

}  // namespace
}  // namespace esign::projections
