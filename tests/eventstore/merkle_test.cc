#include "eventstore/merkle.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/hex.h"

namespace esign::eventstore {
namespace {

// Perfect nodes kept in a map, filled from MerkleFrontier::Append as a store would.
class MemoryNodes : public NodeSource {
 public:
  void Put(const std::vector<NewNode>& nodes) {
    for (const NewNode& node : nodes) {
      const auto [it, inserted] = nodes_.emplace(Key(node.id), node.hash);
      EXPECT_TRUE(inserted) << "node written twice: " << node.id.level << "/" << node.id.index;
    }
  }
  void Erase(NodeId id) { nodes_.erase(Key(id)); }

  Result<Hash> Get(NodeId id) const override {
    ++gets_;
    const auto it = nodes_.find(Key(id));
    if (it == nodes_.end()) return Fail(ErrorCode::kNotFound, "no such node");
    return it->second;
  }

  size_t gets() const { return gets_; }

 private:
  static std::pair<uint32_t, uint64_t> Key(NodeId id) { return {id.level, id.index}; }
  std::map<std::pair<uint32_t, uint64_t>, Hash> nodes_;
  mutable size_t gets_ = 0;
};

// The same, answering each batch in one call, to check that proofs batch their reads.
class BatchingNodes : public MemoryNodes {
 public:
  Result<std::vector<Hash>> GetMany(const std::vector<NodeId>& ids) const override {
    ++batches_;
    return NodeSource::GetMany(ids);
  }
  size_t batches() const { return batches_; }

 private:
  mutable size_t batches_ = 0;
};

// A tree whose leaves are all equal: node (level, i) is the same hash for every i, so trees of
// any size up to 2^64 - 1 can be served without storing them.
class UniformNodes : public NodeSource {
 public:
  UniformNodes() {
    levels_.push_back(LeafHash("same"));
    while (levels_.size() < 64) levels_.push_back(NodeHash(levels_.back(), levels_.back()));
  }
  Result<Hash> Get(NodeId id) const override { return levels_.at(id.level); }
  const Hash& leaf() const { return levels_[0]; }

 private:
  std::vector<Hash> levels_;
};

std::vector<Hash> LeafHashes(size_t count) {
  std::vector<Hash> leaves;
  for (size_t i = 0; i < count; ++i) leaves.push_back(LeafHash("leaf " + std::to_string(i)));
  return leaves;
}

std::vector<Hash> Prefix(const std::vector<Hash>& leaves, size_t size) {
  return {leaves.begin(), leaves.begin() + static_cast<ptrdiff_t>(size)};
}

Hash Flipped(Hash hash, size_t bit = 0) {
  hash[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  return hash;
}

// RFC 9162 section 2.1.3.1 and 2.1.4.1, transcribed recursively over leaf hashes: an
// independent reference for the proofs served from perfect nodes.
size_t Split(size_t n) { return std::bit_floor(n - 1); }

std::vector<Hash> ReferencePath(size_t m, const std::vector<Hash>& d) {
  if (d.size() <= 1) return {};
  const size_t k = Split(d.size());
  const std::vector<Hash> left(d.begin(), d.begin() + static_cast<ptrdiff_t>(k));
  const std::vector<Hash> right(d.begin() + static_cast<ptrdiff_t>(k), d.end());
  std::vector<Hash> path = m < k ? ReferencePath(m, left) : ReferencePath(m - k, right);
  path.push_back(RootFromLeafHashes(m < k ? right : left));
  return path;
}

std::vector<Hash> ReferenceSubproof(size_t m, const std::vector<Hash>& d, bool b) {
  if (m == d.size()) return b ? std::vector<Hash>{} : std::vector<Hash>{RootFromLeafHashes(d)};
  const size_t k = Split(d.size());
  const std::vector<Hash> left(d.begin(), d.begin() + static_cast<ptrdiff_t>(k));
  const std::vector<Hash> right(d.begin() + static_cast<ptrdiff_t>(k), d.end());
  std::vector<Hash> proof =
      m <= k ? ReferenceSubproof(m, left, b) : ReferenceSubproof(m - k, right, false);
  proof.push_back(RootFromLeafHashes(m <= k ? right : left));
  return proof;
}

class MerkleTreeTest : public ::testing::Test {
 protected:
  static constexpr size_t kLeaves = 70;

  void SetUp() override {
    leaves_ = LeafHashes(kLeaves);
    MerkleFrontier frontier;
    for (const Hash& leaf : leaves_) {
      std::vector<NewNode> fresh;
      frontier.Append(leaf, fresh);
      nodes_.Put(fresh);
    }
  }

  std::vector<Hash> leaves_;
  BatchingNodes nodes_;
};

TEST(MerkleHashTest, DesignVectors) {
  EXPECT_EQ(ToHex(EmptyRoot()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex(""), ToHex(EmptyRoot()));
  EXPECT_EQ(ToHex(LeafHash("")),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  EXPECT_EQ(ToHex(RootFromLeafHashes({LeafHash("a"), LeafHash("b")})),
            "b137985ff484fb600db93107c77b0365c80d78f5b429ded0fd97361d077999eb");
  EXPECT_EQ(RootFromLeafHashes({}), EmptyRoot());
}

TEST(MerkleHashTest, NodeHashIsPrefixedConcatenation) {
  const Hash left = LeafHash("a");
  const Hash right = LeafHash("b");
  std::string bytes(1, '\x01');
  bytes.append(reinterpret_cast<const char*>(left.data()), left.size());
  bytes.append(reinterpret_cast<const char*>(right.data()), right.size());
  EXPECT_EQ(NodeHash(left, right), Sha256(bytes));
  EXPECT_EQ(LeafHash("abc"), Sha256(std::string("\0abc", 4)));
}

TEST(MerkleFrontierTest, EmptyFrontier) {
  const MerkleFrontier frontier;
  EXPECT_EQ(frontier.size(), 0u);
  EXPECT_EQ(frontier.Root(), EmptyRoot());
}

TEST(MerkleFrontierTest, AppendEmitsLeafAndEveryCompletedParent) {
  const std::vector<Hash> leaves = LeafHashes(70);
  MerkleFrontier frontier;
  for (uint64_t i = 0; i < leaves.size(); ++i) {
    std::vector<NewNode> fresh;
    frontier.Append(leaves[i], fresh);
    // Leaf i completes one subtree per trailing one bit of i.
    ASSERT_EQ(fresh.size(), 1u + std::countr_one(i)) << "leaf " << i;
    for (uint32_t level = 0; level < fresh.size(); ++level) {
      const NewNode& node = fresh[level];
      EXPECT_EQ(node.id, (NodeId{level, i >> level}));
      const uint64_t begin = node.id.index << level;
      const std::vector<Hash> covered(leaves.begin() + static_cast<ptrdiff_t>(begin),
                                      leaves.begin() + static_cast<ptrdiff_t>(i + 1));
      EXPECT_EQ(covered.size(), uint64_t{1} << level);
      EXPECT_EQ(node.hash, RootFromLeafHashes(covered));
    }
    EXPECT_EQ(frontier.size(), i + 1);
    EXPECT_EQ(frontier.Root(), RootFromLeafHashes(Prefix(leaves, i + 1)));
  }
}

TEST(MerkleFrontierTest, AppendSubtreeEqualsAppendingItsLeaves) {
  const std::vector<Hash> leaves = LeafHashes(29);
  MerkleFrontier frontier;
  std::vector<NewNode> fresh;
  // 4 leaves one by one, then subtrees of 4, 8 and 4 leaves, then the rest one by one.
  for (size_t i = 0; i < 4; ++i) frontier.Append(leaves[i], fresh);
  for (const auto& [begin, level] : {std::pair{4, 2u}, std::pair{8, 3u}, std::pair{16, 2u}}) {
    const auto first = leaves.begin() + begin;
    frontier.AppendSubtree(level,
                           RootFromLeafHashes(std::vector<Hash>(first, first + (1 << level))));
    EXPECT_EQ(frontier.size(), static_cast<uint64_t>(begin + (1 << level)));
    EXPECT_EQ(frontier.Root(), RootFromLeafHashes(Prefix(leaves, frontier.size())));
  }
  for (size_t i = 20; i < leaves.size(); ++i) frontier.Append(leaves[i], fresh);
  EXPECT_EQ(frontier.Root(), RootFromLeafHashes(leaves));
}

TEST_F(MerkleTreeTest, RootAtEveryPrefix) {
  for (uint64_t size = 0; size <= kLeaves; ++size) {
    const Result<Hash> root = RootAt(nodes_, size);
    ASSERT_TRUE(root) << root.error().message;
    EXPECT_EQ(*root, RootFromLeafHashes(Prefix(leaves_, size))) << "size " << size;
  }
}

TEST_F(MerkleTreeTest, LoadAtAnySizeRootsAndContinuesIdentically) {
  MerkleFrontier reference;
  std::vector<std::vector<NewNode>> emitted;
  for (const Hash& leaf : leaves_) {
    emitted.emplace_back();
    reference.Append(leaf, emitted.back());
  }
  for (uint64_t size = 0; size <= kLeaves; ++size) {
    Result<MerkleFrontier> loaded = MerkleFrontier::Load(nodes_, size);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_EQ(loaded->size(), size);
    EXPECT_EQ(loaded->Root(), RootFromLeafHashes(Prefix(leaves_, size)));
    for (uint64_t i = size; i < kLeaves; ++i) {
      std::vector<NewNode> fresh;
      loaded->Append(leaves_[i], fresh);
      ASSERT_EQ(fresh.size(), emitted[i].size()) << "size " << size << " leaf " << i;
      for (size_t j = 0; j < fresh.size(); ++j) {
        EXPECT_EQ(fresh[j].id, emitted[i][j].id);
        EXPECT_EQ(fresh[j].hash, emitted[i][j].hash);
      }
    }
    EXPECT_EQ(loaded->Root(), reference.Root());
  }
}

TEST_F(MerkleTreeTest, InclusionProofsVerifyForEverySizeAndIndex) {
  for (uint64_t size = 1; size <= kLeaves; ++size) {
    const std::vector<Hash> prefix = Prefix(leaves_, size);
    const Hash root = RootFromLeafHashes(prefix);
    for (uint64_t index = 0; index < size; ++index) {
      const size_t batches_before = nodes_.batches();
      const Result<std::vector<Hash>> proof = InclusionProof(nodes_, index, size);
      ASSERT_TRUE(proof) << proof.error().message;
      EXPECT_LE(nodes_.batches() - batches_before, 1u);
      EXPECT_EQ(*proof, ReferencePath(index, prefix)) << "index " << index << " size " << size;
      EXPECT_TRUE(VerifyInclusion(leaves_[index], index, size, *proof, root))
          << "index " << index << " size " << size;
    }
  }
}

TEST_F(MerkleTreeTest, TamperedInclusionProofsFail) {
  for (uint64_t size = 1; size <= kLeaves; ++size) {
    const Hash root = RootFromLeafHashes(Prefix(leaves_, size));
    for (uint64_t index = 0; index < size; ++index) {
      const std::vector<Hash> proof = InclusionProof(nodes_, index, size).value();
      const Hash& leaf = leaves_[index];
      for (size_t i = 0; i < proof.size(); ++i) {
        std::vector<Hash> tampered = proof;
        tampered[i] = Flipped(tampered[i], i * 7 % 256);
        EXPECT_FALSE(VerifyInclusion(leaf, index, size, tampered, root));
      }
      EXPECT_FALSE(VerifyInclusion(Flipped(leaf), index, size, proof, root));
      EXPECT_FALSE(VerifyInclusion(leaves_[(index + 1) % kLeaves], index, size, proof, root));
      EXPECT_FALSE(VerifyInclusion(leaf, index, size, proof, Flipped(root, 255)));
      for (uint64_t other = 0; other <= size; ++other) {
        if (other != index) {
          EXPECT_FALSE(VerifyInclusion(leaf, other, size, proof, root));
        }
      }
      if (!proof.empty()) {
        EXPECT_FALSE(VerifyInclusion(leaf, index, size, Prefix(proof, proof.size() - 1), root));
      }
      std::vector<Hash> longer = proof;
      longer.push_back(root);
      EXPECT_FALSE(VerifyInclusion(leaf, index, size, longer, root));
    }
  }
}

TEST_F(MerkleTreeTest, ConsistencyProofsVerifyForEveryPair) {
  for (uint64_t new_size = 0; new_size <= 40; ++new_size) {
    const std::vector<Hash> new_leaves = Prefix(leaves_, new_size);
    const Hash new_root = RootFromLeafHashes(new_leaves);
    for (uint64_t old_size = 0; old_size <= new_size; ++old_size) {
      const Hash old_root = RootFromLeafHashes(Prefix(leaves_, old_size));
      const size_t batches_before = nodes_.batches();
      const Result<std::vector<Hash>> proof = ConsistencyProof(nodes_, old_size, new_size);
      ASSERT_TRUE(proof) << proof.error().message;
      EXPECT_LE(nodes_.batches() - batches_before, 1u);
      if (old_size != 0 && old_size != new_size) {
        EXPECT_EQ(*proof, ReferenceSubproof(old_size, new_leaves, true))
            << old_size << " -> " << new_size;
      } else {
        EXPECT_TRUE(proof->empty());
      }
      EXPECT_TRUE(VerifyConsistency(old_size, new_size, old_root, new_root, *proof))
          << old_size << " -> " << new_size;
    }
  }
}

TEST_F(MerkleTreeTest, TamperedConsistencyProofsFail) {
  for (uint64_t new_size = 1; new_size <= 40; ++new_size) {
    const Hash new_root = RootFromLeafHashes(Prefix(leaves_, new_size));
    for (uint64_t old_size = 0; old_size <= new_size; ++old_size) {
      const Hash old_root = RootFromLeafHashes(Prefix(leaves_, old_size));
      const std::vector<Hash> proof = ConsistencyProof(nodes_, old_size, new_size).value();
      for (size_t i = 0; i < proof.size(); ++i) {
        std::vector<Hash> tampered = proof;
        tampered[i] = Flipped(tampered[i], i * 13 % 256);
        EXPECT_FALSE(VerifyConsistency(old_size, new_size, old_root, new_root, tampered))
            << old_size << " -> " << new_size << " element " << i;
      }
      EXPECT_FALSE(VerifyConsistency(old_size, new_size, Flipped(old_root), new_root, proof));
      // Every tree extends the empty tree, so nothing binds the new root when old_size is 0.
      EXPECT_EQ(VerifyConsistency(old_size, new_size, old_root, Flipped(new_root), proof),
                old_size == 0);
      if (!proof.empty()) {
        EXPECT_FALSE(VerifyConsistency(old_size, new_size, old_root, new_root,
                                       Prefix(proof, proof.size() - 1)));
        EXPECT_FALSE(VerifyConsistency(old_size, new_size, old_root, new_root, {}));
      }
      std::vector<Hash> longer = proof;
      longer.push_back(new_root);
      EXPECT_FALSE(VerifyConsistency(old_size, new_size, old_root, new_root, longer));
      if (old_size > 0 && old_size < new_size) {
        EXPECT_FALSE(VerifyConsistency(new_size, old_size, new_root, old_root, proof));
      }
    }
  }
}

TEST_F(MerkleTreeTest, ConsistencyAcrossDifferentHistoriesFails) {
  // A log that rewrote leaf 3 cannot prove it extends the original tree of 5 leaves.
  std::vector<Hash> forked = leaves_;
  forked[3] = LeafHash("rewritten");
  BatchingNodes forked_nodes;
  MerkleFrontier frontier;
  for (uint64_t i = 0; i < 20; ++i) {
    std::vector<NewNode> fresh;
    frontier.Append(forked[i], fresh);
    forked_nodes.Put(fresh);
  }
  const Hash old_root = RootFromLeafHashes(Prefix(leaves_, 5));
  const std::vector<Hash> proof = ConsistencyProof(forked_nodes, 5, 20).value();
  EXPECT_FALSE(VerifyConsistency(5, 20, old_root, frontier.Root(), proof));
}

TEST_F(MerkleTreeTest, RejectsImpossibleRequests) {
  EXPECT_EQ(InclusionProof(nodes_, 5, 5).error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(InclusionProof(nodes_, 0, 0).error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(ConsistencyProof(nodes_, 6, 5).error().code, ErrorCode::kValidationFailed);
  EXPECT_FALSE(VerifyInclusion(leaves_[0], 0, 0, {}, EmptyRoot()));
  EXPECT_FALSE(VerifyConsistency(0, 1, Flipped(EmptyRoot()), leaves_[0], {}));
  EXPECT_TRUE(VerifyConsistency(0, 1, EmptyRoot(), leaves_[0], {}));
}

TEST_F(MerkleTreeTest, MissingNodesPropagateTheSourceError) {
  // Beyond the stored size, the nodes a request needs do not exist.
  EXPECT_EQ(RootAt(nodes_, kLeaves + 1).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(InclusionProof(nodes_, 0, kLeaves + 3).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(ConsistencyProof(nodes_, 3, kLeaves + 1).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(MerkleFrontier::Load(nodes_, kLeaves + 1).error().code, ErrorCode::kNotFound);

  nodes_.Erase(NodeId{6, 0});  // leaves [0, 64)
  EXPECT_EQ(RootAt(nodes_, 65).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(InclusionProof(nodes_, 64, 65).error().code, ErrorCode::kNotFound);
  EXPECT_TRUE(InclusionProof(nodes_, 0, 64));  // needs only the nodes below it
}

TEST_F(MerkleTreeTest, DefaultGetManyReadsEachNodeWithGet) {
  MemoryNodes plain;
  MerkleFrontier frontier;
  for (uint64_t i = 0; i < 11; ++i) {
    std::vector<NewNode> fresh;
    frontier.Append(leaves_[i], fresh);
    plain.Put(fresh);
  }
  const Result<std::vector<Hash>> hashes =
      plain.GetMany({NodeId{3, 0}, NodeId{1, 4}, NodeId{0, 10}});
  ASSERT_TRUE(hashes);
  EXPECT_EQ(plain.gets(), 3u);
  EXPECT_EQ((*hashes)[0], RootFromLeafHashes(Prefix(leaves_, 8)));
  EXPECT_EQ((*hashes)[2], leaves_[10]);
  EXPECT_EQ(RootAt(plain, 11).value(), frontier.Root());
  EXPECT_EQ(plain.GetMany({NodeId{0, 11}}).error().code, ErrorCode::kNotFound);
}

TEST(MerkleHugeTreeTest, ProofsAtSizesNearTwoToTheSixtyFour) {
  const UniformNodes nodes;
  const std::vector<uint64_t> sizes = {(uint64_t{1} << 40) + 12345, (uint64_t{1} << 63),
                                       (uint64_t{1} << 63) + 1, ~uint64_t{0} - 1, ~uint64_t{0}};
  for (const uint64_t size : sizes) {
    const Hash root = RootAt(nodes, size).value();
    for (const uint64_t index : {uint64_t{0}, size / 3, size - 2, size - 1}) {
      const std::vector<Hash> proof = InclusionProof(nodes, index, size).value();
      EXPECT_LE(proof.size(), 64u);
      EXPECT_TRUE(VerifyInclusion(nodes.leaf(), index, size, proof, root)) << index << "/" << size;
    }
    for (const uint64_t old_size : {uint64_t{1}, size / 2, size - 1}) {
      const std::vector<Hash> proof = ConsistencyProof(nodes, old_size, size).value();
      const Hash old_root = RootAt(nodes, old_size).value();
      EXPECT_TRUE(VerifyConsistency(old_size, size, old_root, root, proof))
          << old_size << " -> " << size;
    }
    const Result<MerkleFrontier> frontier = MerkleFrontier::Load(nodes, size);
    ASSERT_TRUE(frontier);
    EXPECT_EQ(frontier->Root(), root);
  }
}

}  // namespace
}  // namespace esign::eventstore
