// Tells signing providers of their sessions: when a provider_managed session is created (by the
// integrator, or by the service itself in automatic mode), the provider's start URL, if it has
// one, receives
//   POST <startUrl>  {"type":"session.started", sessionId, contractId, participantId,
//                     organizationId, signerName, documentSha256, documentBase64, expiresAt,
//                     callbackUrl}
// and when the contract of an open session is voided or expires, the same URL receives
//   POST <startUrl>  {"type":"session.cancelled", sessionId, contractId, participantId,
//                     reason: "contract_voided" | "contract_expired"}
// so the provider stops asking its signer. Both are signed like the provider's own callbacks
// (X-Provider-Timestamp, X-Provider-Signature), so the provider can check they came from us.
// Start and Cancel only queue the notice: one background thread looks up the provider, reads the
// document and sends, in the order queued (a session's start before its cancellation), with a
// few retries, through the webhooks' HTTP client (https, or http to loopback; timeouts; no
// redirects; addresses that are not public refused); the outcome is logged. A provider without
// a start URL is expected to learn of sessions by other means (it still reports through
// callbacks, which a dead session answers 410).
// Thread safety: Start and Cancel may be called from any thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app/provider_registry.h"
#include "domain/contract_state.h"
#include "eventstore/event_store.h"
#include "webhooks/webhook_sender.h"

namespace esign::app {

class ProviderStarter {
 public:
  // `callback_base` gives the service's origin as providers reach it ("http://127.0.0.1:8080").
  ProviderStarter(const ProviderRegistry& providers, const eventstore::BlobStore& blobs,
                  std::function<std::string()> callback_base);
  ~ProviderStarter();  // finishes the request in flight, drops the rest

  void Start(const ContractState& contract, const SigningSession& session);
  // `contract` is voided or expired (its status gives the reason); `session` was open until then.
  void Cancel(const ContractState& contract, const SigningSession& session);

 private:
  enum class Notice { kStarted, kCancelled };
  // What a notice needs of the contract; the provider and the document are looked up by the
  // background thread.
  struct Job {
    Notice notice = Notice::kStarted;
    SigningSession session;
    std::string contract_id;
    std::string organization_id;  // kStarted
    std::string signer_name;      // kStarted
    std::string reason;           // kCancelled
  };
  void Queue(Job job);
  void Run(const std::stop_token& stop);
  void Send(const Job& job, const std::stop_token& stop);

  const ProviderRegistry& providers_;
  const eventstore::BlobStore& blobs_;
  std::function<std::string()> callback_base_;
  std::unique_ptr<webhooks::WebhookSender> sender_;  // the webhooks' client: timeouts, no redirects
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::deque<Job> jobs_;
  std::jthread worker_;
};

}  // namespace esign::app
