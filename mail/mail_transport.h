// MailTransport: how one finished MIME message leaves the service (DESIGN section 15,
// "Transport"): to a mail server over SMTP (smtp_transport.h) or into .eml files
// (eml_file_transport.h). The outbox decides what to send and when; a transport only carries.
// Thread safety: implementations allow Send, Check and Describe from several threads at once.
#pragma once

#include <string>
#include <string_view>

#include "delivery/attempt_outcome.h"
#include "domain/result.h"

namespace esign::mail {

class MailTransport {
 public:
  virtual ~MailTransport() = default;

  // One message to one recipient. kDelivered when the whole transaction was accepted (250);
  // kFailed on a permanent 5xx reply to MAIL FROM, RCPT TO or DATA; kRetry on a 4xx, a
  // connection, TLS or authentication failure or a timeout. code: the reply code that decided
  // (0 when no reply did: the transport gave up by itself); reply: the server's reply text or the
  // transport's error, one short line; latency measured.
  virtual delivery::AttemptOutcome Send(std::string_view envelope_from,
                                        std::string_view envelope_to, std::string_view mime) = 0;

  // Whether the transport can be used now, sending nothing (SMTP: connect, EHLO, STARTTLS when
  // asked, AUTH when configured, QUIT). The error says plainly what failed: cannot connect to
  // host:port (refused, timed out, no such host), TLS handshake failed (and why), the server
  // does not offer STARTTLS, authentication rejected (with the reply), ...
  virtual Status Check() = 0;

  // For the start banner and logs: "SMTP smtp://mail.example.com:587 (STARTTLS required, user
  // alice)" or "files in /data/outbox"; never a password.
  virtual std::string Describe() const = 0;
};

}  // namespace esign::mail
