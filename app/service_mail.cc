// E-mail (mail/mail_outbox.h): its records, its transport (the mail server of --smtp-url, else
// .eml files under <data-dir>/outbox), checked at start and named in the banner.
#include <filesystem>
#include <iostream>

#include "app/service.h"
#include "eventstore/secret_file.h"
#include "mail/eml_file_transport.h"
#include "mail/smtp_transport.h"

namespace esign::app {
namespace {

Result<std::string> ReadPasswordFile(const std::string& path) {
  auto text = eventstore::ReadFileIfPresent(path);
  if (!text || !*text) {
    return Fail(ErrorCode::kValidationFailed, "cannot read --smtp-password-file " + path,
                "smtp-password-file", path);
  }
  std::string password = std::move(**text);
  while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) {
    password.pop_back();
  }
  return password;
}

}  // namespace

Status Service::OpenMailRecords(const ServeConfig& config) {
  auto records =
      delivery::DeliveryStore::Open(config.data_dir, "mail", /*outbox=*/true, storage_memory_);
  if (!records) return std::unexpected(records.error());
  mail_records_ = std::move(*records);
  auto limiter = mail::MailRateLimiter::Open(
      (std::filesystem::path(config.data_dir) / "mail-limits").string(),
      mail::MailLimits{
          .per_organization = static_cast<uint64_t>(config.mail_limit_per_organization),
          .per_recipient = static_cast<uint64_t>(config.mail_limit_per_recipient)},
      clock_);
  if (!limiter) return Fail(limiter.error());
  mail_limiter_ = std::move(*limiter);
  // The first start with e-mail, on a log that may hold years of contracts: what happened before
  // is not mailed now. Set before any request can append, so nothing after it is missed.
  auto checkpoint = mail_records_->Checkpoint();
  if (!checkpoint) return Fail(checkpoint.error());
  if (!*checkpoint) return mail_records_->SetCheckpoint(store_->Size());
  return {};
}

Status Service::StartMail(const ServeConfig& config) {
  if (config.smtp_url.empty()) {
    mail_transport_ = std::make_unique<mail::EmlFileTransport>(
        (std::filesystem::path(config.data_dir) / "outbox").string());
  } else {
    mail::SmtpOptions options{
        .url = config.smtp_url, .user = config.smtp_user, .ca_file = config.smtp_ca_file};
    if (!config.smtp_password_file.empty()) {
      auto password = ReadPasswordFile(config.smtp_password_file);
      if (!password) return Fail(password.error());
      options.password = std::move(*password);
    }
    mail_transport_ = std::make_unique<mail::SmtpTransport>(std::move(options));
  }
  // A mail server that is down now may be up later: messages wait and are retried; but whoever
  // starts the service reads here, at once, that and why it cannot mail.
  if (auto usable = mail_transport_->Check(); usable) {
    std::cerr << "contractd: e-mail: " << mail_transport_->Describe() << std::endl;
  } else {
    std::cerr << "contractd: e-mail: CANNOT SEND through " << mail_transport_->Describe() << ": "
              << usable.error().message << " (messages wait and are retried)" << std::endl;
  }
  auto outbox =
      mail::MailOutbox::Start(mail::MailOutboxDeps{.store = *store_,
                                                   .records = *mail_records_,
                                                   .transport = *mail_transport_,
                                                   .secrets = *signer_secrets_,
                                                   .clock = clock_,
                                                   .limiter = mail_limiter_.get()},
                              mail::MailOutboxOptions{.from_address = config.mail_from,
                                                      .from_name = config.mail_from_name,
                                                      .link_origin = PublicOrigin(config)});
  if (!outbox) return Fail(outbox.error());
  mail_outbox_ = std::move(*outbox);
  return {};
}

}  // namespace esign::app
