// Starts signing providers: when a provider_managed session is created (by the integrator, or
// by the service itself in automatic mode), the provider's start URL, if it has one, receives
//   POST <startUrl>  {sessionId, contractId, participantId, organizationId, signerName,
//                     documentSha256, documentBase64, expiresAt, callbackUrl}
// signed like the provider's own callbacks (X-Provider-Timestamp, X-Provider-Signature), so the
// provider can check it came from us. Start only queues the session: one background thread looks
// up the provider, reads the document and sends, with a few retries, through the webhooks' HTTP
// client (https, or http to loopback; timeouts; no redirects; addresses that are not public
// refused); the outcome is logged. A provider without a
// start URL is expected to learn of sessions by other means (it still reports through callbacks).
// Thread safety: Start may be called from any thread.
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

 private:
  // What the start request needs of the contract; the provider and the document are looked up
  // by the background thread.
  struct Job {
    SigningSession session;
    std::string contract_id;
    std::string organization_id;
    std::string signer_name;
  };
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
