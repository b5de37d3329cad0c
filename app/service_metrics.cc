// The service's series on /metrics (docs/operations.md lists each with the alert to set on it):
// appends, the log and the read side, Kafka, deliveries by channel, timers, memory and the build.
#include <algorithm>
#include <array>
#include <string>

#include "app/process_memory.h"
#include "app/service.h"
#include "base/build_info.h"
#include "projections/due_timer_index.h"

namespace esign::app {
namespace {

// Due timers counted per scrape at most: a backlog past this reads as this.
constexpr uint64_t kDueTimersCounted = 10'000;

// One gauge or counter per channel whose deliveries a store keeps, named by a bounded label.
struct DeliveryChannel {
  const char* label;
  const delivery::DeliveryStore* records;
};

// Events of the log that `projector` has not applied yet.
double LagOf(const eventstore::EventStore& log, const projections::Projector& projector) {
  const uint64_t size = log.Size();
  const uint64_t applied = projector.position();
  return static_cast<double>(size > applied ? size - applied : 0);
}

}  // namespace

void Service::AddGauges() {
  http::Metrics& metrics = handler_->metrics();
  contract_commands_->SetAppendObserver([&metrics](std::chrono::nanoseconds duration) {
    metrics.RecordDuration("contractd_append_duration_seconds", duration);
  });
  metrics.AddGauge("contractd_log_events", "Events in the log.",
                   [this] { return static_cast<double>(store_->Size()); });
  metrics.AddGauge("contractd_kafka_relay_lag_events",
                   "Events in the log that Kafka has not acknowledged yet.", [this] {
                     const uint64_t size = store_->Size();
                     const uint64_t acknowledged = relay_ ? relay_->acknowledged() : size;
                     return static_cast<double>(size > acknowledged ? size - acknowledged : 0);
                   });
  for (const mail::MailLimitReason reason :
       {mail::MailLimitReason::kOrganization, mail::MailLimitReason::kRecipient}) {
    metrics.AddCounter(
        "contractd_mail_suppressed_total",
        "E-mails recorded failed, not sent, because an hourly limit was reached.",
        "reason=\"" + std::string(mail::ToString(reason)) + "\"", [this, reason] {
          return mail_limiter_ ? static_cast<double>(mail_limiter_->Suppressed(reason)) : 0.0;
        });
  }
  metrics.AddCounter("contractd_webhook_offsets_out_of_range_total",
                     "Partitions assigned to the webhook dispatcher whose committed offset was "
                     "below the earliest message Kafka still held.",
                     "", [this] {
                       const webhooks::WebhookDelivery* delivery = running_delivery_.load();
                       return delivery ? static_cast<double>(delivery->offsets_out_of_range()) : 0;
                     });
  metrics.AddCounter("contractd_provider_notice_failed_attempts_total",
                     "Attempts to tell a signing provider of a session that did not deliver.", "",
                     [this] {
                       const ProviderNotices* notices = running_provider_notices_.load();
                       return notices ? static_cast<double>(notices->failed_attempts()) : 0;
                     });
  metrics.AddCounter("contractd_provider_notices_failed_total",
                     "Notices to signing providers that failed for good (schedule exhausted, "
                     "410, session no longer open).",
                     "", [this] {
                       const ProviderNotices* notices = running_provider_notices_.load();
                       return notices ? static_cast<double>(notices->failed_notices()) : 0;
                     });
  metrics.AddGauge("contractd_projection_lag_events",
                   "Events in the log that the read side has not applied yet.",
                   [this] { return LagOf(*store_, *projector_); });
  metrics.AddGauge("contractd_text_index_lag_events",
                   "Events in the log that the text index (the trigrams of q) has not applied yet.",
                   [this] { return LagOf(*store_, *text_projector_); });
  AddDeliveryGauges();
  metrics.AddGauge("contractd_timers_due",
                   "Contracts whose timer (expiry, reminder) is due and not yet fired (at most "
                   "10000 counted).",
                   [this] {
                     auto due = projections::CountDueTimers(*views_, clock_.NowMicros(),
                                                            kDueTimersCounted);
                     return due ? static_cast<double>(*due) : 0.0;
                   });
  metrics.AddGauge("contractd_process_resident_memory_bytes", "Resident memory of the process.",
                   [] { return static_cast<double>(ReadProcessMemory().resident_bytes); });
  metrics.AddGauge("contractd_process_virtual_memory_bytes", "Virtual memory of the process.",
                   [] { return static_cast<double>(ReadProcessMemory().virtual_bytes); });
  metrics.AddGauge("contractd_build_info", "The version and commit contractd was built from.",
                   "version=\"" + std::string(BuildVersion()) + "\",commit=\"" +
                       std::string(BuildCommit()) + "\"",
                   [] { return 1.0; });
}

void Service::AddDeliveryGauges() {
  http::Metrics& metrics = handler_->metrics();
  const std::array<DeliveryChannel, 2> channels{
      {{"mail", mail_records_.get()}, {"webhook", deliveries_.get()}}};
  // One series per channel for each name, the names one after the other.
  const auto each_channel = [&](const auto& add) {
    for (const DeliveryChannel& channel : channels) {
      add(std::string("channel=\"") + channel.label + "\"", channel.records);
    }
  };
  each_channel([&](const std::string& labels, const delivery::DeliveryStore* records) {
    metrics.AddGauge(
        "contractd_deliveries_pending", "Deliveries waiting to be sent.", labels,
        [records] { return records ? static_cast<double>(records->Counts().pending) : 0.0; });
  });
  each_channel([&](const std::string& labels, const delivery::DeliveryStore* records) {
    metrics.AddGauge(
        "contractd_deliveries_oldest_pending_age_seconds",
        "Seconds since the oldest pending delivery was created (0: none pending).", labels,
        [this, records] {
          const auto oldest = records ? records->Counts().oldest_pending_created_us : std::nullopt;
          if (!oldest) return 0.0;
          return static_cast<double>(std::max<int64_t>(clock_.NowMicros() - *oldest, 0)) / 1e6;
        });
  });
  each_channel([&](const std::string& labels, const delivery::DeliveryStore* records) {
    metrics.AddCounter(
        "contractd_deliveries_sent_total",
        "Deliveries sent and accepted since the process started.", labels,
        [records] { return records ? static_cast<double>(records->Counts().sent) : 0.0; });
  });
  each_channel([&](const std::string& labels, const delivery::DeliveryStore* records) {
    metrics.AddCounter("contractd_deliveries_failed_total",
                       "Deliveries that failed for good since the process started (a mail "
                       "server's refusal, an hourly limit; webhooks stay pending instead).",
                       labels, [records] {
                         return records ? static_cast<double>(records->Counts().failed) : 0.0;
                       });
  });
  each_channel([&](const std::string& labels, const delivery::DeliveryStore* records) {
    metrics.AddCounter("contractd_delivery_attempts_failed_total",
                       "Attempts that did not deliver since the process started (retried later).",
                       labels, [records] {
                         return records ? static_cast<double>(records->Counts().failed_attempts)
                                        : 0.0;
                       });
  });
}

}  // namespace esign::app
