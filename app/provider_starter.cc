#include "app/provider_starter.h"

#include <boost/json.hpp>
#include <iostream>

#include "base/base64.h"
#include "http/provider_callback_routes.h"

namespace esign::app {
namespace {

constexpr int kAttempts = 3;

}  // namespace

ProviderStarter::ProviderStarter(const ProviderRegistry& providers,
                                 const eventstore::BlobStore& blobs,
                                 std::function<std::string()> callback_base)
    : providers_(providers),
      blobs_(blobs),
      callback_base_(std::move(callback_base)),
      sender_(webhooks::MakeBeastSender({.allow_loopback = true})) {
  worker_ = std::jthread([this](const std::stop_token& stop) { Run(stop); });
}

ProviderStarter::~ProviderStarter() {
  worker_.request_stop();
  wake_.notify_all();
}

void ProviderStarter::Start(const ContractState& contract, const SigningSession& session) {
  const Participant* signer = contract.FindParticipant(session.participant_id);
  Queue(Job{.notice = Notice::kStarted,
            .session = session,
            .contract_id = contract.id,
            .organization_id = signer && signer->organization_id ? *signer->organization_id : "",
            .signer_name = signer ? signer->name : ""});
}

void ProviderStarter::Cancel(const ContractState& contract, const SigningSession& session) {
  Queue(Job{.notice = Notice::kCancelled,
            .session = session,
            .contract_id = contract.id,
            .reason = contract.status == ContractStatus::kExpired ? "contract_expired"
                                                                  : "contract_voided"});
}

void ProviderStarter::Queue(Job job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void ProviderStarter::Run(const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    if (!wake_.wait(lock, stop, [this] { return !jobs_.empty(); })) return;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    Send(job, stop);
    lock.lock();
  }
}

void ProviderStarter::Send(const Job& job, const std::stop_token& stop) {
  const SigningSession& session = job.session;
  auto provider = providers_.Find(session.provider_id);
  if (!provider || provider->start_url.empty()) return;
  const bool starting = job.notice == Notice::kStarted;
  const std::string type = starting ? "session.started" : "session.cancelled";
  boost::json::object notice{{"type", type},
                             {"sessionId", session.session_id},
                             {"contractId", job.contract_id},
                             {"participantId", session.participant_id}};
  if (starting) {
    auto document = blobs_.Get(session.document_sha256);
    notice["organizationId"] = job.organization_id;
    notice["signerName"] = job.signer_name;
    notice["documentSha256"] = session.document_sha256;
    notice["documentBase64"] = document ? Base64Encode(*document) : "";
    notice["expiresAt"] = session.expires_at;
    notice["callbackUrl"] = callback_base_() + "/api/v1/provider-callbacks/" + provider->id;
  } else {
    notice["reason"] = job.reason;
  }
  const std::string body = boost::json::serialize(notice);
  for (int attempt = 1; attempt <= kAttempts && !stop.stop_requested(); ++attempt) {
    const std::string timestamp =
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count());
    const webhooks::SendOutcome outcome = sender_->Send(
        {provider->start_url,
         {{"X-Provider-Timestamp", timestamp},
          {"X-Provider-Signature", http::ProviderSignature(provider->secret, timestamp, body)}},
         body});
    if (outcome.status_code >= 200 && outcome.status_code < 300) {
      std::cerr << "contractd: provider told " << type << " for session " << session.session_id
                << std::endl;
      return;
    }
    std::cerr << "contractd: telling the provider " << type << " for session " << session.session_id
              << " failed (attempt " << attempt << "): "
              << (outcome.error.empty() ? "HTTP " + std::to_string(outcome.status_code)
                                        : outcome.error)
              << std::endl;
    if (attempt == kAttempts) return;
    // A pause before the next attempt that a stopping service cuts short.
    std::mutex pause_mutex;
    std::unique_lock pause(pause_mutex);
    wake_.wait_for(pause, stop, std::chrono::seconds(attempt * 2), [] { return false; });
  }
}

}  // namespace esign::app
