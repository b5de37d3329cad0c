#include "projections/contract_as_of.h"

#include <charconv>
#include <string>
#include <vector>

#include "base/time_text.h"
#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "projections/contract_index.h"

namespace esign::projections {
namespace {

// A page of the stream: large enough that a whole completed contract is one read, small enough
// that a point early in a long stream reads little past it.
constexpr size_t kStreamPage = 256;

std::unexpected<Error> BadAsOf(std::string issue) {
  return Fail(ErrorCode::kValidationFailed, "invalid query parameters", "asOf", std::move(issue));
}

bool AllDigits(std::string_view text) {
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Whether `event` lies at or before `point`.
bool Within(const eventstore::EventRecord& event, const LogPoint& point) {
  if (const auto* position = std::get_if<GlobalPosition>(&point.at)) {
    return event.position <= *position;
  }
  return event.recorded_at_us <= std::get<int64_t>(point.at);
}

}  // namespace

Result<LogPoint> ParseLogPoint(std::string_view text) {
  if (text.empty()) return BadAsOf("must be a log position or an RFC 3339 time; it is empty");
  if (text.front() == '-' && text.size() > 1 && AllDigits(text.substr(1))) {
    return BadAsOf("a log position is never negative");
  }
  if (AllDigits(text)) {
    uint64_t position = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), position);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return BadAsOf("the log position is too large");
    }
    return LogPoint{GlobalPosition(position)};
  }
  // A date alone is a day, not a point: RFC 3339 date-times only.
  const std::optional<int64_t> micros =
      text.size() > 10 ? ParseTimestampMicros(text) : std::nullopt;
  if (!micros) {
    return BadAsOf(
        "must be a log position (an unsigned integer) or an RFC 3339 time such as "
        "2026-11-20T10:00:00Z");
  }
  return LogPoint{*micros};
}

Result<ContractAt> ContractAsOf::At(std::string_view contract_id, const LogPoint& point) const {
  if (const auto* position = std::get_if<GlobalPosition>(&point.at)) {
    const uint64_t size = log_->Size();
    if (position->value() >= size) {
      return BadAsOf("beyond the end of the log (the last position is " +
                     (size == 0 ? std::string("none") : std::to_string(size - 1)) + ")");
    }
  } else if (std::get<int64_t>(point.at) > clock_->NowMicros()) {
    return BadAsOf("a time in the future");
  }

  const std::string stream_id = ContractStreamId(contract_id);
  std::vector<eventstore::EventRecord> within;
  for (bool more = true; more;) {
    Result<std::vector<eventstore::EventRecord>> page =
        log_->ReadStream(stream_id, StreamVersion(within.size() + 1), kStreamPage);
    if (!page) return Fail(page.error());
    more = page->size() == kStreamPage;
    for (eventstore::EventRecord& record : *page) {
      // A stream's events are in log order, and recorded times never go back: the events within
      // the point are a prefix of the stream.
      if (!Within(record, point)) {
        more = false;
        break;
      }
      within.push_back(std::move(record));
    }
  }
  if (within.empty()) return ContractNotFound();

  Result<std::vector<DomainEvent>> events = eventstore::ToDomainEvents(within);
  if (!events) return Fail(events.error());
  ContractState state = Replay(*events);
  if (!state.exists()) return ContractNotFound();
  return ContractAt{std::move(state), within.back().position, within.back().recorded_at_us};
}

Result<ContractAt> ContractAsOf::ReadableAt(std::string_view contract_id, const LogPoint& point,
                                            std::string_view organization_id) const {
  Result<ContractAt> then = At(contract_id, point);
  if (!then) return then;
  if (organization_id.empty() || AccessRolesOf(then->state, organization_id) == 0) {
    return ContractNotFound();
  }
  return then;
}

}  // namespace esign::projections
