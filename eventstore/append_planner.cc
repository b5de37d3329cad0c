#include "eventstore/append_planner.h"

#include "eventstore/stored_record.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace esign::eventstore {

Status CheckAppend(std::string_view stream_id, const std::vector<NewEvent>& events) {
  if (stream_id.empty() || stream_id.find('\0') != std::string_view::npos) {
    // The stream index separates the id from the version with a 0x00 byte.
    return Fail(ErrorCode::kValidationFailed, "invalid stream id", "streamId",
                "must be non-empty and contain no NUL byte");
  }
  if (events.empty()) {
    return Fail(ErrorCode::kValidationFailed, "an append needs at least one event", "events",
                "empty");
  }
  for (const NewEvent& event : events) {
    if (event.event_id.empty()) {
      return Fail(ErrorCode::kValidationFailed, "every event needs an id", "eventId", "empty");
    }
    if (Status data = CheckEventData(event.data); !data) return data;
  }
  if (events.size() > 1) {
    std::unordered_set<std::string_view> seen;
    for (const NewEvent& event : events) {
      if (!seen.insert(event.event_id).second) {
        return Fail(ErrorCode::kValidationFailed, "event id repeated within one append", "eventId",
                    event.event_id);
      }
    }
  }
  return {};
}

AppendPlanner::AppendPlanner(const AppendIndex& index, size_t max_cached_streams)
    : index_(index), max_cached_streams_(max_cached_streams) {}

void AppendPlanner::Plan(std::span<const AppendInput> inputs, uint64_t next_position,
                         int64_t now_us, BatchPlan& plan) {
  plan.appends.clear();
  plan.records.clear();
  plan.id_entries.clear();
  pending_versions_.clear();
  pending_ids_.clear();
  ids_.clear();
  last_recorded_at_ = std::max(last_recorded_at_, now_us);

  for (const AppendInput& input : inputs) {
    for (const NewEvent& event : *input.events) ids_.push_back(event.event_id);
  }
  // Pending ids point into the records, which therefore must never move.
  plan.records.reserve(ids_.size());
  plan.id_entries.reserve(ids_.size());
  // One batched look-up for the whole batch rather than one per event.
  if (Status looked_up = index_.LookupEventIds(ids_, stored_); !looked_up) {
    for (size_t i = 0; i < inputs.size(); ++i) plan.appends.push_back({Fail(looked_up.error())});
    return;
  }

  size_t offset = 0;
  for (const AppendInput& input : inputs) {
    const size_t count = input.events->size();
    const std::span<const std::optional<EventIdEntry>> stored(stored_.data() + offset, count);
    offset += count;
    const size_t first_record = plan.records.size();
    Result<AppendResult> outcome = PlanOne(input, stored, next_position, last_recorded_at_, plan);
    plan.appends.push_back(
        PlannedAppend{std::move(outcome), first_record, plan.records.size() - first_record});
  }
}

std::optional<AppendPlanner::PendingId> AppendPlanner::Find(
    std::string_view id, const std::optional<EventIdEntry>& stored) const {
  if (stored) return PendingId{*stored, SIZE_MAX};
  const auto it = pending_ids_.find(id);
  if (it == pending_ids_.end()) return std::nullopt;
  return it->second;
}

Result<AppendResult> AppendPlanner::PlanOne(const AppendInput& input,
                                            std::span<const std::optional<EventIdEntry>> stored,
                                            uint64_t next_position, int64_t now_us,
                                            BatchPlan& plan) {
  std::vector<NewEvent>& events = *input.events;
  const size_t count = events.size();

  if (const std::optional<PendingId> first = Find(events[0].event_id, stored[0])) {
    // A retry: every id must come from one earlier append, in the same order, on this stream.
    bool same_append = true;
    StreamVersion last_version;
    for (size_t k = 0; k < count && same_append; ++k) {
      const std::optional<PendingId> entry = k == 0 ? first : Find(events[k].event_id, stored[k]);
      same_append = entry && entry->entry.append_first == first->entry.append_first &&
                    entry->entry.position.value() == first->entry.position.value() + k;
      if (same_append) last_version = entry->entry.version;
    }
    if (same_append) {
      if (first->record != SIZE_MAX) {
        same_append = plan.records[first->record].stream_id == input.stream_id;
      } else {
        Result<std::optional<GlobalPosition>> at =
            index_.PositionAt(input.stream_id, first->entry.version);
        if (!at) return Fail(at.error());
        same_append = *at == first->entry.position;
      }
    }
    if (!same_append) {
      return Fail(ErrorCode::kStreamVersionConflict,
                  "event id '" + events[0].event_id + "' was stored by a different append (at " +
                      "position " + std::to_string(first->entry.position.value()) + ")");
    }
    return AppendResult{first->entry.position, last_version, count, true};
  }
  for (size_t k = 1; k < count; ++k) {
    if (const std::optional<PendingId> entry = Find(events[k].event_id, stored[k])) {
      return Fail(ErrorCode::kStreamVersionConflict,
                  "event id '" + events[k].event_id + "' is already stored (at position " +
                      std::to_string(entry->entry.position.value()) +
                      "); an append cannot mix stored and new event ids");
    }
  }

  Result<StreamVersion> current = VersionOf(input.stream_id);
  if (!current) return Fail(current.error());
  if (!input.expected.Admits(*current)) {
    return Fail(ErrorCode::kStreamVersionConflict,
                "stream '" + std::string(input.stream_id) + "' is at version " +
                    std::to_string(current->value()) + ", which the expected version rejects");
  }

  const GlobalPosition first_position(next_position + plan.records.size());
  for (size_t k = 0; k < count; ++k) {
    NewEvent& event = events[k];
    EventRecord& record = plan.records.emplace_back();
    record.position = GlobalPosition(first_position.value() + k);
    record.stream_id = input.stream_id;
    record.version = StreamVersion(current->value() + k + 1);
    record.event_id = std::move(event.event_id);
    record.type = std::move(event.type);
    record.schema_version = event.schema_version;
    record.recorded_at_us = now_us;
    record.actor = std::move(event.actor);
    record.data = std::move(event.data);
    const EventIdEntry entry{record.position, first_position, record.version};
    plan.id_entries.push_back(entry);
    pending_ids_.emplace(record.event_id, PendingId{entry, plan.records.size() - 1});
  }
  const StreamVersion after(current->value() + count);
  pending_versions_[input.stream_id] = after.value();
  return AppendResult{first_position, after, count, false};
}

Result<StreamVersion> AppendPlanner::VersionOf(std::string_view stream_id) {
  if (const auto it = pending_versions_.find(stream_id); it != pending_versions_.end()) {
    return StreamVersion(it->second);
  }
  if (const auto it = versions_.find(stream_id); it != versions_.end()) {
    return StreamVersion(it->second);
  }
  // Not cached yet; the stored version is current because only the owner of this planner writes.
  return index_.LoadVersion(stream_id);
}

void AppendPlanner::Applied(std::span<const EventRecord> records) {
  if (versions_.size() + records.size() > max_cached_streams_) versions_.clear();
  for (const EventRecord& record : records) {
    last_recorded_at_ = std::max(last_recorded_at_, record.recorded_at_us);
    const auto it = versions_.find(record.stream_id);
    if (it != versions_.end()) {
      it->second = record.version.value();
    } else {
      versions_.emplace(record.stream_id, record.version.value());
    }
  }
}

}  // namespace esign::eventstore
