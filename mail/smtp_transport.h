// SmtpTransport: messages to a mail server over SMTP through libcurl (DESIGN section 15,
// "Transport"; docs/mail.md).
//
// TLS: smtps:// is TLS from the first byte; smtp:// uses STARTTLS when the server offers it and
// requires it whenever a user is set, so a password never travels in clear; without a user, a
// server that offers no STARTTLS is spoken to in clear only when its host is loopback (otherwise
// STARTTLS is required too). Certificates and host names are always verified.
//
// Thread safety: Send, Check and Describe may be called from several threads at once; each call
// has its own connection (one libcurl easy handle).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "mail/mail_transport.h"

namespace esign::mail {

struct SmtpOptions {
  std::string url;   // smtp://host[:port] (STARTTLS, port 25) or smtps://host[:port] (TLS, 465)
  std::string user;  // empty: no AUTH
  std::string password;
  std::string ca_file;  // an extra CA bundle to trust instead of the system's; empty: the system's
  std::chrono::seconds timeout{30};  // for a whole session
};

class SmtpTransport final : public MailTransport {
 public:
  explicit SmtpTransport(SmtpOptions options);

  delivery::AttemptOutcome Send(std::string_view envelope_from, std::string_view envelope_to,
                                std::string_view mime) override;
  Status Check() override;
  std::string Describe() const override;

  // How the session is protected, decided once from the URL and the user.
  enum class Tls {
    kImplicit,     // smtps://
    kRequired,     // STARTTLS, or no session
    kWhenOffered,  // STARTTLS if the server offers it, else clear text (loopback, no user)
  };
  Tls tls() const { return tls_; }

 private:
  SmtpOptions options_;
  std::string url_error_;  // why the URL cannot be used; empty when it can
  std::string origin_;     // "smtp://host:port", without anything else of the URL
  Tls tls_ = Tls::kRequired;
};

}  // namespace esign::mail
