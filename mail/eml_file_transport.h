// EmlFileTransport: the embedded default without a mail server (DESIGN section 15): each message
// is written as <dir>/<its Message-ID, file-name-safe>.eml, exactly the bytes SMTP would carry,
// so any mail client opens it. Written atomically (a temporary file, fsync, rename, fsync of the
// directory), so a message sent again replaces its own file and no half file is ever seen. The
// directory is created with mode 0700 when missing.
// Thread safety: Send, Check and Describe may be called from several threads at once.
#pragma once

#include <string>
#include <string_view>

#include "mail/mail_transport.h"

namespace esign::mail {

class EmlFileTransport final : public MailTransport {
 public:
  explicit EmlFileTransport(std::string dir);

  // kDelivered with code 250 once the file is durable; kRetry (code 0) when it cannot be written.
  delivery::AttemptOutcome Send(std::string_view envelope_from, std::string_view envelope_to,
                                std::string_view mime) override;
  // Creates the directory when missing and makes sure a file can be written in it.
  Status Check() override;
  std::string Describe() const override;

  // The file name a message goes to: its Message-ID (without angle brackets) with every
  // character but letters, digits and "._@+-" replaced, plus a digest of the id when that changed
  // it; the digest of the whole message when it has no Message-ID.
  static std::string FileName(std::string_view mime);

 private:
  std::string dir_;
};

}  // namespace esign::mail
