#include "domain/mail_plan.h"

#include <algorithm>
#include <cctype>

#include "base/json_read.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/notifications.h"
#include "domain/placeholders.h"

namespace esign {
namespace {

// The event's settings in the snapshot, else the platform defaults (snapshots taken before the
// event joined the catalog).
const boost::json::object& SettingsOf(const ContractState& state, std::string_view event) {
  if (const auto* settings = ObjectMember(state.notification_snapshot, event)) return *settings;
  static const boost::json::object none;
  const auto* defaults = ObjectMember(PlatformNotificationDefaults(), event);
  return defaults != nullptr ? *defaults : none;
}

bool Enabled(const boost::json::object& settings) {
  const auto* enabled = settings.if_contains("enabled");
  return enabled == nullptr || !enabled->is_bool() || enabled->get_bool();
}

// "{{title}}" (the templates' placeholder syntax, placeholders.h) becomes the contract's title;
// other placeholders, and text that is not placeholder syntax, stay as written.
std::string WithTitle(std::string_view text, std::string_view title) {
  const auto pieces = SplitPlaceholders(text);
  if (!pieces) return std::string(text);
  std::string out;
  for (const auto& piece : *pieces) {
    if (!piece.is_placeholder) {
      out += piece.text;
    } else if (piece.text == "title") {
      out += title;
    } else {
      out += "{{" + piece.text + "}}";
    }
  }
  return out;
}

// Adds mail for `email` unless that address already has this event's mail.
class Outbox {
 public:
  void Add(PlannedMail mail) {
    if (mail.email.empty()) return;
    const std::string address = AsciiLower(mail.email);
    if (std::find(addresses_.begin(), addresses_.end(), address) != addresses_.end()) return;
    addresses_.push_back(address);
    mails_.push_back(std::move(mail));
  }
  std::vector<PlannedMail> Take() { return std::move(mails_); }

 private:
  std::vector<std::string> addresses_;
  std::vector<PlannedMail> mails_;
};

PlannedMail ToParticipant(MailKind kind, const Participant& p) {
  return PlannedMail{.kind = kind,
                     .email = p.email.value_or(""),
                     .name = p.name,
                     .participant_id = p.participant_id};
}

bool HostedSigner(const Participant& p) {
  return p.signs() && p.execution_channel == ExecutionChannel::kPlatformHosted && p.email;
}

// Signing requests to the hosted signers whose turn the event brought: named by its
// readyParticipantIds and ready since `at`, the event's time (signers already in turn, signing in
// parallel, are named again but were asked before).
void AddSigningRequests(const ContractState& state, const std::vector<std::string>& ready,
                        std::string_view at, Outbox& outbox) {
  const boost::json::object& settings = SettingsOf(state, "contract.sent");
  if (!Enabled(settings)) return;
  const std::string subject = WithTitle(StringMemberOrEmpty(settings, "subject"), state.title);
  const std::string message = WithTitle(StringMemberOrEmpty(settings, "message"), state.title);
  for (const auto& id : ready) {
    const Participant* p = state.FindParticipant(id);
    if (p == nullptr || !HostedSigner(*p) || p->signed_at || p->ready_since != at) continue;
    PlannedMail mail = ToParticipant(MailKind::kSigningRequest, *p);
    mail.hosted_link = true;
    mail.subject = subject;
    mail.message = message;
    outbox.Add(std::move(mail));
  }
}

// The recipient groups the event's settings name.
void AddGroups(const ContractState& state, std::string_view event_key, MailKind kind,
               const std::optional<OwnerContact>& owner, Outbox& outbox) {
  const boost::json::object& settings = SettingsOf(state, event_key);
  const boost::json::array* groups = ArrayMember(settings, "recipients");
  if (!Enabled(settings) || groups == nullptr) return;
  const auto* attach = settings.if_contains("attachSignedPdf");
  const bool attach_pdf = attach != nullptr && attach->is_bool() && attach->get_bool();
  for (const auto& group : *groups) {
    if (!group.is_string()) continue;
    const std::string_view name = group.get_string();
    if (name == "owner") {
      if (owner) {
        outbox.Add(PlannedMail{.kind = kind,
                               .email = owner->email,
                               .name = owner->name,
                               .attach_signed_pdf = attach_pdf});
      }
      continue;
    }
    // A draft that was never sent has told its participants nothing, and a void must not be
    // the first they hear of it: whoever creates drafts could mail any address with the reason.
    if (!state.sent_at) continue;
    for (const auto& p : state.participants) {
      const bool in_group =
          (name == "signers" && p.action == ParticipantAction::kSign) ||
          (name == "viewers" && p.action == ParticipantAction::kView) ||
          (name == "copy_recipients" && p.action == ParticipantAction::kReceiveCopy);
      if (!in_group) continue;
      PlannedMail mail = ToParticipant(kind, p);
      mail.attach_signed_pdf = attach_pdf;
      mail.mailed_link = HostedSigner(p) && p.ready_since.has_value() &&
                         Enabled(SettingsOf(state, "contract.sent"));
      outbox.Add(std::move(mail));
    }
  }
}

}  // namespace

std::string_view ToString(MailKind kind) {
  switch (kind) {
    case MailKind::kSigningRequest:
      return "signing_request";
    case MailKind::kReminder:
      return "reminder";
    case MailKind::kSignerCompleted:
      return "signer_completed";
    case MailKind::kContractCompleted:
      return "contract_completed";
    case MailKind::kContractDeclined:
      return "contract_declined";
    case MailKind::kContractVoided:
      return "contract_voided";
    case MailKind::kContractExpired:
      return "contract_expired";
    case MailKind::kAuthenticationCode:
      return "authentication_code";
  }
  return "signing_request";
}

// The events that may send mail.
using MailEvents =
    boost::mp11::mp_list<ContractSentData, SignerCompletedData, ParticipantRemindedData,
                         ContractCompletedData, ContractDeclinedData, ContractVoidedData,
                         ContractExpiredData, SignerCodeSentData>;

std::vector<PlannedMail> PlanMail(const ContractState& after, const DomainEvent& event,
                                  const std::optional<OwnerContact>& owner) {
  Outbox outbox;
  auto groups = [&](std::string_view setting, MailKind kind) {
    AddGroups(after, setting, kind, owner, outbox);
  };
  event_codec::Visit<MailEvents>(
      event.type, event.data,
      event_codec::Overloaded{
          [&](const ContractSentData& sent) {
            AddSigningRequests(after, sent.ready_participant_ids, sent.sent_at, outbox);
          },
          [&](const SignerCompletedData& signed_it) {
            AddSigningRequests(after, signed_it.ready_participant_ids, signed_it.recorded_at,
                               outbox);
            groups("signer.completed", MailKind::kSignerCompleted);
          },
          [&](const ParticipantRemindedData& reminded) {
            const Participant* p = after.FindParticipant(reminded.participant_id);
            if (p != nullptr && HostedSigner(*p) && !p->signed_at &&
                Enabled(SettingsOf(after, "reminder"))) {
              PlannedMail mail = ToParticipant(MailKind::kReminder, *p);
              mail.hosted_link = true;
              outbox.Add(std::move(mail));
            }
          },
          [&](const ContractCompletedData&) {
            groups("contract.completed", MailKind::kContractCompleted);
          },
          [&](const ContractDeclinedData&) {
            groups("contract.declined", MailKind::kContractDeclined);
          },
          [&](const ContractVoidedData&) { groups("contract.voided", MailKind::kContractVoided); },
          [&](const ContractExpiredData&) {
            groups("contract.expired", MailKind::kContractExpired);
          },
          [&](const SignerCodeSentData& code) {
            // Not a notification the settings could turn off: the signer asked for it on the page.
            const Participant* p = after.FindParticipant(code.participant_id);
            if (p != nullptr) outbox.Add(ToParticipant(MailKind::kAuthenticationCode, *p));
          }});
  return outbox.Take();
}

}  // namespace esign
