// Strong types for positions and versions, so that one cannot be passed where the other is
// expected (a stream version is not a global position). Identifiers stay strings, told apart by
// their prefixes (ctr_, prt_, whe_, ...): see docs/architecture.md, Decisions.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace esign {

// An unsigned counter with a tag that makes each kind its own type.
template <class Tag>
class Counter {
 public:
  constexpr Counter() = default;
  constexpr explicit Counter(uint64_t value) : value_(value) {}
  constexpr uint64_t value() const { return value_; }
  constexpr Counter next() const { return Counter(value_ + 1); }
  friend constexpr auto operator<=>(Counter, Counter) = default;

 private:
  uint64_t value_ = 0;
};

// Position of an event in the global log, 0-based; equal to its leaf index in the ledger.
using GlobalPosition = Counter<struct GlobalPositionTag>;
// Version of a stream: 0 before its first event, n after its n-th event.
using StreamVersion = Counter<struct StreamVersionTag>;

}  // namespace esign

template <class Tag>
struct std::hash<esign::Counter<Tag>> {
  size_t operator()(esign::Counter<Tag> c) const { return std::hash<uint64_t>{}(c.value()); }
};
