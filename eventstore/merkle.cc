#include "eventstore/merkle.h"

#include <bit>
#include <string>
#include <utility>

namespace esign::eventstore {
namespace {

Status CheckCount(size_t got, size_t wanted) {
  if (got != wanted) {
    return Fail(ErrorCode::kInternal, "node source returned " + std::to_string(got) +
                                          " hashes for " + std::to_string(wanted) + " nodes");
  }
  return {};
}

// A subtree met by the RFC 9162 recursion: leaves [begin, end), where begin is a multiple of the
// largest power of two not above end - begin. Such a range is the concatenation of the perfect
// subtrees given by the binary representation of its width, largest first, and its MTH is their
// hashes folded from the right. Only the rightmost subtree of a tree can be imperfect, so a proof
// needs at most one such fold.
struct Range {
  uint64_t begin = 0;
  uint64_t end = 0;
};

// Appends to `ids` the perfect nodes that make up `range`, largest first.
void AppendPieces(Range range, std::vector<NodeId>& ids) {
  uint64_t begin = range.begin;
  uint64_t width = range.end - range.begin;
  while (width != 0) {
    const uint32_t level = static_cast<uint32_t>(std::bit_width(width) - 1);
    ids.push_back(NodeId{level, begin >> level});
    begin += uint64_t{1} << level;
    width -= uint64_t{1} << level;
  }
}

Hash FoldFromRight(const Hash* first, size_t count) {
  Hash hash = first[count - 1];
  for (size_t i = count - 1; i-- > 0;) hash = NodeHash(first[i], hash);
  return hash;
}

// Fetches every piece of every range in one GetMany and returns the ranges' hashes in order.
Result<std::vector<Hash>> RangeHashes(const NodeSource& nodes, const std::vector<Range>& ranges) {
  std::vector<NodeId> ids;
  std::vector<size_t> piece_counts;
  piece_counts.reserve(ranges.size());
  for (const Range& range : ranges) {
    const size_t before = ids.size();
    AppendPieces(range, ids);
    piece_counts.push_back(ids.size() - before);
  }
  if (ids.empty()) return std::vector<Hash>{};
  Result<std::vector<Hash>> pieces = nodes.GetMany(ids);
  if (!pieces) return Fail(std::move(pieces.error()));
  if (Status status = CheckCount(pieces->size(), ids.size()); !status) {
    return Fail(std::move(status.error()));
  }
  std::vector<Hash> hashes;
  hashes.reserve(ranges.size());
  const Hash* next = pieces->data();
  for (size_t count : piece_counts) {
    hashes.push_back(FoldFromRight(next, count));
    next += count;
  }
  return hashes;
}

// The largest power of two strictly below n (n >= 2): the RFC 9162 split point.
uint64_t SplitPoint(uint64_t n) { return std::bit_floor(n - 1); }

// The ranges whose hashes form PATH(index, D[0:size]), deepest first.
std::vector<Range> InclusionRanges(uint64_t index, uint64_t size) {
  std::vector<Range> top_down;
  Range range{0, size};
  while (range.end - range.begin > 1) {
    const uint64_t split = range.begin + SplitPoint(range.end - range.begin);
    if (index < split) {
      top_down.push_back(Range{split, range.end});
      range.end = split;
    } else {
      top_down.push_back(Range{range.begin, split});
      range.begin = split;
    }
  }
  return {top_down.rbegin(), top_down.rend()};
}

// The ranges whose hashes form PROOF(old_size, D[0:new_size]), for 0 < old_size < new_size.
std::vector<Range> ConsistencyRanges(uint64_t old_size, uint64_t new_size) {
  std::vector<Range> top_down;
  Range range{0, new_size};
  bool whole_old_tree = true;  // the `b` of SUBPROOF: the old root itself needs no proof entry
  while (range.end != old_size) {
    const uint64_t split = range.begin + SplitPoint(range.end - range.begin);
    if (old_size <= split) {
      top_down.push_back(Range{split, range.end});
      range.end = split;
    } else {
      top_down.push_back(Range{range.begin, split});
      range.begin = split;
      whole_old_tree = false;
    }
  }
  if (!whole_old_tree) top_down.push_back(range);
  return {top_down.rbegin(), top_down.rend()};
}

Status CheckSize(uint64_t size, uint64_t limit, const char* what) {
  if (size > limit) {
    return Fail(ErrorCode::kValidationFailed, std::string(what) + " " + std::to_string(size) +
                                                  " is beyond " + std::to_string(limit));
  }
  return {};
}

// Right-shifts both until the low bit of `fn` is set or `fn` is 0 (RFC 9162 wording).
void ShiftUntilOddOrZero(uint64_t& fn, uint64_t& sn) {
  while (fn != 0 && (fn & 1) == 0) {
    fn >>= 1;
    sn >>= 1;
  }
}

}  // namespace

Hash LeafHash(std::string_view leaf) {
  static constexpr std::string_view kLeafPrefix("\0", 1);
  return Sha256Concat({kLeafPrefix, leaf});
}

Hash NodeHash(const Hash& left, const Hash& right) {
  static constexpr std::string_view kNodePrefix("\x01", 1);
  return Sha256Concat({kNodePrefix, DigestBytes(left), DigestBytes(right)});
}

Hash EmptyRoot() {
  static const Hash root = Sha256("");
  return root;
}

Result<std::vector<Hash>> NodeSource::GetMany(const std::vector<NodeId>& ids) const {
  std::vector<Hash> hashes;
  hashes.reserve(ids.size());
  for (const NodeId& id : ids) {
    Result<Hash> hash = Get(id);
    if (!hash) return Fail(std::move(hash.error()));
    hashes.push_back(*hash);
  }
  return hashes;
}

Result<MerkleFrontier> MerkleFrontier::Load(const NodeSource& nodes, uint64_t size) {
  std::vector<NodeId> ids;
  AppendPieces(Range{0, size}, ids);
  MerkleFrontier frontier;
  frontier.size_ = size;
  if (ids.empty()) return frontier;
  Result<std::vector<Hash>> hashes = nodes.GetMany(ids);
  if (!hashes) return Fail(std::move(hashes.error()));
  if (Status status = CheckCount(hashes->size(), ids.size()); !status) {
    return Fail(std::move(status.error()));
  }
  frontier.border_.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) frontier.border_.push_back(NewNode{ids[i], (*hashes)[i]});
  return frontier;
}

void MerkleFrontier::Append(const Hash& leaf_hash, std::vector<NewNode>& out) {
  NewNode node{NodeId{0, size_}, leaf_hash};
  out.push_back(node);
  // The border holds one subtree per set bit of size_, so a new leaf merges with exactly the
  // trailing subtrees of equal height, like a carry in binary addition.
  while (!border_.empty() && border_.back().id.level == node.id.level) {
    node = NewNode{NodeId{node.id.level + 1, node.id.index >> 1},
                   NodeHash(border_.back().hash, node.hash)};
    border_.pop_back();
    out.push_back(node);
  }
  border_.push_back(node);
  ++size_;
}

void MerkleFrontier::AppendSubtree(uint32_t level, const Hash& root) {
  // size_ is a multiple of 2^level, so every subtree of the border is at least this high and the
  // carries work as for a leaf.
  NewNode node{NodeId{level, size_ >> level}, root};
  while (!border_.empty() && border_.back().id.level == node.id.level) {
    node = NewNode{NodeId{node.id.level + 1, node.id.index >> 1},
                   NodeHash(border_.back().hash, node.hash)};
    border_.pop_back();
  }
  border_.push_back(node);
  size_ += uint64_t{1} << level;
}

Hash MerkleFrontier::Root() const {
  if (border_.empty()) return EmptyRoot();
  Hash root = border_.back().hash;
  for (size_t i = border_.size() - 1; i-- > 0;) root = NodeHash(border_[i].hash, root);
  return root;
}

Result<Hash> RootAt(const NodeSource& nodes, uint64_t size) {
  if (size == 0) return EmptyRoot();
  Result<std::vector<Hash>> hashes = RangeHashes(nodes, {Range{0, size}});
  if (!hashes) return Fail(std::move(hashes.error()));
  return hashes->front();
}

Result<std::vector<Hash>> InclusionProof(const NodeSource& nodes, uint64_t index, uint64_t size) {
  if (index >= size) {
    return Fail(ErrorCode::kValidationFailed, "leaf index " + std::to_string(index) +
                                                  " is not in a tree of size " +
                                                  std::to_string(size));
  }
  return RangeHashes(nodes, InclusionRanges(index, size));
}

Result<std::vector<Hash>> ConsistencyProof(const NodeSource& nodes, uint64_t old_size,
                                           uint64_t new_size) {
  if (Status status = CheckSize(old_size, new_size, "old size"); !status) {
    return Fail(std::move(status.error()));
  }
  // Every tree extends the empty tree and itself; RFC 9162 defines no proof for those cases.
  if (old_size == 0 || old_size == new_size) return std::vector<Hash>{};
  return RangeHashes(nodes, ConsistencyRanges(old_size, new_size));
}

bool VerifyInclusion(const Hash& leaf_hash, uint64_t index, uint64_t size,
                     const std::vector<Hash>& proof, const Hash& root) {
  if (index >= size) return false;
  uint64_t fn = index;
  uint64_t sn = size - 1;
  Hash r = leaf_hash;
  for (const Hash& p : proof) {
    if (sn == 0) return false;
    if ((fn & 1) != 0 || fn == sn) {
      r = NodeHash(p, r);
      ShiftUntilOddOrZero(fn, sn);
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn == 0 && r == root;
}

bool VerifyConsistency(uint64_t old_size, uint64_t new_size, const Hash& old_root,
                       const Hash& new_root, const std::vector<Hash>& proof) {
  if (old_size > new_size) return false;
  if (old_size == new_size) return proof.empty() && old_root == new_root;
  if (old_size == 0) return proof.empty() && old_root == EmptyRoot();
  if (proof.empty()) return false;

  // When the old tree is perfect its root is a node of the new tree, so the proof omits it.
  std::vector<Hash> path;
  path.reserve(proof.size() + 1);
  if (std::has_single_bit(old_size)) path.push_back(old_root);
  path.insert(path.end(), proof.begin(), proof.end());

  uint64_t fn = old_size - 1;
  uint64_t sn = new_size - 1;
  while ((fn & 1) != 0) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = path.front();
  Hash sr = path.front();
  for (size_t i = 1; i < path.size(); ++i) {
    const Hash& c = path[i];
    if (sn == 0) return false;
    if ((fn & 1) != 0 || fn == sn) {
      fr = NodeHash(c, fr);
      sr = NodeHash(c, sr);
      ShiftUntilOddOrZero(fn, sn);
    } else {
      sr = NodeHash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return fr == old_root && sr == new_root && sn == 0;
}

Hash RootFromLeafHashes(const std::vector<Hash>& leaf_hashes) {
  // MTH(D[n]) = HASH(0x01 || MTH(D[0:k]) || MTH(D[k:n])), k the largest power of two below n.
  struct Mth {
    const std::vector<Hash>& leaves;
    Hash operator()(size_t begin, size_t end) const {
      if (end - begin == 1) return leaves[begin];
      const size_t split = begin + std::bit_floor(end - begin - 1);
      return NodeHash((*this)(begin, split), (*this)(split, end));
    }
  };
  if (leaf_hashes.empty()) return EmptyRoot();
  return Mth{leaf_hashes}(0, leaf_hashes.size());
}

}  // namespace esign::eventstore
