// The words of each message the service mails (DESIGN section 15): a subject, a plain-text part
// and an HTML part that say the same. Every value comes from clients (titles, names, messages,
// reasons) and is escaped in the HTML; styles are inline, as mail clients drop style sheets; the
// link is a button and also plain text, for clients that block styles. Nothing secret is in a
// message but the recipient's own link or code.
// Pure functions; safe from any thread.
#pragma once

#include <string>

#include "domain/mail_plan.h"

namespace esign::mail {

struct MailContext {
  MailKind kind = MailKind::kSigningRequest;
  std::string recipient_name;  // may be empty
  std::string contract_title;
  std::string organization_name;  // the sender organization; empty: "the sender"
  std::string signer_name;        // kSignerCompleted: who signed; may be empty
  std::string signer_email;       // kSignerCompleted; may be empty
  bool mailed_link = false;       // kContractVoided: the recipient was mailed a signing link
  std::string link;               // kSigningRequest, kReminder: the hosted signing link
  std::string subject;  // kSigningRequest: configured subject (title substituted); empty: default
  std::string message;  // kSigningRequest: the sender's message; may be empty
  std::string code;     // kAuthenticationCode: the 6 digits
  int code_valid_minutes = 10;
  std::string reason;  // kContractDeclined / kContractVoided: the reason given; may be empty
  // kSigningRequest / kReminder: the contract's expiry; kAuthenticationCode: the code's. RFC 3339;
  // may be empty. Every time a message shows is in UTC and says so.
  std::string expires_at;
  bool signed_pdf_attached = false;  // kContractCompleted
  // The organization's branding (DESIGN 23): its accent colour ("#rrggbb", checked for contrast
  // when it was set) for the button and links, and the Content-ID of its logo sent inline.
  // Empty: the defaults, no logo.
  std::string accent_color;
  std::string logo_content_id;
};

struct MailText {
  std::string subject, text, html;
};

MailText ComposeMail(const MailContext& context);

// Text made safe for HTML content and attribute values (& < > " ').
std::string EscapeHtml(std::string_view text);

}  // namespace esign::mail
