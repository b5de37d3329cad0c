#include "delivery/log_outbox.h"

#include <random>

#include "base/time_text.h"
#include "delivery/attempt_verdict.h"
#include "delivery/log_line.h"

namespace esign::delivery {

Result<std::unique_ptr<LogOutbox>> LogOutbox::Start(LogOutboxDeps deps, LogOutboxOptions options) {
  auto checkpoint = deps.records.Checkpoint();
  if (!checkpoint) return std::unexpected(checkpoint.error());
  auto pending = deps.records.Pending();
  if (!pending) return std::unexpected(pending.error());
  std::unique_ptr<LogOutbox> outbox(new LogOutbox(std::move(deps), std::move(options)));
  if (outbox->deps_.requeue) {
    *pending = outbox->deps_.requeue(std::move(*pending), outbox->deps_.clock.NowMicros());
  }
  if (!pending->empty()) {
    LogLine(outbox->options_.name, std::to_string(pending->size()) +
                                       " deliveries recorded as pending queued from the store");
  }
  outbox->lanes_->PushAll(std::move(*pending));
  outbox->intake_ = std::make_unique<eventstore::CatchUpSubscription>(
      outbox->deps_.store, GlobalPosition(checkpoint->value_or(0)),
      [o = outbox.get()](const std::vector<eventstore::EventRecord>& batch,
                         const std::stop_token&) { return o->Intake(batch); },
      eventstore::SubscriptionOptions{.thread_name = "esign-outbox"});
  outbox->intake_->Start();
  return outbox;
}

LogOutbox::LogOutbox(LogOutboxDeps deps, LogOutboxOptions options)
    : deps_(std::move(deps)), options_(std::move(options)) {
  lanes_ = std::make_unique<DeliveryLanes>(
      LaneDeps{.find = deps_.find,
               .attempt =
                   [this](const std::stop_token&, const LaneDestination&, Delivery& delivery) {
                     Attempt(delivery);
                     return LaneDeps::Attempted::kDone;
                   },
               .settle = [](const std::string&) {},
               .clock = deps_.clock},
      options_.sender_threads);
}

LogOutbox::~LogOutbox() { Stop(); }

void LogOutbox::Stop() {
  if (intake_) intake_->Stop();
  lanes_->Stop();
}

bool LogOutbox::WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const {
  return intake_->WaitForPosition(GlobalPosition(position), timeout);
}

void LogOutbox::Attempt(Delivery& delivery) {
  thread_local std::mt19937_64 random(std::random_device{}());
  const AttemptOutcome outcome = deps_.send(delivery);
  std::uniform_real_distribution<double> jitter(-1.0, 1.0);
  const AttemptVerdict verdict =
      AfterAttempt(delivery, outcome, deps_.clock.NowMicros(), jitter(random));
  if (verdict.next == AttemptVerdict::Next::kDisableEndpoint) {
    delivery.state = DeliveryState::kFailed;
    delivery.next_attempt_us = 0;
  }
  const std::string what = "delivery " + delivery.id + " of contract " + delivery.contract_id +
                           " to " + delivery.destination_id;
  const std::string reply =
      (outcome.code != 0 ? std::to_string(outcome.code) + " " : "") + outcome.reply;
  if (delivery.state == DeliveryState::kFailed) {
    LogLine(options_.name, what + " failed: " + reply);
  } else if (delivery.state == DeliveryState::kPending) {
    LogLine(options_.name, what + " deferred (attempt " + std::to_string(delivery.attempts.size()) +
                               "), next at " + FormatTimestamp(delivery.next_attempt_us) + ": " +
                               reply);
  }
  if (auto stored = deps_.records.Update(delivery); !stored) {
    LogLine(options_.name, "recording " + what + " failed: " + stored.error().message);
  }
  if (deps_.attempted) deps_.attempted(delivery, outcome);
}

Result<GlobalPosition> LogOutbox::Intake(const std::vector<eventstore::EventRecord>& batch) {
  std::vector<Delivery> deliveries;
  const int64_t now = deps_.clock.NowMicros();
  for (const eventstore::EventRecord& record : batch) {
    auto planned = deps_.plan(record, now);
    if (!planned) return std::unexpected(planned.error());
    for (Delivery& delivery : *planned) deliveries.push_back(std::move(delivery));
  }
  const GlobalPosition next(batch.back().position.value() + 1);
  if (!deliveries.empty()) {
    auto admitted = deps_.admit ? deps_.admit(std::move(deliveries), now)
                                : deps_.records.Admit(std::move(deliveries));
    if (!admitted) return std::unexpected(admitted.error());
    lanes_->PushAll(std::move(*admitted));
  }
  // Not synced (DeliveryStore::Durability::kOrdered): the deliveries admitted above are. A synced
  // write after every batch read was most of an outbox's work under sends, whose batches are a
  // few events each.
  if (auto stored = deps_.records.SetCheckpoint(next.value(), DeliveryStore::Durability::kOrdered);
      !stored) {
    return std::unexpected(stored.error());
  }
  return next;
}

}  // namespace esign::delivery
