// RowWalker against the rows it reads: whatever the order and spacing of the keys asked
// (neighbours, far apart, rising), each read gives that key's row, a missing row is nullopt
// whether the walker was walking or reading points, and no row of another prefix is reached.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "projections/memory_view_store.h"
#include "projections/row_walker.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

std::string Id(int i) {
  std::string id = std::to_string(i);
  return "ctr_" + std::string(4 - id.size(), '0') + id;
}

bool Missing(int i) { return i % 50 == 7; }

class RowWalkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ViewCommit commit;
    for (int i = 0; i < 200; ++i) {
      if (!Missing(i)) commit.rows.insert_or_assign("contracts/g/org_a/" + Id(i), "row " + Id(i));
    }
    commit.rows.insert_or_assign("contracts/g/org_b/" + Id(7), "another prefix");
    ASSERT_TRUE(views_.Commit(commit));
  }

  // Reads the ids in the given order: each gives its own row, or none where there is none.
  static void ExpectRows(RowWalker& walker, const std::vector<int>& ids) {
    for (const int i : ids) {
      Result<std::optional<std::string_view>> row = walker.Read(Id(i));
      ASSERT_TRUE(row) << Id(i) << ": " << row.error().message;
      if (Missing(i)) {
        EXPECT_FALSE(*row) << Id(i);
      } else {
        ASSERT_TRUE(*row) << Id(i);
        EXPECT_EQ(**row, "row " + Id(i));
      }
    }
  }

  MemoryViewStore views_;
  PrefixedReader rows_{views_, "contracts"};
};

TEST_F(RowWalkerTest, NeighboursFarApartAndRisingKeysAllReadTheirOwnRow) {
  RowWalker walker(rows_, "g/org_a/");
  std::vector<int> ids;
  for (int i = 199; i >= 150; --i) ids.push_back(i);    // neighbours, walked (157 is missing)
  for (int i = 149; i >= 0; i -= 13) ids.push_back(i);  // far apart: misses, then point reads
  for (int i = 8; i < 199; i += 31) ids.push_back(i);   // rising
  for (int i = 120; i >= 100; --i) ids.push_back(i);    // neighbours again (107 is missing)
  ExpectRows(walker, ids);
}

TEST_F(RowWalkerTest, AMissingRowIsNoneWhetherWalkingOrNot) {
  RowWalker first_read(rows_, "g/org_a/");
  ExpectRows(first_read, {7, 6});
  RowWalker walking(rows_, "g/org_a/");
  ExpectRows(walking, {9, 8, 7, 6, 5});
}

}  // namespace
}  // namespace esign::projections
