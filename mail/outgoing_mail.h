// One message of the outbox as its delivery record keeps it (delivery::Delivery::body): what to
// say to whom, decided when the event was read. What must be fresh or is secret is not in it:
// the hosted link and the e-mail code are derived when the message is sent (signer_secrets.h),
// the signed PDF read from the blob store, so the record holds no secret.
// The ids are derived, so an event read twice makes the same delivery, and a message sent again
// carries the same Message-ID:
//   delivery id  "mail_" + 32 hex of SHA-256(event id, recipient address in lower case)
//   lane         "<organizationId>/<address in lower case>": one recipient's messages in order
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/mail_plan.h"
#include "domain/result.h"

namespace esign::mail {

struct OutgoingMail {
  MailKind kind = MailKind::kSigningRequest;
  std::string to;  // the address
  std::string to_name;
  std::string participant_id;  // empty for the owner
  std::string title;           // the contract's
  std::string organization_name;
  std::string subject;  // kSigningRequest: configured, title substituted; empty: the default
  std::string message;
  std::string reason;          // declined, voided
  std::string signer_name;     // kSignerCompleted: who signed
  std::string signer_email;    // kSignerCompleted; may be empty
  bool mailed_link = false;    // the recipient was mailed a signing link (PlannedMail)
  std::string expires_at;      // the contract's (RFC 3339); for a code, the code's
  std::string signed_pdf_key;  // kContractCompleted with attachSignedPdf: the blob key
  std::string session_id;      // kAuthenticationCode
  int code_number = 0;         // kAuthenticationCode
  // The organization's branding when the mail was planned (DESIGN 23); empty: none.
  std::string accent_color;
  std::string logo_sha256;
  friend bool operator==(const OutgoingMail&, const OutgoingMail&) = default;
};

std::string OutgoingMailToJson(const OutgoingMail& mail);
Result<OutgoingMail> ParseOutgoingMail(std::string_view json);
std::optional<MailKind> MailKindNamed(std::string_view name);

std::string MailDeliveryId(std::string_view event_id, std::string_view address);
std::string MailLane(std::string_view organization_id, std::string_view address);
// The Message-ID of the delivery's message, without angle brackets: "<deliveryId>@<the domain of
// the sender address>".
std::string MessageIdOf(std::string_view delivery_id, std::string_view from_address);
// The organization of a lane.
std::string_view LaneOrganization(std::string_view lane);
// The address of a lane, in lower case.
std::string_view LaneAddress(std::string_view lane);

}  // namespace esign::mail
