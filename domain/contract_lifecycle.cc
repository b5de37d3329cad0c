// The end of a contract that will not be signed, and reminders on the way (DESIGN section 14):
// VoidContract (the sender withdraws it), RunDueTimers (the service expires it or reminds, when
// a timer of domain/contract_timers.h is due) and RemindParticipants (the sender reminds now).
#include <algorithm>

#include "base/time_text.h"
#include "domain/contract_rules.h"
#include "domain/contract_timers.h"
#include "domain/field_value.h"

namespace esign::contract_rules {
namespace {

constexpr size_t kMaxVoidReasonLength = 500;
// A participant is reminded at most once an hour on request...
constexpr int64_t kMinReminderGapMicros = kMicrosPerHour;
// ...and at most this many times in all, so a contract's stream stays bounded.
constexpr int64_t kMaxRemindersPerParticipant = 50;
// Until e-mail exists, a reminder is the event and its webhook: the integrator reminds.
constexpr std::string_view kReminderChannel = "webhook";

DomainEvent Reminded(const ContractState& state, const Participant& p, std::string_view trigger,
                     const DecisionContext& context) {
  return DomainEvent{std::string(event_type::kParticipantReminded),
                     {{"contractId", state.id},
                      {"participantId", p.participant_id},
                      {"reminderNumber", p.reminder_count + 1},
                      {"channel", kReminderChannel},
                      {"trigger", trigger},
                      {"remindedAt", context.now}}};
}

bool RemindedWithinTheHour(const Participant& p, int64_t now_micros) {
  if (!p.last_reminded_at) return false;
  const auto last = ParseTimestampMicros(*p.last_reminded_at);
  return last && now_micros - *last < kMinReminderGapMicros;
}

// Why `p` cannot be reminded on request now, if it cannot; `path` names it in the request.
Status CheckRemindable(const Participant& p, const std::string& path, int64_t now_micros) {
  if (!p.signs()) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + p.participant_id + " does not sign (action " +
                    std::string(ToString(p.action)) + ")",
                path, "not a signer");
  }
  if (p.progress == ParticipantProgress::kSigned) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + p.participant_id + " has already signed", path, "already signed");
  }
  if (p.progress != ParticipantProgress::kReady) {
    return Fail(ErrorCode::kSigningOutOfTurn,
                "it is not yet the turn of participant " + p.participant_id, path,
                "waiting for earlier signers");
  }
  if (p.reminder_count >= kMaxRemindersPerParticipant) {
    return Fail(ErrorCode::kContractStateConflict,
                "participant " + p.participant_id + " was reminded " +
                    std::to_string(kMaxRemindersPerParticipant) + " times already",
                path, "reminder limit reached");
  }
  if (RemindedWithinTheHour(p, now_micros)) {
    return Fail(ErrorCode::kReminderTooSoon,
                "participant " + p.participant_id + " was reminded at " + *p.last_reminded_at +
                    "; the next reminder is possible an hour later",
                path, "reminded less than an hour ago");
  }
  return {};
}

// participantIds: absent (null), or an array of 1..100 distinct strings.
Result<std::vector<std::string>> ReadParticipantIds(const boost::json::value& value) {
  std::vector<std::string> ids;
  if (value.is_null()) return ids;
  if (!value.is_array() || value.get_array().empty() ||
      value.get_array().size() > kMaxParticipants) {
    return Fail(ErrorCode::kValidationFailed, "invalid reminder request", "participantIds",
                "must be an array of 1.." + std::to_string(kMaxParticipants) + " participant ids");
  }
  const auto& array = value.get_array();
  for (size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_string()) {
      return Fail(ErrorCode::kValidationFailed, "invalid reminder request",
                  IndexPath("participantIds", i), "must be a string");
    }
    std::string id(array[i].get_string());
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) {
      return Fail(ErrorCode::kValidationFailed, "invalid reminder request",
                  IndexPath("participantIds", i), "duplicate participant id");
    }
    ids.push_back(std::move(id));
  }
  return ids;
}

Status RequireNotEnded(const ContractState& state, std::string_view what) {
  if (state.status == ContractStatus::kDraft || state.in_signing_flow()) return {};
  return Fail(ErrorCode::kContractStateConflict,
              std::string(what) + " only before the contract ends; it is " +
                  std::string(ToString(state.status)),
              "status", std::string(ToString(state.status)));
}

}  // namespace

Result<std::vector<DomainEvent>> DecideVoid(const ContractState& state, const VoidContract& c,
                                            const DecisionContext& context) {
  if (auto ok = RequireControl(state, context.actor); !ok) return Fail(ok.error());
  if (auto ok = RequirePermission(context.actor, "contracts:send"); !ok) return Fail(ok.error());
  Details validation;
  RejectUnknown(c.unknown, validation);
  const bool reason_missing = c.reason.is_null();
  if (reason_missing) {
    AddDetail(validation, "reason", "required");
  } else if (!c.reason.is_string() || c.reason.get_string().empty() ||
             CountCharacters(c.reason.get_string()) > static_cast<int64_t>(kMaxVoidReasonLength)) {
    AddDetail(validation, "reason",
              "must be a string of 1.." + std::to_string(kMaxVoidReasonLength) + " characters");
  }
  std::string message = reason_missing && validation.size() == 1
                            ? "a reason is required to void a contract"
                            : "invalid void request";
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, std::move(message), validation); !ok) {
    return Fail(ok.error());
  }
  if (auto ok = RequireNotEnded(state, "voiding is possible"); !ok) return Fail(ok.error());
  return std::vector<DomainEvent>{DomainEvent{std::string(event_type::kContractVoided),
                                              {{"contractId", state.id},
                                               {"reason", c.reason.get_string()},
                                               {"voidedBy", context.actor.client_id},
                                               {"voidedAt", context.now}}}};
}

Result<std::vector<DomainEvent>> DecideRemind(const ContractState& state,
                                              const RemindParticipants& c,
                                              const DecisionContext& context) {
  if (auto ok = RequireControl(state, context.actor); !ok) return Fail(ok.error());
  if (auto ok = RequirePermission(context.actor, "contracts:send"); !ok) return Fail(ok.error());
  Details validation;
  RejectUnknown(c.unknown, validation);
  if (auto ok = FailIfAny(ErrorCode::kValidationFailed, "invalid reminder request", validation);
      !ok) {
    return Fail(ok.error());
  }
  auto ids = ReadParticipantIds(c.participant_ids);
  if (!ids) return Fail(ids.error());
  if (!state.in_signing_flow()) {
    return Fail(ErrorCode::kContractStateConflict,
                "the contract is " + std::string(ToString(state.status)) + ", not out for signing",
                "status", std::string(ToString(state.status)));
  }
  const int64_t now = ParseTimestampMicros(context.now).value_or(0);
  std::vector<DomainEvent> events;
  if (!ids->empty()) {
    // Named signers: each must be remindable, or nothing is sent.
    for (size_t i = 0; i < ids->size(); ++i) {
      const Participant* p = state.FindParticipant((*ids)[i]);
      const std::string path = IndexPath("participantIds", i);
      if (p == nullptr) {
        return Fail(ErrorCode::kParticipantNotFound, "participant " + (*ids)[i] + " not found",
                    path, "unknown participant");
      }
      if (auto ok = CheckRemindable(*p, path, now); !ok) return Fail(ok.error());
      events.push_back(Reminded(state, *p, "manual", context));
    }
    return events;
  }
  // Every signer whose turn it is, but those reminded within the hour or too often.
  Status refusal;
  for (const auto& p : state.participants) {
    if (!p.signs() || p.progress != ParticipantProgress::kReady) continue;
    if (auto ok = CheckRemindable(p, "participantIds", now); !ok) {
      if (refusal) refusal = ok;
      continue;
    }
    events.push_back(Reminded(state, p, "manual", context));
  }
  if (events.empty()) {
    if (!refusal) return Fail(refusal.error());
    return Fail(ErrorCode::kContractStateConflict, "no signer is waiting", "status",
                std::string(ToString(state.status)));
  }
  return events;
}

Result<std::vector<DomainEvent>> DecideDueTimers(const ContractState& state,
                                                 const DecisionContext& context) {
  std::vector<DomainEvent> events;
  if (!state.exists()) return events;
  const auto now = ParseTimestampMicros(context.now);
  if (!now) return Fail(ErrorCode::kInternal, "unreadable decision time " + context.now);
  // Expiry first: a contract that expires is not reminded at the same moment.
  if (const auto expires = ExpiryDueMicros(state); expires && *expires <= *now) {
    events.push_back(DomainEvent{
        std::string(event_type::kContractExpired),
        {{"contractId", state.id}, {"expiresAt", *state.expires_at}, {"expiredAt", context.now}}});
    return events;
  }
  for (const auto& p : state.participants) {
    const auto due = NextReminderDueMicros(state, p);
    if (!due || *due > *now) continue;
    DomainEvent event = Reminded(state, p, "scheduled", context);
    event.data["dueAt"] = FormatTimestamp(*due);
    events.push_back(std::move(event));
  }
  return events;
}

}  // namespace esign::contract_rules
