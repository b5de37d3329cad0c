#include "mail/mail_rate_limits.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "delivery/log_line.h"
#include "eventstore/secret_file.h"
#include "mail/outgoing_mail.h"

namespace esign::mail {
namespace {

constexpr int64_t kMicrosPerHour = int64_t{3600} * 1000 * 1000;
constexpr std::string_view kHeader = "mail-limits hour ";

std::unexpected<Error> JournalError(const std::string& what, const std::string& path) {
  return Fail(ErrorCode::kStorage, what + " " + path + ": " + std::strerror(errno));
}

// Tabs and line breaks would split a journal line; no id or address the service accepts has one.
std::string Field(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

char Letter(MailLimitReason reason) {
  switch (reason) {
    case MailLimitReason::kNone:
      return 'n';
    case MailLimitReason::kOrganization:
      return 'o';
    case MailLimitReason::kRecipient:
      return 'r';
  }
  return 'n';
}

std::optional<MailLimitReason> FromLetter(std::string_view text) {
  if (text == "n") return MailLimitReason::kNone;
  if (text == "o") return MailLimitReason::kOrganization;
  if (text == "r") return MailLimitReason::kRecipient;
  return std::nullopt;
}

std::vector<std::string_view> Split(std::string_view line, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t end = line.find(separator, start);
    parts.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return JournalError("cannot write", path);
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return {};
}

}  // namespace

std::string_view ToString(MailLimitReason reason) {
  switch (reason) {
    case MailLimitReason::kNone:
      return "none";
    case MailLimitReason::kOrganization:
      return "organization_hourly_limit";
    case MailLimitReason::kRecipient:
      return "recipient_hourly_limit";
  }
  return "none";
}

MailRateLimiter::MailRateLimiter(std::string path, MailLimits limits, const Clock& clock)
    : path_(std::move(path)), limits_(limits), clock_(clock) {}

MailRateLimiter::~MailRateLimiter() {
  if (fd_ >= 0) ::close(fd_);
}

int64_t MailRateLimiter::Hour() const { return clock_.NowMicros() / kMicrosPerHour; }

Result<std::unique_ptr<MailRateLimiter>> MailRateLimiter::Open(std::string path, MailLimits limits,
                                                               const Clock& clock) {
  std::unique_ptr<MailRateLimiter> limiter(new MailRateLimiter(std::move(path), limits, clock));
  auto text = eventstore::ReadFileIfPresent(limiter->path_);
  if (!text) return std::unexpected(text.error());
  const int64_t hour = limiter->Hour();
  std::lock_guard lock(limiter->mutex_);
  const std::vector<std::string_view> lines =
      *text ? Split(**text, '\n') : std::vector<std::string_view>{};
  if (lines.empty() || lines[0] != std::string(kHeader) + std::to_string(hour)) {
    if (auto started = limiter->StartHour(hour); !started) return std::unexpected(started.error());
    return limiter;
  }
  limiter->hour_ = hour;
  for (size_t i = 1; i < lines.size(); ++i) {
    // A line cut by a crash, or anything else unreadable, was not acted on: it is skipped.
    const std::vector<std::string_view> fields = Split(lines[i], '\t');
    if (fields.size() != 5) continue;
    const auto reason = FromLetter(fields[0]);
    if (!reason || (fields[4] != "0" && fields[4] != "1")) continue;
    const MailToLimit mail{.delivery_id = std::string(fields[1]),
                           .organization_id = std::string(fields[2]),
                           .address = std::string(fields[3]),
                           .owner = fields[4] == "1"};
    limiter->decided_[mail.delivery_id] = *reason;
    if (*reason == MailLimitReason::kNone) limiter->Count(mail, *reason);
  }
  limiter->fd_ = ::open(limiter->path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (limiter->fd_ < 0) return JournalError("cannot open", limiter->path_);
  return limiter;
}

Status MailRateLimiter::StartHour(int64_t hour) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  hour_ = hour;
  decided_.clear();
  per_organization_.clear();
  per_recipient_.clear();
  const std::string temporary = path_ + ".new";
  std::error_code ignored;
  std::filesystem::remove(temporary, ignored);
  if (auto written = eventstore::WriteNewFile(
          temporary, std::string(kHeader) + std::to_string(hour) + "\n", 0600);
      !written) {
    return written;
  }
  if (::rename(temporary.c_str(), path_.c_str()) != 0) return JournalError("cannot rename", path_);
  if (auto synced = eventstore::SyncDirectory(std::filesystem::path(path_).parent_path().string());
      !synced) {
    return synced;
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) return JournalError("cannot open", path_);
  return {};
}

void MailRateLimiter::Count(const MailToLimit& mail, MailLimitReason reason) {
  if (reason != MailLimitReason::kNone) return;
  ++per_organization_[mail.organization_id];
  if (!mail.owner) ++per_recipient_[mail.address];
}

Result<std::vector<MailLimitReason>> MailRateLimiter::Decide(
    const std::vector<MailToLimit>& mails) {
  std::lock_guard lock(mutex_);
  if (const int64_t hour = Hour(); hour != hour_) {
    if (auto started = StartHour(hour); !started) return std::unexpected(started.error());
  }
  std::vector<MailLimitReason> reasons;
  std::string journal;
  for (const MailToLimit& mail : mails) {
    if (auto found = decided_.find(mail.delivery_id); found != decided_.end()) {
      reasons.push_back(found->second);
      continue;
    }
    MailLimitReason reason = MailLimitReason::kNone;
    const uint64_t organization = per_organization_[mail.organization_id];
    if (limits_.per_organization != 0 && organization >= limits_.per_organization) {
      reason = MailLimitReason::kOrganization;
      if (organization == limits_.per_organization) {
        delivery::LogLine("mail outbox", "organization " + mail.organization_id +
                                             " reached its limit of " +
                                             std::to_string(limits_.per_organization) +
                                             " messages an hour: the rest of the hour's messages "
                                             "are recorded failed, not sent");
      }
    } else if (!mail.owner && limits_.per_recipient != 0 &&
               per_recipient_[mail.address] >= limits_.per_recipient) {
      reason = MailLimitReason::kRecipient;
    }
    if (reason == MailLimitReason::kOrganization) {
      // Counted once past the limit, so the line above is logged once an hour.
      ++per_organization_[mail.organization_id];
      suppressed_organization_.fetch_add(1, std::memory_order_relaxed);
    } else if (reason == MailLimitReason::kRecipient) {
      suppressed_recipient_.fetch_add(1, std::memory_order_relaxed);
    }
    Count(mail, reason);
    decided_[mail.delivery_id] = reason;
    reasons.push_back(reason);
    journal += std::string(1, Letter(reason)) + "\t" + Field(mail.delivery_id) + "\t" +
               Field(mail.organization_id) + "\t" + Field(mail.address) + "\t" +
               (mail.owner ? "1" : "0") + "\n";
  }
  if (!journal.empty()) {
    if (auto written = WriteAll(fd_, journal, path_); !written) {
      return std::unexpected(written.error());
    }
    if (::fdatasync(fd_) != 0) return JournalError("cannot sync", path_);
  }
  return reasons;
}

std::optional<MailLimitReason> MailRateLimiter::Decided(std::string_view delivery_id) const {
  std::lock_guard lock(mutex_);
  if (Hour() != hour_) return std::nullopt;
  const auto found = decided_.find(std::string(delivery_id));
  if (found == decided_.end()) return std::nullopt;
  return found->second;
}

uint64_t MailRateLimiter::Suppressed(MailLimitReason reason) const {
  switch (reason) {
    case MailLimitReason::kOrganization:
      return suppressed_organization_.load(std::memory_order_relaxed);
    case MailLimitReason::kRecipient:
      return suppressed_recipient_.load(std::memory_order_relaxed);
    case MailLimitReason::kNone:
      return 0;
  }
  return 0;
}

namespace {

void RecordFailed(delivery::DeliveryStore& records, delivery::Delivery& delivery,
                  MailLimitReason reason, const MailLimits& limits, int64_t now_us) {
  FailRateLimited(delivery, reason, limits, now_us);
  if (auto stored = records.UpdateAdmitted(delivery); !stored) {
    delivery::LogLine("mail outbox", "recording message " + delivery.id +
                                         " as rate limited failed: " + stored.error().message);
  }
}

}  // namespace

Result<std::vector<delivery::Delivery>> AdmitWithinLimits(
    delivery::DeliveryStore& records, MailRateLimiter* limiter,
    std::vector<delivery::Delivery> deliveries, int64_t now_us) {
  std::unordered_map<std::string, MailLimitReason> limited;
  if (limiter != nullptr) {
    std::vector<MailToLimit> mails;
    for (const delivery::Delivery& delivery : deliveries) {
      auto mail = ParseOutgoingMail(delivery.body);
      if (!mail) return std::unexpected(mail.error());
      mails.push_back(
          MailToLimit{.delivery_id = delivery.id,
                      .organization_id = std::string(LaneOrganization(delivery.destination_id)),
                      .address = std::string(LaneAddress(delivery.destination_id)),
                      .owner = mail->participant_id.empty()});
    }
    auto reasons = limiter->Decide(mails);
    if (!reasons) return std::unexpected(reasons.error());
    for (size_t i = 0; i < mails.size(); ++i) {
      if ((*reasons)[i] != MailLimitReason::kNone) limited[mails[i].delivery_id] = (*reasons)[i];
    }
  }
  auto admitted = records.Admit(std::move(deliveries));
  if (!admitted) return std::unexpected(admitted.error());
  std::vector<delivery::Delivery> to_send;
  for (delivery::Delivery& delivery : *admitted) {
    const auto found = limited.find(delivery.id);
    if (found == limited.end()) {
      to_send.push_back(std::move(delivery));
    } else {
      RecordFailed(records, delivery, found->second, limiter->limits(), now_us);
    }
  }
  return to_send;
}

std::vector<delivery::Delivery> WithinLimits(delivery::DeliveryStore& records,
                                             const MailRateLimiter* limiter,
                                             std::vector<delivery::Delivery> pending,
                                             int64_t now_us) {
  if (limiter == nullptr) return pending;
  std::vector<delivery::Delivery> to_send;
  for (delivery::Delivery& delivery : pending) {
    const auto reason = limiter->Decided(delivery.id);
    if (!reason || *reason == MailLimitReason::kNone) {
      to_send.push_back(std::move(delivery));
    } else {
      RecordFailed(records, delivery, *reason, limiter->limits(), now_us);
    }
  }
  return to_send;
}

void FailRateLimited(delivery::Delivery& delivery, MailLimitReason reason, const MailLimits& limits,
                     int64_t now_us) {
  const std::string why = reason == MailLimitReason::kOrganization
                              ? "the organization's limit of " +
                                    std::to_string(limits.per_organization) + " messages an hour"
                              : "the limit of " + std::to_string(limits.per_recipient) +
                                    " messages an hour to one address";
  delivery.state = delivery::DeliveryState::kFailed;
  delivery.attempts.push_back(delivery::DeliveryAttempt{
      .at_us = now_us, .error = std::string(kRateLimitedReply) + "not sent, over " + why});
  delivery.next_attempt_us = 0;
}

}  // namespace esign::mail
