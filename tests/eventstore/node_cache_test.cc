// The in-memory ledger nodes: a byte limit drops the lowest level held, never a level above it.
#include "eventstore/node_cache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace esign::eventstore {
namespace {

// Every node of a perfect tree over `leaves` leaves (a power of two), level by level, as a store
// adds them; each hash's first byte names its level and its second its index.
std::vector<NewNode> TreeNodes(uint64_t leaves) {
  std::vector<NewNode> nodes;
  for (uint32_t level = 0; (uint64_t{1} << level) <= leaves; ++level) {
    for (uint64_t index = 0; index < (leaves >> level); ++index) {
      Hash hash{};
      hash[0] = static_cast<uint8_t>(level);
      hash[1] = static_cast<uint8_t>(index);
      nodes.push_back({NodeId{level, index}, hash});
    }
  }
  return nodes;
}

TEST(NodeCacheTest, WithoutALimitEveryLevelStays) {
  NodeCache cache(0);
  ASSERT_TRUE(cache.Add(TreeNodes(16)));
  EXPECT_EQ(cache.node_count(), 31u);
  EXPECT_EQ(cache.min_level(), 0u);
  EXPECT_EQ(cache.Find(NodeId{0, 15}).value()[1], 15);
}

TEST(NodeCacheTest, PastItsLimitTheLowestLevelsGoAndTheUpperOnesStay) {
  // Room for 10 hashes: of the 31 nodes over 16 leaves, levels 2 to 4 (4 + 2 + 1) fit.
  NodeCache cache(0, 10 * sizeof(Hash));
  ASSERT_TRUE(cache.Add(TreeNodes(16)));
  EXPECT_EQ(cache.min_level(), 2u);
  EXPECT_EQ(cache.node_count(), 7u);
  EXPECT_FALSE(cache.Find(NodeId{0, 0}));
  EXPECT_FALSE(cache.Find(NodeId{1, 3}));
  const std::optional<Hash> kept = cache.Find(NodeId{2, 3});
  ASSERT_TRUE(kept);
  EXPECT_EQ((*kept)[0], 2);
  EXPECT_EQ((*kept)[1], 3);
  EXPECT_EQ(cache.Find(NodeId{4, 0}).value()[0], 4);
  // Nodes of a dropped level are ignored from then on; the levels held keep growing.
  const std::vector<NewNode> more = {{NodeId{0, 16}, Hash{}}, {NodeId{2, 4}, Hash{}}};
  ASSERT_TRUE(cache.Add(more));
  EXPECT_FALSE(cache.Find(NodeId{0, 16}));
  EXPECT_TRUE(cache.Find(NodeId{2, 4}));
  EXPECT_EQ(cache.node_count(), 8u);
}

TEST(NodeCacheTest, TheTopLevelStaysEvenAboveTheLimit) {
  NodeCache cache(0, 1);
  ASSERT_TRUE(cache.Add(TreeNodes(8)));
  EXPECT_EQ(cache.min_level(), 3u);
  EXPECT_EQ(cache.node_count(), 1u);
  EXPECT_TRUE(cache.Find(NodeId{3, 0}));
}

TEST(NodeCacheTest, StartsForALogAtTheLevelThatFitsHalfItsLimit) {
  // A million leaves hold about 2,000,000 hashes from level 0, 500,000 from level 2.
  NodeCache cache(0, 1'000'000 * sizeof(Hash));
  cache.StartFor(1'000'000);
  EXPECT_EQ(cache.min_level(), 2u);
  NodeCache unlimited(0);
  unlimited.StartFor(1'000'000);
  EXPECT_EQ(unlimited.min_level(), 0u);
  NodeCache configured(3, 1'000'000 * sizeof(Hash));
  configured.StartFor(10);
  EXPECT_EQ(configured.min_level(), 3u);
}

}  // namespace
}  // namespace esign::eventstore
