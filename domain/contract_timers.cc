#include "domain/contract_timers.h"

#include <algorithm>

#include "base/json_read.h"
#include "base/time_text.h"

namespace esign {
namespace {

struct ReminderSettings {
  bool enabled = false;
  int64_t first_after_days = 0;
  int64_t interval_days = 0;
  int64_t max_count = 0;
};

// The snapshot is complete (ResolveNotifications), but a log written by hand may not be: what is
// missing or unreadable disables reminders rather than inventing a schedule.
ReminderSettings ReminderSettingsOf(const ContractState& state) {
  ReminderSettings settings;
  const boost::json::object* reminder = ObjectMember(state.notification_snapshot, "reminder");
  if (reminder == nullptr) return settings;
  const auto* enabled = reminder->if_contains("enabled");
  settings.enabled = enabled != nullptr && enabled->is_bool() && enabled->get_bool();
  settings.first_after_days = IntegerMember(*reminder, "firstAfterDays").value_or(0);
  settings.interval_days = IntegerMember(*reminder, "intervalDays").value_or(0);
  settings.max_count = IntegerMember(*reminder, "maxCount").value_or(0);
  if (settings.first_after_days < 1 || settings.interval_days < 1) settings.enabled = false;
  return settings;
}

std::optional<int64_t> Micros(const std::optional<std::string>& text) {
  return text ? ParseTimestampMicros(*text) : std::nullopt;
}

}  // namespace

std::optional<int64_t> NextReminderDueMicros(const ContractState& state,
                                             const Participant& signer) {
  if (!state.in_signing_flow() || !signer.signs() ||
      signer.progress != ParticipantProgress::kReady) {
    return std::nullopt;
  }
  const ReminderSettings settings = ReminderSettingsOf(state);
  if (!settings.enabled || signer.scheduled_reminder_count >= settings.max_count) {
    return std::nullopt;
  }
  if (const auto last = Micros(signer.last_reminded_at)) {
    return *last + settings.interval_days * kMicrosPerDay;
  }
  // Contracts sent before turns were recorded: the turn came no later than the sending.
  const auto since = signer.ready_since ? Micros(signer.ready_since) : Micros(state.sent_at);
  if (!since) return std::nullopt;
  return *since + settings.first_after_days * kMicrosPerDay;
}

std::optional<int64_t> ExpiryDueMicros(const ContractState& state) {
  if (!state.in_signing_flow()) return std::nullopt;
  return Micros(state.expires_at);
}

std::optional<int64_t> NextTimerDueMicros(const ContractState& state) {
  std::optional<int64_t> next = ExpiryDueMicros(state);
  for (const auto& p : state.participants) {
    if (const auto due = NextReminderDueMicros(state, p))
      next = next ? std::min(*next, *due) : *due;
  }
  return next;
}

}  // namespace esign
