// MailRateLimiter: the hourly limits on e-mail (docs/security.md, "E-mail"), decided when the
// outbox reads an event, before its deliveries are recorded:
//   per organization: at most `per_organization` messages an hour for one organization's
//       contracts, whoever they go to;
//   per recipient: at most `per_recipient` messages an hour to one address, counted across every
//       organization; an organization's own owner address is counted for its organization only.
// A message over a limit is not sent: its delivery is recorded failed with the reason ("rate
// limited: ..."), listed under its contract like any other, and counted by reason for /metrics.
// Windows are the clock's hours (UTC, fixed): a burst at the turn of an hour may reach twice a
// limit. A limit of 0 is no limit.
//
// Decisions survive a restart: a journal (<data-dir>/mail-limits) holds the current hour's window
// and one line per message decided in it, appended and synced before the deliveries are recorded.
// So a restart within the hour goes on counting from what was admitted, and a message read again
// (an event re-read after a crash) gets the decision it had, without being counted twice. A crash
// between the journal and the records counts a message that was never recorded: the limits err
// on the side of fewer messages. The journal is rewritten at each new hour, so it holds at most an
// hour of decisions.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "delivery/delivery_store.h"
#include "domain/clock.h"
#include "domain/result.h"

namespace esign::mail {

struct MailLimits {
  uint64_t per_organization = 1000;  // messages an hour; --mail-limit-per-organization
  uint64_t per_recipient = 60;       // messages an hour to one address; --mail-limit-per-recipient
};

enum class MailLimitReason { kNone, kOrganization, kRecipient };
// "organization_hourly_limit", "recipient_hourly_limit" (the metric's label; "none")
std::string_view ToString(MailLimitReason reason);

// One message to decide.
struct MailToLimit {
  std::string delivery_id;
  std::string organization_id;
  std::string address;  // in lower case
  bool owner = false;   // the organization's own notification address
};

class MailRateLimiter {
 public:
  // Reads the journal at `path` (none yet: nothing counted); a journal of an earlier hour is
  // started afresh. kStorage when it cannot be read or written.
  static Result<std::unique_ptr<MailRateLimiter>> Open(std::string path, MailLimits limits,
                                                       const Clock& clock);
  ~MailRateLimiter();
  MailRateLimiter(const MailRateLimiter&) = delete;
  MailRateLimiter& operator=(const MailRateLimiter&) = delete;

  // The decision for each message, in order: one decided earlier this hour keeps its decision;
  // the others count in turn against the limits. Journaled (synced) before it returns.
  Result<std::vector<MailLimitReason>> Decide(const std::vector<MailToLimit>& mails);
  // The decision this hour's journal holds for a delivery, if any.
  std::optional<MailLimitReason> Decided(std::string_view delivery_id) const;
  // Messages refused for `reason` since the process started.
  uint64_t Suppressed(MailLimitReason reason) const;
  const MailLimits& limits() const { return limits_; }

 private:
  MailRateLimiter(std::string path, MailLimits limits, const Clock& clock);
  int64_t Hour() const;
  Status StartHour(int64_t hour);                               // under mutex_
  void Count(const MailToLimit& mail, MailLimitReason reason);  // under mutex_

  const std::string path_;
  const MailLimits limits_;
  const Clock& clock_;
  mutable std::mutex mutex_;
  int fd_ = -1;       // the journal, open for appending; guarded by mutex_
  int64_t hour_ = 0;  // guarded by mutex_, as the maps
  std::unordered_map<std::string, MailLimitReason> decided_;
  std::unordered_map<std::string, uint64_t> per_organization_;
  std::unordered_map<std::string, uint64_t> per_recipient_;
  std::atomic<uint64_t> suppressed_organization_{0};
  std::atomic<uint64_t> suppressed_recipient_{0};
};

// DeliveryStore::Admit under the limits (`limiter` null: none): the deliveries over a limit are
// recorded failed (FailRateLimited). Returns the pending ones, to send. Each delivery's body is an
// OutgoingMail; its lane names the organization.
Result<std::vector<delivery::Delivery>> AdmitWithinLimits(
    delivery::DeliveryStore& records, MailRateLimiter* limiter,
    std::vector<delivery::Delivery> deliveries, int64_t now_us);

// The pending deliveries found at start, less those a limit refused this hour (a crash came
// between the decision and its record), which are recorded failed now.
std::vector<delivery::Delivery> WithinLimits(delivery::DeliveryStore& records,
                                             const MailRateLimiter* limiter,
                                             std::vector<delivery::Delivery> pending,
                                             int64_t now_us);

// How the reply of a delivery failed by a limit begins: the service's own words, which the
// notifications listing shows as they are (unlike a mail server's).
inline constexpr std::string_view kRateLimitedReply = "rate limited: ";

// Marks a delivery failed by a limit without sending it: one attempt with the reply
// "rate limited: ...", no further attempt.
void FailRateLimited(delivery::Delivery& delivery, MailLimitReason reason, const MailLimits& limits,
                     int64_t now_us);

}  // namespace esign::mail
