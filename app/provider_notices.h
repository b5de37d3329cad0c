// ProviderNotices: what the service tells signing providers of their sessions, read from the log
// and sent on the delivery core that webhooks and mail use (delivery/delivery_lanes.h,
// delivery_policy.h, retry_schedule.h, delivery_store.h): at least once, every attempt recorded.
// When a provider_managed session is created (by the integrator, or by the service itself in
// automatic mode), the provider's start URL, if it has one, receives
//   POST <startUrl>  {"type":"session.started", sessionId, contractId, participantId,
//                     organizationId, signerName, documentSha256, documentBase64, expiresAt,
//                     callbackUrl}
// and when the contract of an open session is voided or expires, the same URL receives
//   POST <startUrl>  {"type":"session.cancelled", sessionId, contractId, participantId,
//                     reason: "contract_voided" | "contract_expired"}
// so the provider stops asking its signer. Both are signed like the provider's own callbacks
// (X-Provider-Timestamp, X-Provider-Signature), so the provider can check they came from us.
//
// Intake (delivery/log_outbox.h: the log read from the checkpoint in the records): for each
// signing_session.created of a provider_managed session, and each contract.voided or
// contract.expired with provider_managed sessions open until then, the contract as of that event
// gives the notices; each is recorded as a pending delivery (synced; its id derived from event
// and session, so an event read again records nothing new) before the checkpoint moves past the
// event. At start the pending notices are queued again: a crash between an event and its notice,
// or a provider down for days, loses nothing. A provider without a start URL gets no notices (it
// learns of sessions by other means and reports through callbacks).
//
// Lanes: one per provider, so a session's start goes before its cancellation. An attempt reads
// the document (started) and sends through the webhooks' HTTP client (https, or http to
// loopback; timeouts; no redirects; addresses that are not public refused). 2xx delivers; a 429
// or 503 waits for its Retry-After; anything else, or no answer, is tried again by the schedule
// (5 s, 5 min, 30 min, ... about three days), after which the notice fails; a 410 fails it at
// once. A start notice whose session is no longer open (signed, declined, cancelled, expired)
// fails without being sent. Every attempt is logged and recorded, and counted for /metrics.
//
// Thread safety: Stop and the counters may be called from any thread. The deps must outlive it.
#pragma once

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "app/provider_registry.h"
#include "delivery/delivery_store.h"
#include "delivery/log_outbox.h"
#include "domain/clock.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "eventstore/event_store.h"
#include "webhooks/webhook_sender.h"

namespace esign::app {

// One notice an event causes: its session, and its body as recorded (the document and the
// callback URL are added when it is sent).
struct ProviderNotice {
  const SigningSession* session = nullptr;  // in the contract it was made from
  boost::json::object body;
};
// The notices of a contract event, given the contract as of that event; none for other events.
std::vector<ProviderNotice> NoticesOf(const eventstore::EventRecord& record,
                                      const ContractState& contract);

struct ProviderNoticesDeps {
  eventstore::EventStore& store;     // the log, contract streams, document blobs
  delivery::DeliveryStore& records;  // <data-dir>/provider-notices, an outbox (contract index)
  const ProviderRegistry& providers;
  webhooks::WebhookSender& sender;
  // The service's origin as providers reach it ("http://127.0.0.1:8080"), for callbackUrl.
  std::function<std::string()> callback_base;
  const Clock& clock;
};

class ProviderNotices {
 public:
  // Threads that send, shared by every provider's lane.
  static constexpr size_t kSenderThreads = 2;

  static Result<std::unique_ptr<ProviderNotices>> Start(ProviderNoticesDeps deps);
  ~ProviderNotices();  // Stop
  ProviderNotices(const ProviderNotices&) = delete;
  ProviderNotices& operator=(const ProviderNotices&) = delete;

  // Ends the intake, then the lanes once their attempts in flight are recorded. Idempotent.
  void Stop();
  // Every event before `position` has been read and its notices recorded (tests).
  bool WaitForIntake(uint64_t position, std::chrono::milliseconds timeout) const;

  // Since start: attempts that did not deliver, and notices that failed for good.
  uint64_t failed_attempts() const { return failed_attempts_.load(); }
  uint64_t failed_notices() const { return failed_notices_.load(); }

 private:
  explicit ProviderNotices(ProviderNoticesDeps deps);
  // The notices of one event of the log, for providers with a start URL.
  Result<std::vector<delivery::Delivery>> Plan(const eventstore::EventRecord& record, int64_t now);
  delivery::AttemptOutcome Send(const delivery::Delivery& delivery);
  // The body as it goes out now (the document read, the callback URL added); an error fails
  // the notice without sending.
  Result<std::string> Render(const delivery::Delivery& delivery, const ProviderConfig& provider);

  ProviderNoticesDeps deps_;
  std::atomic<uint64_t> failed_attempts_{0};
  std::atomic<uint64_t> failed_notices_{0};
  std::unique_ptr<delivery::LogOutbox> outbox_;
};

}  // namespace esign::app
