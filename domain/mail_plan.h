// Who is told what by e-mail (DESIGN section 15), decided from one event of a contract and the
// contract's state after it, under the notification settings the contract snapshotted:
//   contract.sent, and signer.completed when it brings the next signers' turn: a signing request
//       with a fresh hosted link to each platform_hosted signer whose turn came ("contract.sent":
//       enabled, subject, message; "{{title}}" in them is the contract's title);
//   participant.reminded: the same link again to that signer ("reminder": enabled);
//   signer.completed, contract.completed (attachSignedPdf), contract.declined, contract.voided,
//       contract.expired: to the recipient groups their settings name;
//   signer.authentication_code_sent: the code to the signer who asked for it on the hosted page
//       (the outbox derives it from the event's session and code number).
// Groups: owner (the organization's notification address, when it has one), signers, viewers and
// copy_recipients (the participants that sign, view, receive a copy). Integrator- and
// provider-managed signers get no link; a participant without an e-mail address gets nothing;
// one address gets one message per event. A contract never sent mails none of its participants
// (a void of a draft goes to the owner at most: the sender's own address). Settings missing from an
// old snapshot take the platform defaults. Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract_events.h"
#include "domain/contract_state.h"

namespace esign {

enum class MailKind {
  kSigningRequest,
  kReminder,
  kSignerCompleted,
  kContractCompleted,
  kContractDeclined,
  kContractVoided,
  kContractExpired,
  kAuthenticationCode,  // an e-mail one-time password for the hosted page
};
// "signing_request", "reminder", "signer_completed", "contract_completed", ...
std::string_view ToString(MailKind kind);

// The organization's notification address (contractd organizations set).
struct OwnerContact {
  std::string email;
  std::string name;
};

struct PlannedMail {
  MailKind kind = MailKind::kSigningRequest;
  std::string email;
  std::string name;
  std::string participant_id;  // empty for the owner
  bool hosted_link = false;    // a fresh hosted signing link for this participant goes in it
  bool attach_signed_pdf = false;
  // The participant is a hosted signer who was mailed a signing link (their turn came while
  // signing requests were on): only they are told, when the contract ends, that links stop.
  bool mailed_link = false;
  std::string subject;  // signing requests: the configured subject, title substituted
  std::string message;  // signing requests: the sender's message, title substituted; may be empty
};

std::vector<PlannedMail> PlanMail(const ContractState& after, const DomainEvent& event,
                                  const std::optional<OwnerContact>& owner);

}  // namespace esign
