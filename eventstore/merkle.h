// The RFC 9162 (Certificate Transparency v2) Merkle tree: hashing, proofs and their verification.
//
// Storage model: the tree is kept as its *perfect* subtrees. Node (level, index) is the root of the
// perfect subtree over leaves [index * 2^level, (index + 1) * 2^level); it is written once, when
// its last leaf arrives, and never changes. Any root, inclusion proof or consistency proof for a
// tree of size n needs O(log n) of these nodes. Pure code: no I/O; nodes come from a NodeSource.
//
// Thread safety: the free functions are thread-safe. MerkleFrontier is not; its owner serializes.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "base/sha256.h"
#include "domain/result.h"

namespace esign::eventstore {

using Hash = Sha256Digest;

Hash LeafHash(std::string_view leaf);                // SHA-256(0x00 || leaf)
Hash NodeHash(const Hash& left, const Hash& right);  // SHA-256(0x01 || left || right)
Hash EmptyRoot();                                    // SHA-256("")

// The address of a perfect subtree.
struct NodeId {
  uint32_t level = 0;
  uint64_t index = 0;
  friend bool operator==(const NodeId&, const NodeId&) = default;
};

struct NewNode {
  NodeId id;
  Hash hash;
};

// Reads stored perfect nodes. Get may be called for any node of a tree of the size asked about.
// GetMany is a batched form (one storage round trip); the default loops over Get.
class NodeSource {
 public:
  virtual ~NodeSource() = default;
  virtual Result<Hash> Get(NodeId id) const = 0;
  virtual Result<std::vector<Hash>> GetMany(const std::vector<NodeId>& ids) const;
};

// The right border of the tree: the perfect subtrees that are not yet part of a larger one.
// Appending a leaf yields the new perfect nodes to store (the leaf itself and every completed
// parent), and keeps the border so the current root costs no storage reads.
class MerkleFrontier {
 public:
  MerkleFrontier() = default;
  // Rebuilds the border of a tree of `size` leaves from stored nodes.
  static Result<MerkleFrontier> Load(const NodeSource& nodes, uint64_t size);

  // Adds a leaf (its leaf hash) and appends to `out` the nodes that became perfect.
  void Append(const Hash& leaf_hash, std::vector<NewNode>& out);
  // Adds 2^level leaves at once, given the root of their perfect subtree; size() must be a
  // multiple of 2^level. For a verifier that hashed the subtree elsewhere.
  void AppendSubtree(uint32_t level, const Hash& root);

  uint64_t size() const { return size_; }
  Hash Root() const;

 private:
  uint64_t size_ = 0;
  std::vector<NewNode> border_;  // from the highest level (leftmost) to the lowest (rightmost)
};

// Root of the first `size` leaves (size <= stored size).
Result<Hash> RootAt(const NodeSource& nodes, uint64_t size);
// RFC 9162 section 2.1.3: the audit path of leaf `index` in the tree of `size` leaves.
Result<std::vector<Hash>> InclusionProof(const NodeSource& nodes, uint64_t index, uint64_t size);
// RFC 9162 section 2.1.4: the consistency proof between sizes `old_size` <= `new_size`.
Result<std::vector<Hash>> ConsistencyProof(const NodeSource& nodes, uint64_t old_size,
                                           uint64_t new_size);

// Verification, shared by the service, the tests and the auditor's tool. They rely on nothing
// but their arguments.
bool VerifyInclusion(const Hash& leaf_hash, uint64_t index, uint64_t size,
                     const std::vector<Hash>& proof, const Hash& root);
bool VerifyConsistency(uint64_t old_size, uint64_t new_size, const Hash& old_root,
                       const Hash& new_root, const std::vector<Hash>& proof);
// MTH of RFC 9162 section 2.1.1 over leaf hashes, computed from scratch.
Hash RootFromLeafHashes(const std::vector<Hash>& leaf_hashes);

}  // namespace esign::eventstore
