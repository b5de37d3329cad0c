#include "projections/contract_as_of.h"

#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "base/time_text.h"
#include "domain/contract.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "projections/contract_index.h"

namespace esign::projections {
namespace {

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

  // A stream's events are in log order, and recorded times never go back: the events within the
  // point are a prefix of the stream, found by a binary search over its versions.
  const std::string stream_id = ContractStreamId(contract_id);
  Result<StreamVersion> current = log_->CurrentVersion(stream_id);
  if (!current) return Fail(current.error());
  uint64_t low = 0;                      // a version known to be within the point (0: none)
  uint64_t high = current->value() + 1;  // a version known to be past it
  std::optional<eventstore::EventRecord> last;
  while (high - low > 1) {
    const uint64_t middle = low + (high - low) / 2;
    Result<std::vector<eventstore::EventRecord>> one =
        log_->ReadStream(stream_id, StreamVersion(middle), 1);
    if (!one) return Fail(one.error());
    if (one->empty() || one->front().version.value() != middle) {
      return Fail(ErrorCode::kCorruption,
                  "stream " + stream_id + " has no version " + std::to_string(middle));
    }
    if (Within(one->front(), point)) {
      low = middle;
      last = std::move(one->front());
    } else {
      high = middle;
    }
  }
  if (low == 0) return ContractNotFound();

  Result<ContractSnapshot> then = states_->AtVersion(contract_id, low);
  if (!then) return Fail(then.error());
  if (!then->state.exists()) return ContractNotFound();
  return ContractAt{std::move(then->state), last->position, last->recorded_at_us};
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
