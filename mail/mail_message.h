// An e-mail as the service sends it, and its RFC 5322 / MIME text (DESIGN section 15, "Messages
// are MIME"). Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace esign::mail {

struct MailAttachment {
  std::string filename;
  std::string content_type;  // "application/pdf"; anything not type/subtype: octet-stream
  std::string bytes;
  // Set: an image the HTML shows inline as "cid:<content_id>" (the organization's logo), sent in
  // multipart/related with the HTML instead of as an attachment.
  std::string content_id;
};

struct MailMessage {
  std::string from_address, from_name;  // name may be empty
  std::string to_address, to_name;
  std::string subject;     // UTF-8
  std::string text;        // UTF-8 plain text
  std::string html;        // UTF-8 HTML
  std::string message_id;  // "local@domain", without angle brackets
  int64_t date_us = 0;     // the Date header (microseconds since the epoch)
  std::vector<MailAttachment> attachments;
};

// RFC 5322 text with CRLF line endings: From, To, Subject, Date, Message-ID, MIME-Version,
// Auto-Submitted: auto-generated; multipart/alternative (text/plain then text/html, UTF-8,
// quoted-printable; the HTML in multipart/related with its inline images when it has any) inside
// multipart/mixed when there are attachments (base64, lines of 76);
// non-ASCII or long subjects and display names as RFC 2047 encoded-words; no List-Unsubscribe
// (transactional mail).
// No input can add a header or break one: control characters in subjects and names become
// spaces, and addresses, the message id, file names and content types keep only the characters
// their syntax allows. Deterministic: the boundaries derive from a hash of the content (with "=_",
// which neither quoted-printable nor base64 can produce), so a message sent again is
// byte-identical.
std::string RenderMime(const MailMessage& message);

// Whether `address` is written unchanged in To: (and From:) and can be given as it is to RCPT TO
// (MAIL FROM): visible ASCII, one "@", none of the delimiters of addresses. The service does not
// speak SMTPUTF8, so an address that is not must not be sent at all: the header would name
// another mailbox than the envelope.
bool IsTransportableAddress(std::string_view address);

}  // namespace esign::mail
