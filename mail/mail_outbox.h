// MailOutbox: the e-mails of DESIGN section 15, read from the log and sent on the delivery core
// that webhooks use (delivery/log_outbox.h on delivery_lanes.h, delivery_policy.h,
// retry_schedule.h, delivery_store.h): at least once, every attempt recorded, one Message-ID per
// (event, recipient).
//
// Intake (a CatchUpSubscription on the log, from the checkpoint in the records): for each contract
// event that mails someone, the contract as of that event decides who gets what (PlanMail, under
// the contract's snapshotted settings; `owner` is the organization's address); one pending
// delivery per recipient is recorded (synced, ids derived from event and recipient, so an event
// read again records nothing new), and only then does the checkpoint move past the event. A
// message over the hourly limits (mail_rate_limits.h) is recorded failed then, never sent.
// At start, the deliveries still pending are queued again: nothing recorded is lost to a crash.
// Records without a checkpoint read the log from its start (the caller sets one first to skip
// what was appended before mail existed: app/service_mail.cc).
//
// Lanes: one per recipient (organization and address), so a recipient's messages go in log order
// and a mailbox that defers holds back only its own; a fixed pool of threads, an organization's
// share bounded. An attempt renders the message (outgoing_mail.h: the hosted link or the code
// derived now, the signed PDF read from the blob store) and hands it to the transport. A 2xx
// reply sends it; a 5xx fails it for good (recorded with the reply, not retried); a 4xx, a
// connection failure or a timeout retries by the schedule, and the message fails once the
// schedule has no attempt left. A signing request or reminder whose signer no longer has an open
// mailed session (signed meanwhile, the contract ended) fails without being sent: its link
// would be dead.
//
// Thread safety: Stop may be called from any thread. The deps must outlive the outbox.
#pragma once

#include <memory>
#include <string>

#include "delivery/delivery_store.h"
#include "delivery/log_outbox.h"
#include "domain/clock.h"
#include "domain/result.h"
#include "domain/signer_secrets.h"
#include "eventstore/event_store.h"
#include "eventstore/subscription.h"
#include "mail/mail_rate_limits.h"
#include "mail/mail_transport.h"
#include "mail/outgoing_mail.h"

namespace esign::mail {

struct MailOutboxDeps {
  eventstore::EventStore& store;     // the log, contract and organization streams, blobs
  delivery::DeliveryStore& records;  // <data-dir>/mail
  MailTransport& transport;
  const SignerSecrets& secrets;
  const Clock& clock;
  MailRateLimiter* limiter = nullptr;  // the hourly limits (mail_rate_limits.h); null: none
};

struct MailOutboxOptions {
  std::string from_address = "no-reply@localhost.localdomain";
  std::string from_name;
  // The origin of hosted links in messages, e.g. https://sign.example.com.
  std::string link_origin;
  // Threads that send, shared by every recipient's lane. Default: 4.
  size_t sender_threads = 4;
};

// The From display name: "Acme GmbH via Contract signing" for an organization with a name (the
// message header encodes it, mail_message.h); the service's name alone otherwise.
std::string SenderName(std::string_view organization_name, std::string_view service_name);

class MailOutbox {
 public:
  static Result<std::unique_ptr<MailOutbox>> Start(MailOutboxDeps deps, MailOutboxOptions options);
  ~MailOutbox();  // Stop
  MailOutbox(const MailOutbox&) = delete;
  MailOutbox& operator=(const MailOutbox&) = delete;

  // Ends the intake, then the lanes once their attempts in flight are recorded. Idempotent.
  void Stop();

  // Every event before `position` has been read and its messages recorded (tests, shutdown).
  bool WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const;

 private:
  MailOutbox(MailOutboxDeps deps, MailOutboxOptions options);
  // The messages the event sends, one per recipient.
  Result<std::vector<delivery::Delivery>> Plan(const eventstore::EventRecord& record, int64_t now);
  delivery::AttemptOutcome Send(const delivery::Delivery& delivery);
  // The message as it goes out now; an error fails the delivery without sending (its reply).
  Result<std::string> Render(const delivery::Delivery& delivery, const OutgoingMail& mail);

  MailOutboxDeps deps_;
  const MailOutboxOptions options_;
  std::unique_ptr<delivery::LogOutbox> outbox_;
};

}  // namespace esign::mail
