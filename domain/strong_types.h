// Strong types for positions, versions and identifiers, so that one cannot be passed where
// another is expected (a stream version is not a global position).
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

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

// A string identifier with a tag, e.g. ContractId("ctr_...").
template <class Tag>
class Id {
 public:
  Id() = default;
  explicit Id(std::string value) : value_(std::move(value)) {}
  const std::string& str() const { return value_; }
  bool empty() const { return value_.empty(); }
  friend auto operator<=>(const Id&, const Id&) = default;

 private:
  std::string value_;
};

using ContractId = Id<struct ContractIdTag>;
using TemplateId = Id<struct TemplateIdTag>;
using TemplateVersionId = Id<struct TemplateVersionIdTag>;
using ParticipantId = Id<struct ParticipantIdTag>;
using OrganizationId = Id<struct OrganizationIdTag>;
using ClientId = Id<struct ClientIdTag>;
using EventId = Id<struct EventIdTag>;

}  // namespace esign

template <class Tag>
struct std::hash<esign::Id<Tag>> {
  size_t operator()(const esign::Id<Tag>& id) const { return std::hash<std::string>{}(id.str()); }
};
template <class Tag>
struct std::hash<esign::Counter<Tag>> {
  size_t operator()(esign::Counter<Tag> c) const { return std::hash<uint64_t>{}(c.value()); }
};
