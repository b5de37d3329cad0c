// LogOutbox: the part of the delivery core that an outbox reading the log itself is made of (the
// e-mail outbox, mail/mail_outbox.h; the notices to signing providers, app/provider_notices.h):
//   intake  a CatchUpSubscription on the log from the checkpoint in the records; each event's
//           deliveries (`plan`) are recorded as pending (DeliveryStore::Admit, synced; ids
//           derived from the event, so an event read again records nothing new) and queued, and
//           only then does the checkpoint move past the batch;
//   start   the deliveries still pending are queued again first: nothing recorded is lost to a
//           crash or to a destination that is down;
//   lanes   DeliveryLanes with `find`; an attempt `send`s, and what came of it is the delivery
//           policy's (AfterAttempt: the retry schedule, Retry-After): an outbox has no
//           destination to disable, so a refusal, or a schedule run out, fails the delivery
//           alone. A failure is logged; the delivery is stored after each attempt (every attempt
//           recorded), not synced (an outcome lost with the machine means one more attempt).
// Records without a checkpoint read the log from its start (the caller sets one first to skip
// what was appended before the outbox existed).
// Thread safety: Stop and WaitForIntake may be called from any thread; the callbacks are called
// from the intake thread (`plan`) and the lanes' threads. The deps must outlive the outbox.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "delivery/attempt_outcome.h"
#include "delivery/delivery_lanes.h"
#include "delivery/delivery_store.h"
#include "domain/clock.h"
#include "domain/result.h"
#include "eventstore/event_store.h"
#include "eventstore/subscription.h"

namespace esign::delivery {

struct LogOutboxDeps {
  const eventstore::EventStore& store;
  DeliveryStore& records;  // an outbox's (DeliveryStore::Open with outbox = true)
  const Clock& clock;
  // The deliveries an event of the log causes, pending and due at `now_us`; none for most.
  std::function<Result<std::vector<Delivery>>(const eventstore::EventRecord& record,
                                              int64_t now_us)>
      plan;
  // LaneDeps::find.
  std::function<std::optional<LaneDestination>(std::string_view lane)> find;
  // One attempt: sends the delivery as it is to go out now, and says what came of it.
  std::function<AttemptOutcome(const Delivery& delivery)> send;
  // After each attempt, with the delivery as it is recorded (counters, a line of its own).
  // Optional.
  std::function<void(const Delivery& delivery, const AttemptOutcome& outcome)> attempted;
  // Records the planned deliveries and gives back those to send (a channel's own admission, e.g.
  // limits that record some failed). Optional: DeliveryStore::Admit.
  std::function<Result<std::vector<Delivery>>(std::vector<Delivery> deliveries, int64_t now_us)>
      admit;
  // The deliveries found pending at start that are to be sent (the rest recorded as the channel
  // decides). Optional: every one.
  std::function<std::vector<Delivery>(std::vector<Delivery> pending, int64_t now_us)> requeue;
};

struct LogOutboxOptions {
  std::string name;  // in the log lines, e.g. "mail outbox"
  size_t sender_threads = 4;
};

class LogOutbox {
 public:
  static Result<std::unique_ptr<LogOutbox>> Start(LogOutboxDeps deps, LogOutboxOptions options);
  ~LogOutbox();  // Stop
  LogOutbox(const LogOutbox&) = delete;
  LogOutbox& operator=(const LogOutbox&) = delete;

  // Ends the intake, then the lanes once their attempts in flight are recorded. Idempotent.
  void Stop();
  // Every event before `position` has been read and its deliveries recorded.
  bool WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const;

 private:
  LogOutbox(LogOutboxDeps deps, LogOutboxOptions options);
  Result<GlobalPosition> Intake(const std::vector<eventstore::EventRecord>& batch);
  void Attempt(Delivery& delivery);

  LogOutboxDeps deps_;
  const LogOutboxOptions options_;
  std::unique_ptr<DeliveryLanes> lanes_;
  std::unique_ptr<eventstore::CatchUpSubscription> intake_;
};

}  // namespace esign::delivery
